#pragma once
#include <QWidget>

#include <utility>
#include <vector>

class QComboBox;
class QCustomPlot;
class QCPItemStraightLine;
class QLabel;
class QSlider;
class QTimer;
class QToolButton;

namespace attnlab::ui {

// The Explorer's training timeline: a slider over the steps at which a run stored attention snapshots,
// Play (one step every 500 ms), which probe input to follow, and the run's dev curve with a cursor at the
// step shown. It holds no snapshots: it says which step is wanted (stepRequested) and the Explorer reads
// that one snapshot from the store and tells it where it landed (showStored). Parts by object name:
// explorerTimeline, explorerPlay, explorerStep, explorerProbe, explorerDevPlot.
class TrainingTimeline : public QWidget {
    Q_OBJECT
public:
    struct Probe {
        QString label;   // "negation: not good at all"
        QString tooltip; // the whole input
    };

    explicit TrainingTimeline(QWidget* parent = nullptr);

    void clear();
    // A run: its snapshot steps (ascending), its probes, and its dev curve (accuracy in % or RMSE).
    void setRun(const std::vector<int>& steps, const std::vector<Probe>& probes,
                const std::vector<std::pair<int, double>>& devCurve, const QString& devLabel);
    // More snapshots arrived (a live run): the slider grows; the caller follows the end when it was there.
    void setSteps(const std::vector<int>& steps);
    const std::vector<int>& steps() const { return steps_; }
    bool atEnd() const;
    int probe() const; // the index of the probe input followed (0 when there is one)

    // Where the shown snapshot came from: the slider, label and cursor move there, no signal.
    void showStored(int step);
    // A typed input's answer, computed from the weights of `step`: the cursor and label say so.
    void showTyped(int step);
    void stop(); // Play off (hidden behind another tab, or typing took over)

signals:
    void stepRequested(int step); // the slider moved, Play advanced, or another probe was chosen

private:
    void moveCursor(int step);
    void togglePlay();

    std::vector<int> steps_;
    QSlider* slider_;
    QToolButton* play_;
    QLabel* stepLabel_;
    QComboBox* probe_;
    QCustomPlot* devPlot_;
    QCPItemStraightLine* cursor_;
    QTimer* player_;
};

} // namespace attnlab::ui
