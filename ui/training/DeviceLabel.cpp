#include "ui/training/DeviceLabel.h"

#include "core/platform/BlasLibrary.h"
#include "core/training/ComputeDevice.h"

#include <exception>
#include <string>

namespace attnlab::ui {

DeviceLabel::DeviceLabel(QWidget* parent) : QLabel(parent)
{
    setObjectName(QStringLiteral("deviceLabel"));
    try {
        ComputeDevice::setThreads(0); // LibTorch starts with fewer threads than cores; say what a run will use
        setText(QString::fromStdString(ComputeDevice::describe(ComputeDevice::resolve("auto"))));
        if (const std::string warning = BlasLibrary::slowWarning(); !warning.empty()) {
            setText(text() + tr(" · slow BLAS"));
            setToolTip(QString::fromStdString(warning));
            setStyleSheet(QStringLiteral("color: #b35806; font-weight: bold"));
        }
    } catch (const std::exception& e) {
        setText(tr("device unknown: %1").arg(QString::fromStdString(e.what())));
    }
}

void DeviceLabel::showRunDevice(const QString& device, const QString& modelSummary)
{
    setText(device);
    setToolTip(modelSummary);
}

} // namespace attnlab::ui
