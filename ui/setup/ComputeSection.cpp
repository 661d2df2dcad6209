#include "ui/setup/ComputeSection.h"

#include "core/training/ComputeDevice.h"
#include "ui/setup/FormWidgets.h"

#include <QCheckBox>
#include <QComboBox>
#include <QSpinBox>
#include <QStandardItemModel>

#include <exception>
#include <vector>

namespace attnlab::ui {

using namespace form;

namespace {

// A check box's row that writes and reads one switch of TrainConfig.
FormSetting switchRow(const char* key, const QString& label, QCheckBox* box, bool TrainConfig::*member)
{
    return {{key},
            label,
            box,
            true,
            nullptr,
            {},
            [box, member](TrainConfig& c, const ModelSpec*) { c.*member = box->isChecked(); },
            [box, member](const TrainConfig& c) { box->setChecked(c.*member); }};
}

} // namespace

ComputeSection::ComputeSection(QWidget* parent) : FormSection(tr("Compute"), parent)
{
    setObjectName(QStringLiteral("computeSection"));
    std::vector<GpuDevice> gpus;
    try {
        gpus = ComputeDevice::gpus();
    } catch (const std::exception&) {
        gpus.clear();
    }
    auto* device = choices(this, "deviceCombo", {{tr("auto"), "auto"}, {tr("cpu"), "cpu"}});
    for (const auto& gpu : gpus)
        device->addItem(QString::fromStdString(gpu.label()), QString::fromStdString(gpu.id()));
    if (gpus.empty()) {
        device->addItem(tr("cuda"), QStringLiteral("cuda"));
        if (auto* items = qobject_cast<QStandardItemModel*>(device->model()))
            items->item(2)->setEnabled(false);
        device->setItemData(2, ComputeDevice::cudaBuilt() ? tr("This LibTorch has CUDA, but no CUDA device is usable here")
                                                          : tr("This build of LibTorch has no CUDA (build the pypi flavour)"),
                            Qt::ToolTipRole);
    }
    add({{"device"},
         tr("Device"),
         device,
         false,
         nullptr,
         {},
         [device](TrainConfig& c, const ModelSpec*) { c.device = device->currentData().toString().toStdString(); },
         [device](const TrainConfig& c) { selectData(device, c.device); }});
    auto* threads = spin(this, "threadsSpin", 0, 256);
    threads->setSpecialValueText(tr("all cores"));
    add({{"threads"},
         tr("Threads"),
         threads,
         false,
         nullptr,
         {},
         [threads](TrainConfig& c, const ModelSpec*) { c.threads = threads->value(); },
         [threads](const TrainConfig& c) { threads->setValue(c.threads); }});
    add(switchRow("amp", tr("Precision"),
                  check(this, "ampBox", tr("bf16 autocast (CUDA only)"), tr("Mixed precision for the forward passes on a CUDA device")),
                  &TrainConfig::amp));
    add(switchRow("tf32", tr("TF32"),
                  check(this, "tf32Box", tr("TF32 matrix products (CUDA only)"),
                        tr("Float32 matrix products in TF32 on Ampere and later GPUs: faster, about 3 decimal digits")),
                  &TrainConfig::tf32));
    add(switchRow("deterministic", tr("Reproducible"),
                  check(this, "deterministicBox", tr("deterministic kernels"),
                        tr("Only LibTorch's deterministic algorithms: the same seed gives the same numbers on the same GPU")),
                  &TrainConfig::deterministic));
}

} // namespace attnlab::ui
