#include "ui/LatestRequestRunner.h"

#include <QtConcurrent/QtConcurrentRun>

#include <exception>

namespace attnlab::ui {

LatestRequestRunner::LatestRequestRunner(QObject* parent)
    : QObject(parent), watcher_(new QFutureWatcher<Outcome>(this))
{
    connect(watcher_, &QFutureWatcher<Outcome>::finished, this, &LatestRequestRunner::finished);
}

LatestRequestRunner::~LatestRequestRunner()
{
    watcher_->disconnect(this);
    watcher_->waitForFinished();
}

void LatestRequestRunner::request(Work work)
{
    if (running_) {
        waiting_ = std::move(work); // the one waiting before is never run
        return;
    }
    start(std::move(work));
}

void LatestRequestRunner::discard()
{
    ++generation_;
    waiting_.reset();
}

void LatestRequestRunner::start(Work work)
{
    running_ = true;
    watcher_->setFuture(QtConcurrent::run([work = std::move(work), generation = generation_]() -> Outcome {
        Outcome outcome;
        outcome.generation = generation;
        try {
            outcome.delivery = work();
        } catch (const std::exception& e) {
            outcome.error = QString::fromStdString(e.what());
        } catch (...) {
            outcome.error = QStringLiteral("unknown error");
        }
        return outcome;
    }));
}

void LatestRequestRunner::finished()
{
    const Outcome outcome = watcher_->result();
    running_ = false;
    if (waiting_) { // a newer request: its result is the one to show, this one is stale
        Work next = std::move(*waiting_);
        waiting_.reset();
        start(std::move(next));
        return;
    }
    if (outcome.generation != generation_)
        return;
    if (!outcome.error.isEmpty())
        emit failed(outcome.error);
    else if (outcome.delivery)
        outcome.delivery();
}

} // namespace attnlab::ui
