#pragma once
#include <QList>
#include <QObject>
#include <QString>

class QDockWidget;

namespace attnlab::ui {

class MainWindow;
class RunListPanel;
class Workspace;

// What a lesson opens. A lesson that explores a pretrained model (TeachingScenario::explore) opens the Real LLM
// tab at once, on its prompt, tab and knocked-out heads; a lesson trained side by side opens the view it names
// (TeachingScenario::opens) once its runs have ended: Compare over them, the Explorer on the last, or the
// Faithfulness tab on the first. On a projector-sized window the designer makes room for either.
class LessonDirector : public QObject {
    Q_OBJECT
public:
    LessonDirector(MainWindow* window, Workspace* workspace, RunListPanel* runs, QDockWidget* designer,
                   QDockWidget* runsDock);

    void openExploring(const QString& lessonId, const QString& dataDir);
    void openAtEnd(const QString& opens, qint64 firstRun, qint64 lastRun, const QList<qint64>& endedRuns);
    // Hides the docked designer (and, for a lesson that stores no run, the runs dock) when the window is narrower
    // than 1600 px; true when it did (say Ctrl+D).
    bool makeRoom(bool runsToo = false);

Q_SIGNALS:
    void statusMessage(const QString& text);

private:
    MainWindow* window_;
    Workspace* workspace_;
    RunListPanel* runs_;
    QDockWidget* designer_;
    QDockWidget* runsDock_;
};

} // namespace attnlab::ui
