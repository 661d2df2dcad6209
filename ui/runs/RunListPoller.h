#pragma once
#include "core/store/RunListState.h"

#include <QObject>

class QTimer;

namespace attnlab {
class RunStore;
}

namespace attnlab::ui {

// Runs written by another process (a sweep or `attnlab-cli train` into the window's database) appear in the
// run list within kIntervalMs, as they do in TensorBoard or an MLflow page, with no Refresh: every kIntervalMs
// the store's RunListState (index reads only) is compared with the one at the last listing, and a difference
// asks for the list again. The window's own runs list themselves as they end; they change the state too, and
// the refresh they cause records it (listed()), so nothing is listed twice.
class RunListPoller : public QObject {
    Q_OBJECT
public:
    static constexpr int kIntervalMs = 2000;

    explicit RunListPoller(QObject* parent = nullptr);
    void setStore(const RunStore* store); // none: polling pauses
    // The state the shown list was read at (the window's refresh calls this as it lists).
    void listed();
    bool poll(); // once now; true when it asked for the list (tests, and the timer)

signals:
    void runsChanged();

private:
    const RunStore* store_ = nullptr;
    RunListState shown_;
    QTimer* timer_;
};

} // namespace attnlab::ui
