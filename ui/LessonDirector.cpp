#include "ui/LessonDirector.h"

#include "core/config/TeachingScenario.h"
#include "ui/MainWindow.h"
#include "ui/StdStrings.h"
#include "ui/Workspace.h"
#include "ui/explorer/ExplorerView.h"
#include "ui/explorer/PretrainedLlmView.h"
#include "ui/runs/RunListPanel.h"

#include <QDockWidget>

namespace attnlab::ui {

LessonDirector::LessonDirector(MainWindow* window, Workspace* workspace, RunListPanel* runs, QDockWidget* designer,
                               QDockWidget* runsDock)
    : QObject(window), window_(window), workspace_(workspace), runs_(runs), designer_(designer), runsDock_(runsDock)
{
}

bool LessonDirector::makeRoom(bool runsToo)
{
    if (window_->width() >= 1600)
        return false;
    bool hid = false;
    for (QDockWidget* dock : {designer_, runsToo ? runsDock_ : nullptr})
        if (dock && dock->isVisible() && !dock->isFloating()) {
            dock->hide();
            hid = true;
        }
    return hid;
}

void LessonDirector::openExploring(const QString& lessonId, const QString& dataDir)
{
    const TeachingScenario* lesson = TeachingScenario::find(lessonId.toStdString());
    if (!lesson || !lesson->explore)
        return;
    PretrainedLlmView* llm = workspace_->llm();
    llm->setDataDir(dataDir);
    workspace_->showLlm();
    llm->openLesson(qs(lesson->title), qs(lesson->lesson), *lesson->explore);
    const bool madeRoom = makeRoom(true); // nothing is trained or stored: the model's views need the whole window
    emit statusMessage(
        tr("%1: SmolLM2-135M reads \"%2\", nothing is trained%3")
            .arg(qs(lesson->title), qs(lesson->explore->prompt),
                 madeRoom ? tr(" (View: Ctrl+D shows the designer again, and Runs the runs)") : QString()));
}

void LessonDirector::openAtEnd(const QString& opens, qint64 firstRun, qint64 lastRun, const QList<qint64>& endedRuns)
{
    if (opens == QLatin1String("compare")) { // the lesson's runs overlaid (its gradient panels, say)
        window_->refreshRuns();
        window_->compareRuns(endedRuns);
        workspace_->setCurrentWidget(workspace_->compareArea());
    } else if (opens == QLatin1String("explorer") && lastRun > 0) {
        runs_->selectRun(lastRun, true);
        workspace_->setCurrentWidget(workspace_->explorerPage());
        workspace_->exploreRun(lastRun);
    } else if (opens == QLatin1String("faithfulness") && firstRun > 0) {
        runs_->selectRun(firstRun, true);
        workspace_->setCurrentWidget(workspace_->explorerPage());
        workspace_->explorer()->setRun(firstRun);
        workspace_->explorer()->openFaithfulness();
    }
}

} // namespace attnlab::ui
