#pragma once
#include "core/results/AttentionSnapshot.h"
#include "core/results/MetricPoint.h"

#include <QElapsedTimer>
#include <QWidget>

#include <functional>
#include <vector>

class QPushButton;
class QSlider;
class QSpinBox;
class QLabel;
class QTimer;

namespace attnlab {
class RunStore;
}

namespace attnlab::ui {

// Plays finished runs back in step (the lesson SAN vs RNN trains in 1.3 s on built-in data, over
// before a class sees which curve climbs first). Reads each run's stored curves and probe-0 attention once,
// then moves one step counter over the longest run in a chosen time (default 20 s): at each frame every run
// shows its points up to that step and its latest snapshot at or before it. Pause, and a slider to any step.
// Object names: replayButton, replaySlider, replaySeconds, replayStep.
class RunReplay : public QWidget {
    Q_OBJECT
public:
    struct Run {
        std::vector<MetricPoint> metrics;     // by step
        std::vector<AttentionSnapshot> maps;  // probe 0, by step
    };
    explicit RunReplay(QWidget* parent = nullptr);

    // The runs to play (their order is the view's), read from the store; enables the bar.
    void load(const attnlab::RunStore& store, const std::vector<qint64>& runIds);
    void clear(); // nothing to play: hidden
    bool isPlaying() const;
    int step() const { return step_; }
    int lastStep() const { return lastStep_; }
    const std::vector<Run>& runs() const { return runs_; }

    void play();          // from the start, or on from where it was paused
    void pause();
    void showStep(int step); // as the slider does
    void setSeconds(int seconds);

signals:
    // Each run's points up to `step` and its snapshot at or before it (nullptr: none yet).
    void frame(int step, const std::vector<std::vector<attnlab::MetricPoint>>& metrics,
               const std::vector<const attnlab::AttentionSnapshot*>& maps);
    void finished();

private:
    void tick();
    void emitFrame();

    QPushButton* button_;
    QSlider* slider_;
    QSpinBox* seconds_;
    QLabel* stepLabel_;
    QTimer* timer_;
    QElapsedTimer clock_;
    std::vector<Run> runs_;
    int step_ = 0, lastStep_ = 0, startStep_ = 0;
};

} // namespace attnlab::ui
