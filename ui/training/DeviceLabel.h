#pragma once
#include <QLabel>

namespace attnlab::ui {

// The status bar's device: what a run will use (threads, CUDA) until one starts, then the run's own device.
// A run on the reference BLAS is ~13x slower (docs/BENCHMARKS.md), so that is said here, where the device
// is named, in a warning colour with the reason as the tooltip, rather than in a dialog. Object name:
// deviceLabel.
class DeviceLabel : public QLabel {
    Q_OBJECT
public:
    explicit DeviceLabel(QWidget* parent = nullptr);
    void showRunDevice(const QString& device, const QString& modelSummary);
};

} // namespace attnlab::ui
