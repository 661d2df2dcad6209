#pragma once
#include <QToolBar>

class QProgressBar;
class QPushButton;

namespace attnlab::ui {

// The window's primary actions, always visible whatever the designer's scroll position: Train, Stop,
// Compare (with how many configurations are waiting to be compared) and the live run's progress.
// Parts by object name: runToolBar, trainButton, stopButton, compareButton, trainingProgress.
class RunToolBar : public QToolBar {
    Q_OBJECT
public:
    explicit RunToolBar(QWidget* parent = nullptr);

    void runBegun(int plannedSteps); // Train off, Stop on, the progress bar from 0
    void stopping();                 // Stop pressed: off until the run has ended
    void runEnded();                 // Train on, Stop off; the progress bar keeps the last value
    void setProgress(int step, int totalSteps);
    void setWaitingComparisons(int count); // "Compare (n)"; 0: "Compare"

signals:
    void trainClicked();
    void stopClicked();
    void compareClicked();

private:
    QPushButton* train_;
    QPushButton* stop_;
    QPushButton* compare_;
    QProgressBar* progress_;
};

} // namespace attnlab::ui
