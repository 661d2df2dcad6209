#include "ui/training/RunToolBar.h"

#include <QProgressBar>
#include <QPushButton>

namespace attnlab::ui {

RunToolBar::RunToolBar(QWidget* parent) : QToolBar(tr("Run"), parent)
{
    setObjectName(QStringLiteral("runToolBar"));
    setMovable(false);
    train_ = new QPushButton(tr("▶ Train"));
    train_->setObjectName(QStringLiteral("trainButton"));
    train_->setToolTip(tr("Train the designer's configuration (Ctrl+Enter; Space starts and stops)"));
    train_->setDefault(true);
    stop_ = new QPushButton(tr("■ Stop"));
    stop_->setObjectName(QStringLiteral("stopButton"));
    stop_->setToolTip(tr("Stop after the current batch; the run is stored as cancelled"));
    stop_->setEnabled(false);
    compare_ = new QPushButton(tr("Compare"));
    compare_->setObjectName(QStringLiteral("compareButton"));
    compare_->setToolTip(tr("Train the chosen lesson's configurations, or those added with Add to side by side "
                            "(Ctrl+B), at the same time on the same data and seed (Ctrl+Shift+Enter)"));
    progress_ = new QProgressBar;
    progress_->setObjectName(QStringLiteral("trainingProgress"));
    progress_->setRange(0, 1);
    progress_->setValue(0);
    progress_->setFormat(tr("%v / %m steps"));
    progress_->setMinimumWidth(180);
    progress_->setMaximumWidth(320);
    progress_->setVisible(false); // until there is a run to measure
    addWidget(train_);
    addWidget(stop_);
    addWidget(compare_);
    addSeparator();
    addWidget(progress_);
    connect(train_, &QPushButton::clicked, this, &RunToolBar::trainClicked);
    connect(stop_, &QPushButton::clicked, this, &RunToolBar::stopClicked);
    connect(compare_, &QPushButton::clicked, this, &RunToolBar::compareClicked);
}

void RunToolBar::runBegun(int plannedSteps)
{
    train_->setEnabled(false);
    stop_->setEnabled(true);
    progress_->setRange(0, plannedSteps);
    progress_->setValue(0);
    progress_->setVisible(true);
}

void RunToolBar::stopping() { stop_->setEnabled(false); }

void RunToolBar::runEnded()
{
    train_->setEnabled(true);
    stop_->setEnabled(false);
}

void RunToolBar::setProgress(int step, int totalSteps)
{
    if (progress_->maximum() != totalSteps)
        progress_->setRange(0, totalSteps);
    progress_->setValue(step);
}

void RunToolBar::setWaitingComparisons(int count)
{
    compare_->setText(count > 0 ? tr("Compare (%1)").arg(count) : tr("Compare"));
}

} // namespace attnlab::ui
