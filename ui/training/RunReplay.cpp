#include "ui/training/RunReplay.h"

#include "core/store/RunStore.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QTimer>

#include <algorithm>

namespace attnlab::ui {

RunReplay::RunReplay(QWidget* parent) : QWidget(parent), timer_(new QTimer(this))
{
    setObjectName(QStringLiteral("comparisonReplay"));
    button_ = new QPushButton(tr("▶ Replay"));
    button_->setObjectName(QStringLiteral("replayButton"));
    button_->setToolTip(tr("Play the finished runs back in step, slowly enough to point at which curve climbs first"));
    slider_ = new QSlider(Qt::Horizontal);
    slider_->setObjectName(QStringLiteral("replaySlider"));
    slider_->setToolTip(tr("Any step of the runs: their curves up to it and their attention at it"));
    seconds_ = new QSpinBox;
    seconds_->setObjectName(QStringLiteral("replaySeconds"));
    seconds_->setRange(2, 600);
    seconds_->setValue(20);
    seconds_->setSuffix(tr(" s"));
    seconds_->setToolTip(tr("How long a whole replay takes"));
    stepLabel_ = new QLabel;
    stepLabel_->setObjectName(QStringLiteral("replayStep"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(button_);
    layout->addWidget(slider_, 1);
    layout->addWidget(stepLabel_);
    layout->addWidget(new QLabel(tr("over")));
    layout->addWidget(seconds_);
    timer_->setInterval(33); // ~30 frames a second
    connect(timer_, &QTimer::timeout, this, &RunReplay::tick);
    connect(button_, &QPushButton::clicked, this, [this] { isPlaying() ? pause() : play(); });
    connect(slider_, &QSlider::valueChanged, this, [this](int value) {
        if (value == step_)
            return;
        pause();
        showStep(value);
    });
    clear();
}

void RunReplay::load(const RunStore& store, const std::vector<qint64>& runIds)
{
    pause();
    runs_.clear();
    lastStep_ = 0;
    for (const qint64 id : runIds) {
        Run run;
        run.metrics = store.metrics(id);
        for (const int s : store.attentionSteps(id))
            if (auto snapshot = store.attentionNearest(id, s, 0); snapshot && snapshot->step == s)
                run.maps.push_back(std::move(*snapshot));
        for (const auto& p : run.metrics)
            lastStep_ = std::max(lastStep_, p.step);
        runs_.push_back(std::move(run));
    }
    slider_->setRange(0, lastStep_);
    setVisible(lastStep_ > 0);
    setEnabled(lastStep_ > 0);
    showStep(lastStep_); // as it ended, until played
}

void RunReplay::clear()
{
    pause();
    runs_.clear();
    lastStep_ = step_ = 0;
    setVisible(false);
}

bool RunReplay::isPlaying() const
{
    return timer_->isActive();
}

void RunReplay::play()
{
    if (runs_.empty() || lastStep_ <= 0)
        return;
    startStep_ = step_ >= lastStep_ ? 0 : step_; // from the start when at the end, else on from here
    clock_.start();
    timer_->start();
    button_->setText(tr("⏸ Pause"));
    tick();
}

void RunReplay::pause()
{
    timer_->stop();
    button_->setText(tr("▶ Replay"));
}

void RunReplay::setSeconds(int seconds)
{
    seconds_->setValue(seconds);
}

void RunReplay::showStep(int step)
{
    step_ = std::clamp(step, 0, lastStep_);
    {
        const QSignalBlocker blocker(slider_);
        slider_->setValue(step_);
    }
    stepLabel_->setText(tr("step %1 / %2").arg(step_).arg(lastStep_));
    emitFrame();
}

void RunReplay::tick()
{
    // The steps left at the chosen pace: a whole replay (0 to the last step) takes seconds_ seconds.
    const double perMs = static_cast<double>(lastStep_) / (seconds_->value() * 1000.0);
    const int next = startStep_ + static_cast<int>(perMs * static_cast<double>(clock_.elapsed()));
    showStep(next);
    if (step_ >= lastStep_) {
        pause();
        emit finished();
    }
}

void RunReplay::emitFrame()
{
    std::vector<std::vector<MetricPoint>> metrics;
    std::vector<const AttentionSnapshot*> maps;
    for (const Run& run : runs_) {
        const auto end = std::upper_bound(run.metrics.begin(), run.metrics.end(), step_,
                                          [](int s, const MetricPoint& p) { return s < p.step; });
        metrics.emplace_back(run.metrics.begin(), end);
        const AttentionSnapshot* latest = nullptr;
        for (const auto& snapshot : run.maps)
            if (snapshot.step <= step_)
                latest = &snapshot;
        maps.push_back(latest);
    }
    emit frame(step_, metrics, maps);
}

} // namespace attnlab::ui
