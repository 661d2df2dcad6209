#include "ui/Workspace.h"

#include "core/config/Registry.h"
#include "core/store/RunStore.h"
#include "ui/analysis/CompareView.h"
#include "ui/analysis/ResultsMatrixView.h"
#include "ui/analysis/RunDetailsView.h"
#include "ui/analysis/RunDifferencesView.h"
#include "ui/explorer/AlignmentExplorer.h"
#include "ui/explorer/ExplorerView.h"
#include "ui/explorer/PretrainedLlmView.h"
#include "ui/explorer/PretrainedView.h"
#include "ui/explorer/WritingExplorer.h"
#include "ui/training/LiveComparisonView.h"
#include "ui/training/RunReplay.h"
#include "ui/training/TrainingView.h"

#include <QEvent>
#include <QScrollArea>
#include <QSplitter>
#include <QVBoxLayout>

namespace attnlab::ui {

Workspace::Workspace(const QString& dbPath, QWidget* parent)
    : QTabWidget(parent), training_(new TrainingView), trainingReplay_(new RunReplay), explorer_(new ExplorerView),
      alignment_(new AlignmentExplorer), writing_(new WritingExplorer), explorerPage_(new QScrollArea),
      compareArea_(new QSplitter(Qt::Vertical)), compareView_(new CompareView), differences_(new RunDifferencesView),
      matrix_(new ResultsMatrixView), details_(new RunDetailsView), live_(new LiveComparisonView(dbPath)),
      pretrained_(new PretrainedView), llm_(new PretrainedLlmView)
{
    setObjectName(QStringLiteral("workspaceTabs"));
    setDocumentMode(true);
    // A stored run plays back at a pace a class can follow: the bar shows only when there is one.
    auto* trainingPage = new QWidget;
    trainingPage->setObjectName(QStringLiteral("trainingPage"));
    trainingReplay_->setObjectName(QStringLiteral("trainingReplay"));
    auto* trainingLayout = new QVBoxLayout(trainingPage);
    trainingLayout->setContentsMargins(0, 0, 0, 0);
    trainingLayout->addWidget(trainingReplay_);
    trainingLayout->addWidget(training_, 1);
    addTab(trainingPage, tr("&Training"));
    explorerPage_->setObjectName(QStringLiteral("explorerScroll"));
    alignment_->setParent(this); // shown in the scroll area's place of the text explorer for a translation run
    alignment_->hide();
    writing_->setParent(this); // likewise for a language model's run
    writing_->hide();
    showExplorerPage(explorer_);
    explorerPage_->setWidgetResizable(true);
    explorerPage_->setFrameShape(QFrame::NoFrame);
    explorerPage_->viewport()->installEventFilter(this);
    addTab(explorerPage_, tr("E&xplorer"));
    compareArea_->setObjectName(QStringLiteral("compareSplitter"));
    compareArea_->addWidget(compareView_);
    compareArea_->addWidget(differences_);
    compareArea_->setStretchFactor(0, 3);
    compareArea_->setStretchFactor(1, 1);
    addTab(compareArea_, tr("&Compare"));
    addTab(matrix_, tr("Results &matrix"));
    addTab(details_, tr("Run &details"));
    live_->setObjectName(QStringLiteral("liveComparisonView"));
    addTab(live_, tr("&Side by side"));
    // In a scroll area, as the explorer: its header, switches and maps must not raise the window's minimum
    // height above a projector's 720 lines.
    pretrained_->setObjectName(QStringLiteral("pretrainedView"));
    auto* pretrainedPage = new QScrollArea;
    pretrainedPage->setObjectName(QStringLiteral("pretrainedScroll"));
    pretrainedPage->setWidget(pretrained_);
    pretrainedPage->setWidgetResizable(true);
    pretrainedPage->setFrameShape(QFrame::NoFrame);
    addTab(pretrainedPage, tr("&Pretrained"));
    llm_->setObjectName(QStringLiteral("llmView"));
    auto* llmPage = new QScrollArea;
    llmPage->setObjectName(QStringLiteral("llmScroll"));
    llmPage->setWidget(llm_);
    llmPage->setWidgetResizable(true);
    llmPage->setFrameShape(QFrame::NoFrame);
    addTab(llmPage, tr("Real &LLM"));
}

QWidget* Workspace::explorerPage() const { return explorerPage_; }

void Workspace::showExplorerPage(QWidget* page)
{
    // One page in the scroll area at a time: a stack of both would be as tall as the taller (the alignment
    // explorer's 560 px floor made the text explorer scroll at 1280x720). The other waits, hidden, here.
    if (explorerPage_->widget() == page)
        return;
    if (QWidget* shown = explorerPage_->takeWidget()) {
        shown->hide();
        shown->setParent(this);
    }
    explorerPage_->setWidget(page);
    page->show();
}

bool Workspace::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == explorerPage_->viewport() && event->type() == QEvent::Resize)
        explorer_->fitHeight(explorerPage_->viewport()->height());
    return QTabWidget::eventFilter(watched, event);
}

void Workspace::setStore(RunStore* store)
{
    store_ = store;
    explorer_->setStore(store);
    alignment_->setStore(store);
    writing_->setStore(store);
}

void Workspace::exploreRun(qint64 runId)
{
    if (!store_)
        return;
    const auto record = store_->run(runId);
    const TaskKind task = record ? Registry::taskOf(record->dataset) : TaskKind::Classification;
    const bool translation = task == TaskKind::Translation;
    const bool languageModel = task == TaskKind::LanguageModel;
    showExplorerPage(translation     ? static_cast<QWidget*>(alignment_)
                     : languageModel ? static_cast<QWidget*>(writing_)
                                     : static_cast<QWidget*>(explorer_));
    if (translation)
        alignment_->setRun(runId);
    else if (languageModel)
        writing_->setRun(runId);
    else
        explorer_->setRun(runId);
}

qint64 Workspace::exploredRunId() const
{
    if (explorerPage_->widget() == writing_)
        return writing_->runId();
    return explorerPage_->widget() == alignment_ ? alignment_->runId() : explorer_->runId();
}

void Workspace::clearExplorer(const QString& message)
{
    explorer_->clear(message);
    alignment_->clear(message);
    writing_->clear(message);
}

void Workspace::showLlm()
{
    setCurrentWidget(findChild<QScrollArea*>(QStringLiteral("llmScroll")));
}

} // namespace attnlab::ui
