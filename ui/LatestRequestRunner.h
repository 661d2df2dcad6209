#pragma once
#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include <functional>
#include <optional>

namespace attnlab::ui {

// Work off the GUI thread where only the latest request matters (typed text, a chosen run or file): one task in
// flight; a request made while one runs waits, replacing any request already waiting; a result whose request is
// no longer the latest (discard()) is dropped; an exception thrown by the work reaches the user through failed()
// on the GUI thread, never an empty result. One class for the views that had each written their own;
// modelled on KDE Kate's AsyncJob (a future, a watcher, the latest request kept).
class LatestRequestRunner : public QObject {
    Q_OBJECT
public:
    // What a request does on the GUI thread with its result; the work computes it on a pool thread.
    using Delivery = std::function<void()>;
    using Work = std::function<Delivery()>;

    explicit LatestRequestRunner(QObject* parent = nullptr);
    // Waits for the running work (its delivery dropped): the work may use what its owner is about to destroy.
    ~LatestRequestRunner() override;

    void request(Work work);
    // The subject changed (another run, another model): the waiting request goes and the running one's result
    // will be dropped.
    void discard();
    // Work running or waiting, or a result not yet delivered: until then it is not on screen.
    bool isBusy() const { return running_ || waiting_.has_value(); }

Q_SIGNALS:
    // The work threw: its message (what()).
    void failed(const QString& message);

private:
    struct Outcome {
        Delivery delivery;
        QString error;
        int generation = 0;
    };
    void start(Work work);
    void finished();

    QFutureWatcher<Outcome>* watcher_;
    std::optional<Work> waiting_;
    bool running_ = false;
    int generation_ = 0;
};

} // namespace attnlab::ui
