#include "ui/explorer/TrainingTimeline.h"

#include <QComboBox>
#include <QGridLayout>
#include <QLabel>
#include <QSlider>
#include <QTimer>
#include <QToolButton>
#include <qcustomplot.h>

#include <algorithm>

namespace attnlab::ui {

TrainingTimeline::TrainingTimeline(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("trainingTimeline"));
    slider_ = new QSlider(Qt::Horizontal, this);
    slider_->setObjectName(QStringLiteral("explorerTimeline"));
    slider_->setToolTip(tr("The probe input's attention at each dev evaluation of the run"));
    play_ = new QToolButton(this);
    play_->setObjectName(QStringLiteral("explorerPlay"));
    play_->setText(tr("Play"));
    play_->setCheckable(true);
    play_->setToolTip(tr("Step through the training timeline"));
    stepLabel_ = new QLabel(this);
    stepLabel_->setObjectName(QStringLiteral("explorerStep"));
    stepLabel_->setMinimumWidth(stepLabel_->fontMetrics().horizontalAdvance(tr("step 000000 (00 of 00)")));
    devPlot_ = new QCustomPlot(this);
    devPlot_->setObjectName(QStringLiteral("explorerDevPlot"));
    devPlot_->setMinimumHeight(110);
    devPlot_->setMaximumHeight(140);
    devPlot_->yAxis->ticker()->setTickCount(3);
    devPlot_->addGraph();
    devPlot_->graph(0)->setPen(QPen(QColor(230, 97, 1), 1.5));
    devPlot_->xAxis->setLabel(tr("step"));
    cursor_ = new QCPItemStraightLine(devPlot_);
    cursor_->setPen(QPen(palette().color(QPalette::Highlight), 1.5, Qt::DashLine));
    probe_ = new QComboBox(this);
    probe_->setObjectName(QStringLiteral("explorerProbe"));
    probe_->setToolTip(tr("Which probe input's stored attention the timeline shows"));
    probe_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    probe_->setMinimumContentsLength(30);
    auto* layout = new QGridLayout(this);
    layout->addWidget(play_, 0, 0);
    layout->addWidget(slider_, 0, 1);
    layout->addWidget(stepLabel_, 0, 2);
    layout->addWidget(probe_, 0, 3);
    layout->addWidget(devPlot_, 1, 0, 1, 4);

    player_ = new QTimer(this);
    player_->setInterval(500);
    const auto requestAt = [this](int index) {
        if (index >= 0 && index < static_cast<int>(steps_.size()))
            emit stepRequested(steps_[static_cast<std::size_t>(index)]);
    };
    connect(slider_, &QSlider::valueChanged, this, requestAt);
    connect(probe_, &QComboBox::activated, this, [this, requestAt] { requestAt(slider_->value()); });
    connect(play_, &QToolButton::toggled, this, &TrainingTimeline::togglePlay);
    connect(player_, &QTimer::timeout, this, [this] {
        if (slider_->value() >= slider_->maximum())
            play_->setChecked(false);
        else
            slider_->setValue(slider_->value() + 1);
    });
    clear();
}

void TrainingTimeline::clear()
{
    stop();
    steps_.clear();
    {
        const QSignalBlocker blocker(slider_);
        slider_->setRange(0, 0);
    }
    slider_->setEnabled(false);
    play_->setEnabled(false);
    stepLabel_->clear();
    {
        const QSignalBlocker blocker(probe_);
        probe_->clear();
    }
    probe_->setEnabled(false);
    devPlot_->graph(0)->data()->clear();
    cursor_->setVisible(false);
    devPlot_->replot(QCustomPlot::rpQueuedReplot);
}

void TrainingTimeline::setRun(const std::vector<int>& steps, const std::vector<Probe>& probes,
                              const std::vector<std::pair<int, double>>& devCurve, const QString& devLabel)
{
    clear();
    {
        const QSignalBlocker blocker(probe_);
        for (const Probe& p : probes) {
            probe_->addItem(p.label);
            probe_->setItemData(probe_->count() - 1, p.tooltip, Qt::ToolTipRole);
        }
    }
    probe_->setEnabled(probe_->count() > 1);
    for (const auto& [step, value] : devCurve)
        devPlot_->graph(0)->addData(step, value);
    devPlot_->yAxis->setLabel(devLabel);
    devPlot_->rescaleAxes();
    devPlot_->replot(QCustomPlot::rpQueuedReplot);
    setSteps(steps);
    const QSignalBlocker blocker(slider_);
    slider_->setValue(slider_->maximum());
}

void TrainingTimeline::setSteps(const std::vector<int>& steps)
{
    steps_ = steps;
    {
        const QSignalBlocker blocker(slider_);
        slider_->setRange(0, std::max(0, static_cast<int>(steps_.size()) - 1));
    }
    slider_->setEnabled(steps_.size() > 1);
    play_->setEnabled(steps_.size() > 1);
}

bool TrainingTimeline::atEnd() const { return slider_->value() == slider_->maximum(); }

int TrainingTimeline::probe() const { return std::max(0, probe_->currentIndex()); }

void TrainingTimeline::showStored(int step)
{
    const auto at = std::lower_bound(steps_.begin(), steps_.end(), step);
    const int index = static_cast<int>(at - steps_.begin());
    if (slider_->value() != index) {
        const QSignalBlocker blocker(slider_);
        slider_->setValue(index);
    }
    stepLabel_->setText(tr("step %1 (%2 of %3)").arg(step).arg(index + 1).arg(steps_.size()));
    moveCursor(step);
}

void TrainingTimeline::showTyped(int step)
{
    stop();
    moveCursor(step);
    stepLabel_->setText(tr("typed · weights of step %1").arg(step));
    if (const auto at = std::lower_bound(steps_.begin(), steps_.end(), step); at != steps_.end() && *at == step) {
        const QSignalBlocker blocker(slider_); // the slider at the step of the weights that answered
        slider_->setValue(static_cast<int>(at - steps_.begin()));
    }
}

void TrainingTimeline::stop() { play_->setChecked(false); }

void TrainingTimeline::moveCursor(int step)
{
    cursor_->point1->setCoords(step, 0);
    cursor_->point2->setCoords(step, 1);
    cursor_->setVisible(true);
    devPlot_->replot(QCustomPlot::rpQueuedReplot);
}

void TrainingTimeline::togglePlay()
{
    if (!play_->isChecked()) {
        player_->stop();
        play_->setText(tr("Play"));
        return;
    }
    if (slider_->value() >= slider_->maximum())
        slider_->setValue(0);
    play_->setText(tr("Pause"));
    player_->start();
}

} // namespace attnlab::ui
