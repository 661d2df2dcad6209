#include "ui/training/TrainingWorker.h"

#include "core/data/DatasetCatalog.h"
#include "core/store/RunStore.h"
#include "core/store/StoreObserver.h"
#include "core/results/CompositeObserver.h"
#include "core/training/Trainer.h"
#include "ui/training/TrainingEventBridge.h"

#include <QDeadlineTimer>
#include <QThread>

#include <exception>
#include <string>
#include <utility>
#include <vector>

namespace attnlab::ui {

TrainingWorker::TrainingWorker(const QString& dbPath, QObject* parent)
    : QObject(parent), dbPath_(dbPath), bridge_(new TrainingEventBridge(this))
{
    qRegisterMetaType<attnlab::MetricPoint>();
    qRegisterMetaType<attnlab::AttentionSnapshot>();
    qRegisterMetaType<attnlab::RunSummary>();
    qRegisterMetaType<attnlab::TrainConfig>();
    qRegisterMetaType<QVector<attnlab::MetricPoint>>();
    qRegisterMetaType<QVector<attnlab::AttentionSnapshot>>();
    setObjectName(QStringLiteral("trainingWorker"));
}

bool TrainingWorker::setDbPath(const QString& dbPath)
{
    if (running_)
        return false;
    dbPath_ = dbPath;
    return true;
}

TrainingWorker::~TrainingWorker()
{
    if (thread_) {
        cancel_.cancel();
        thread_->wait();
    }
}

bool TrainingWorker::wait(int msecs)
{
    if (!thread_)
        return true;
    return thread_->wait(msecs < 0 ? QDeadlineTimer(QDeadlineTimer::Forever) : QDeadlineTimer(msecs));
}

bool TrainingWorker::start(const TrainConfig& config)
{
    if (running_)
        return false;
    if (thread_) {
        thread_->wait(); // already finished (idle was emitted); just release it
        thread_.reset();
    }
    cancel_.reset();
    bridge_->reset();
    running_ = true;
    thread_.reset(QThread::create([this, config, tags = runTags_] { train(config, tags); }));
    thread_->setObjectName(QStringLiteral("attnlab-training"));
    // Queued to this (GUI) thread, behind every delivery the bridge posted during the run.
    connect(thread_.get(), &QThread::finished, this, &TrainingWorker::onThreadFinished, Qt::QueuedConnection);
    thread_->start();
    return true;
}

void TrainingWorker::stop()
{
    cancel_.cancel();
}

void TrainingWorker::onThreadFinished()
{
    running_ = false;
    emit idle();
}

void TrainingWorker::train(const TrainConfig& config, const QStringList& tags)
{
    // Everything here runs on the training thread: the dataset, the store connection and the tensors.
    LoadedDataset data;
    std::unique_ptr<RunStore> store;
    try {
        // The dataset's own seed stays at its default so every run sees the same data; config.seed
        // drives initialisation and batch sampling.
        // How the data is read is part of the run's settings (TrainConfig's dataset keys).
        data = DatasetCatalog::loadAny(config.dataset, config.datasetOptions());
        store = std::make_unique<RunStore>(dbPath_.toStdString());
    } catch (const std::exception& e) {
        bridge_->reportFailure(QString::fromStdString(e.what()));
        return;
    }

    StoreObserver storeObserver(*store);
    std::vector<std::string> storeTags;
    for (const QString& tag : tags)
        storeTags.push_back(tag.toStdString());
    storeObserver.setTags(std::move(storeTags));
    bridge_->setStoreObserver(&storeObserver);
    CompositeObserver observers({&storeObserver, bridge_}); // store first: the bridge reads its run id
    try {
        Trainer(config).run(data, observers, cancel_);
    } catch (const std::exception& e) {
        // The trainer reports training problems in its summary; this is the store or a bug. Close the
        // run so it is not left "running" in the history.
        const QString message = QString::fromStdString(e.what());
        if (storeObserver.runId() != 0) {
            try {
                RunSummary summary;
                summary.status = RunStatus::Failed;
                summary.message = e.what();
                store->finishRun(storeObserver.runId(), summary);
            } catch (const std::exception&) {
                // The store itself is what broke; the failure message below says so.
            }
        }
        bridge_->reportFailure(message);
    }
    bridge_->setStoreObserver(nullptr);
}

} // namespace attnlab::ui
