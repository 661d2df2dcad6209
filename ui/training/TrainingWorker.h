#pragma once
#include "core/config/TrainConfig.h"
#include "core/platform/CancelToken.h"
#include "ui/training/CoreMetaTypes.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>

class QThread;

namespace attnlab::ui {

class TrainingEventBridge;

// Runs one training at a time on a thread it owns. The worker object itself lives in the GUI thread, and
// so does its TrainingEventBridge: receivers connect straight to events(), whose signals arrive on the GUI
// thread, coalesced. The training thread opens its own RunStore on the same file, since an SQLite
// connection must not cross threads.
class TrainingWorker : public QObject {
    Q_OBJECT
public:
    explicit TrainingWorker(const QString& dbPath, QObject* parent = nullptr);
    ~TrainingWorker() override; // cancels a run in progress and waits for its thread

    const QString& dbPath() const { return dbPath_; }
    // The store the next run writes to; false (nothing changes) while a run is going.
    bool setDbPath(const QString& dbPath);
    // The run's events (started, progress, metrics, attention, finished, failed), one bridge for every run.
    TrainingEventBridge* events() const { return bridge_; }
    // True from start() until every signal of the run has been delivered and its thread has ended.
    bool isRunning() const { return running_; }
    // Waits for the training thread to end; true when it did within msecs (-1: no limit).
    bool wait(int msecs = -1);
    // Tags the runs started from now on carry in the store from their first row (compare:<id>).
    void setRunTags(const QStringList& tags) { runTags_ = tags; }
    const QStringList& runTags() const { return runTags_; }

public slots:
    // Starts a run in the background; false (and nothing happens) while another run is going.
    bool start(const attnlab::TrainConfig& config);
    // Any thread: the trainer stops before its next batch.
    void stop();

signals:
    // The training thread has ended and every signal events() sends for the run was delivered before
    // this one; a new run may start.
    void idle();

private:
    void train(const attnlab::TrainConfig& config, const QStringList& tags); // on the training thread
    void onThreadFinished();

    QString dbPath_;
    QStringList runTags_;
    CancelToken cancel_;
    TrainingEventBridge* bridge_;
    std::unique_ptr<QThread> thread_;
    bool running_ = false;
};

} // namespace attnlab::ui
