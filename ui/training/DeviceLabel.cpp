#include "ui/training/DeviceLabel.h"

#include "core/platform/BlasLibrary.h"
#include "core/training/ComputeDevice.h"

#include <exception>
#include <string>

namespace attnlab::ui {

DeviceLabel::DeviceLabel(QWidget* parent) : QLabel(parent), memoryTimer_(new QTimer(this))
{
    setObjectName(QStringLiteral("deviceLabel"));
    memoryTimer_->setInterval(1000);
    connect(memoryTimer_, &QTimer::timeout, this, &DeviceLabel::showMemory);
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
    runDevice_ = device;
    setText(device);
    setToolTip(modelSummary);
    cudaDevice_ = device.startsWith(QLatin1String("cuda:")) ? device.section(QLatin1Char(' '), 0, 0) : QString();
    if (!cudaDevice_.isEmpty())
        memoryTimer_->start();
}

void DeviceLabel::runFinished()
{
    memoryTimer_->stop();
}

void DeviceLabel::showMemory()
{
    try {
        const auto inUse = ComputeDevice::memoryInUse(cudaDevice_.toStdString());
        const auto info = ComputeDevice::memoryInfo(cudaDevice_.toStdString());
        if (!inUse)
            return;
        QString text = tr("%1 · GPU %2 MiB in use").arg(cudaDevice_).arg(*inUse >> 20);
        if (info)
            text += tr(" (%1 MiB free)").arg(info->first >> 20);
        setText(text);
        setToolTip(runDevice_);
    } catch (const std::exception&) {
        memoryTimer_->stop(); // the device went away: the run's own message says so
    }
}

} // namespace attnlab::ui
