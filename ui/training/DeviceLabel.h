#pragma once
#include <QLabel>
#include <QTimer>

namespace attnlab::ui {

// The status bar's device: what a run will use (threads, CUDA) until one starts, then the run's own device.
// A run on the reference BLAS is ~13x slower (docs/BENCHMARKS.md), so that is said here, where the device
// is named, in a warning colour with the reason as the tooltip, rather than in a dialog. While a run trains
// on a GPU, the memory LibTorch's allocator holds there is added once a second. Object name: deviceLabel.
class DeviceLabel : public QLabel {
    Q_OBJECT
public:
    explicit DeviceLabel(QWidget* parent = nullptr);
    void showRunDevice(const QString& device, const QString& modelSummary);
    void runFinished(); // stops the GPU memory reading; the last one stays shown

private:
    void showMemory();
    QTimer* memoryTimer_;
    QString runDevice_, cudaDevice_;
};

} // namespace attnlab::ui
