#include "ui/training/TrainingQueue.h"

#include "ui/training/TrainingEventBridge.h"
#include "ui/training/TrainingWorker.h"

#include <QDeadlineTimer>
#include <QThread>
#include <QUuid>

#include <algorithm>

namespace attnlab::ui {

TrainingQueue::TrainingQueue(const QString& dbPath, QObject* parent) : QObject(parent), dbPath_(dbPath), runs_(cores())
{
    setObjectName(QStringLiteral("trainingQueue"));
}

TrainingQueue::~TrainingQueue()
{
    // Nothing of a run may reach this half-destroyed object: cut the workers off, then stop and wait.
    for (Slot& slot : slots_) {
        slot.worker->events()->disconnect(this);
        slot.worker->disconnect(this);
        slot.worker->stop();
    }
    for (Slot& slot : slots_)
        delete slot.worker; // waits for its thread; the trainer stores the run as cancelled
    slots_.clear();
}

int TrainingQueue::cores()
{
    return std::max(1, QThread::idealThreadCount());
}

int TrainingQueue::threadShare(int running) { return RunQueue::threadShare(cores(), running); }

void TrainingQueue::setState(int index, State state)
{
    entries_[static_cast<std::size_t>(index)].state = state;
    runs_.setState(index, state);
}

void TrainingQueue::setConcurrency(int concurrency)
{
    concurrency_ = std::clamp(concurrency, 0, kMaxConcurrency);
    dispatch(); // a larger limit may start queued entries now
}

int TrainingQueue::concurrency() const
{
    return concurrency_ > 0 ? concurrency_ : autoConcurrency_;
}

QString TrainingQueue::tag() const
{
    return QStringLiteral("compare:") + id_;
}

bool TrainingQueue::isRunning() const
{
    // A worker keeps its entry until idle, which comes after its run's last event: until then a new
    // comparison must not reuse the entry indices it reports with.
    return std::any_of(entries_.begin(), entries_.end(),
                       [](const Entry& e) { return e.state == State::Queued || e.state == State::Running; })
        || std::any_of(slots_.begin(), slots_.end(), [](const Slot& slot) { return slot.entry >= 0; });
}

int TrainingQueue::runningCount() const
{
    return static_cast<int>(
        std::count_if(entries_.begin(), entries_.end(), [](const Entry& e) { return e.state == State::Running; }));
}

QString TrainingQueue::begin(const std::vector<TrainConfig>& configs)
{
    if (isRunning())
        return tr("A comparison is still running.");
    if (configs.empty())
        return tr("Choose at least one configuration to compare.");
    for (const auto& config : configs) {
        if (config.dataset != configs.front().dataset)
            return tr("Compared runs train on one dataset: %1 and %2 differ.")
                .arg(QString::fromStdString(configs.front().dataset), QString::fromStdString(config.dataset));
    }
    entries_.clear();
    runs_.clear();
    id_ = QUuid::createUuid().toString(QUuid::Id128).left(8);
    seed_ = configs.front().seed;
    dataset_ = configs.front().dataset;
    autoConcurrency_ = std::clamp(static_cast<int>(configs.size()), 1, kMaxConcurrency);
    for (const auto& config : configs) {
        Entry entry;
        entry.config = config;
        entry.config.seed = seed_; // same initial draws and batch order for every compared run
        entries_.push_back(std::move(entry));
        runs_.add();
        emit entryAdded(count() - 1);
    }
    dispatch(); // after all are queued, so the first ones' thread share counts the others
    return {};
}

int TrainingQueue::enqueue(const TrainConfig& config)
{
    if (id_.isEmpty())
        return begin({config}).isEmpty() ? 0 : -1;
    if (config.dataset != dataset_)
        return -1;
    Entry entry;
    entry.config = config;
    entry.config.seed = seed_;
    entries_.push_back(std::move(entry));
    runs_.add();
    const int index = count() - 1;
    emit entryAdded(index);
    dispatch();
    return index;
}

void TrainingQueue::cancel(int index)
{
    if (index < 0 || index >= count())
        return;
    Entry& entry = entries_[static_cast<std::size_t>(index)];
    if (runs_.cancelQueued(index)) {
        entry.state = State::Cancelled;
        emit entryStateChanged(index);
        if (!isRunning())
            emit allFinished();
    } else if (entry.state == State::Running && !entry.stopRequested) {
        entry.stopRequested = true;
        if (const int s = slotOf(index); s >= 0)
            slots_[static_cast<std::size_t>(s)].worker->stop(); // the trainer stops before its next batch
        emit entryStateChanged(index);
    }
}

void TrainingQueue::stopAll()
{
    // The queue first, so that no entry starts on a worker the running ones free.
    for (int i = 0; i < count(); ++i) {
        if (entries_[static_cast<std::size_t>(i)].state == State::Queued)
            cancel(i);
    }
    for (int i = 0; i < count(); ++i)
        cancel(i);
}

bool TrainingQueue::waitAll(int msecs)
{
    const QDeadlineTimer deadline = msecs < 0 ? QDeadlineTimer(QDeadlineTimer::Forever) : QDeadlineTimer(msecs);
    bool all = true;
    for (Slot& slot : slots_) {
        const qint64 left = deadline.isForever() ? -1 : std::max<qint64>(0, deadline.remainingTime());
        all = slot.worker->wait(static_cast<int>(left)) && all;
    }
    return all;
}

int TrainingQueue::slotOf(int entry) const
{
    for (std::size_t s = 0; s < slots_.size(); ++s) {
        if (slots_[s].entry == entry)
            return static_cast<int>(s);
    }
    return -1;
}

TrainingQueue::Slot& TrainingQueue::newSlot()
{
    const int s = static_cast<int>(slots_.size());
    Slot slot;
    slot.worker = new TrainingWorker(dbPath_, this);
    slot.worker->setObjectName(QStringLiteral("trainingWorker%1").arg(s));
    slots_.push_back(slot);
    // Each worker's events, re-emitted with the index of the entry it trains. A worker keeps its entry
    // until idle, which comes after the last of the run's events.
    const TrainingEventBridge* events = slots_.back().worker->events();
    auto entryOf = [this, s] { return slots_[static_cast<std::size_t>(s)].entry; };
    connect(events, &TrainingEventBridge::runStarted, this,
            [this, entryOf](qint64 runId, const QString& device, qint64 parameters, const QString&) {
                if (const int e = entryOf(); e >= 0) {
                    entries_[static_cast<std::size_t>(e)].runId = runId;
                    emit runStarted(e, runId, device, parameters);
                }
            });
    connect(events, &TrainingEventBridge::progress, this,
            [this, entryOf](int step, int total, double loss, double elapsed) {
                if (const int e = entryOf(); e >= 0)
                    emit progress(e, step, total, loss, elapsed);
            });
    connect(events, &TrainingEventBridge::metricsArrived, this, [this, entryOf](const QVector<MetricPoint>& points) {
        if (const int e = entryOf(); e >= 0)
            emit metricsArrived(e, points);
    });
    connect(events, &TrainingEventBridge::attentionArrived, this,
            [this, entryOf](const QVector<AttentionSnapshot>& snapshots) {
                if (const int e = entryOf(); e >= 0)
                    emit attentionArrived(e, snapshots);
            });
    connect(events, &TrainingEventBridge::runFinished, this,
            [this, entryOf](qint64 runId, const RunSummary& summary) {
                const int e = entryOf();
                if (e < 0)
                    return;
                Entry& entry = entries_[static_cast<std::size_t>(e)];
                entry.summary = summary;
                entry.runId = runId;
                setState(e, summary.status == RunStatus::Completed ? State::Completed
                             : summary.status == RunStatus::Cancelled ? State::Cancelled
                                                                      : State::Failed);
                if (entry.state == State::Failed)
                    entry.message = QString::fromStdString(summary.message);
                emit runFinished(e, runId, summary);
                emit entryStateChanged(e);
            });
    connect(events, &TrainingEventBridge::failed, this, [this, entryOf](const QString& message) {
        const int e = entryOf();
        if (e < 0)
            return;
        Entry& entry = entries_[static_cast<std::size_t>(e)];
        setState(e, State::Failed);
        entry.message = message;
        emit failed(e, message);
        emit entryStateChanged(e);
    });
    connect(slots_.back().worker, &TrainingWorker::idle, this, [this, s] { onIdle(s); });
    return slots_.back();
}

void TrainingQueue::onIdle(int s)
{
    Slot& slot = slots_[static_cast<std::size_t>(s)];
    const int e = slot.entry;
    slot.entry = -1;
    if (e >= 0) {
        Entry& entry = entries_[static_cast<std::size_t>(e)];
        if (entry.state == State::Running) { // neither finished nor failed: should not happen, but say so
            setState(e, State::Failed);
            entry.message = tr("The run ended without a result.");
            emit entryStateChanged(e);
        }
    }
    dispatch();
    if (!isRunning())
        emit allFinished();
}

void TrainingQueue::dispatch()
{
    runs_.setConcurrency(concurrency());
    for (const RunQueue::Start& start : runs_.startable()) {
        Slot* slot = nullptr;
        for (Slot& candidate : slots_) {
            if (candidate.entry < 0 && !candidate.worker->isRunning()) {
                slot = &candidate;
                break;
            }
        }
        if (!slot) {
            if (static_cast<int>(slots_.size()) >= kMaxConcurrency)
                return; // a worker still delivering its last run's events: its idle dispatches again
            slot = &newSlot();
        }
        Entry& entry = entries_[static_cast<std::size_t>(start.index)];
        entry.threads = start.threads;
        entry.config.threads = start.threads;
        slot->worker->setRunTags({tag()});
        if (!slot->worker->start(entry.config))
            return; // not idle after all; its idle signal comes and dispatches again
        slot->entry = start.index;
        setState(start.index, State::Running);
        emit entryStateChanged(start.index);
    }
}

} // namespace attnlab::ui
