// LatestRequestRunner, the one way the views run latest-wins work off the GUI thread: a request made
// while one runs waits and replaces any waiting; a discarded or superseded result is never delivered; an
// exception reaches failed() with its message; the runner's end waits for its work.
#include "ui/LatestRequestRunner.h"

#include <QSemaphore>
#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <atomic>
#include <stdexcept>
#include <vector>

using namespace attnlab::ui;

namespace {

// Work that blocks on a gate until the test opens it, then records that it ran and hands back its delivery.
LatestRequestRunner::Work gated(QSemaphore& gate, std::vector<int>& ran, std::vector<int>& delivered, int id)
{
    return [&gate, &ran, &delivered, id]() -> LatestRequestRunner::Delivery {
        gate.acquire();
        ran.push_back(id); // one task at a time: no two writers
        return [&delivered, id] { delivered.push_back(id); };
    };
}

} // namespace

class TestLatestRequest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void theLatestRequestWinsAndTheWaitingOneIsReplaced()
    {
        QSemaphore gate;
        std::vector<int> ran, delivered;
        LatestRequestRunner runner;
        runner.request(gated(gate, ran, delivered, 1));
        runner.request(gated(gate, ran, delivered, 2)); // waits
        runner.request(gated(gate, ran, delivered, 3)); // replaces 2
        QVERIFY(runner.isBusy());
        gate.release(2);
        QTRY_VERIFY(!runner.isBusy());
        QCOMPARE(ran, (std::vector<int>{1, 3}));     // 2 never ran
        QCOMPARE(delivered, (std::vector<int>{3})); // 1 was stale once 3 was asked for
        runner.request(gated(gate, ran, delivered, 4)); // idle again: runs at once
        gate.release();
        QTRY_COMPARE(delivered, (std::vector<int>{3, 4}));
    }

    void aDiscardedResultIsNeverDelivered()
    {
        QSemaphore gate;
        std::vector<int> ran, delivered;
        LatestRequestRunner runner;
        runner.request(gated(gate, ran, delivered, 1));
        runner.request(gated(gate, ran, delivered, 2));
        runner.discard(); // another subject: 1's result and the waiting 2 are not wanted
        gate.release(2);
        QTRY_VERIFY(!runner.isBusy());
        QCOMPARE(ran, (std::vector<int>{1}));
        QVERIFY(delivered.empty());
    }

    void anExceptionReachesTheUserAsItsMessage()
    {
        LatestRequestRunner runner;
        QSignalSpy failed(&runner, &LatestRequestRunner::failed);
        bool delivered = false;
        runner.request([&delivered]() -> LatestRequestRunner::Delivery {
            if (!delivered) // always: the delivery below is never reached
                throw std::runtime_error("model.pt: sha256 mismatch");
            return [&delivered] { delivered = true; };
        });
        QTRY_COMPARE(failed.size(), 1);
        QCOMPARE(failed.at(0).at(0).toString(), QString("model.pt: sha256 mismatch"));
        QVERIFY(!delivered);
        QVERIFY(!runner.isBusy());
    }

    void itsEndWaitsForTheRunningWork()
    {
        std::atomic<bool> finished{false};
        {
            LatestRequestRunner runner;
            runner.request([&finished]() -> LatestRequestRunner::Delivery {
                QThread::msleep(200);
                finished = true;
                return {};
            });
            QTest::qWait(20); // started on the pool
        }
        QVERIFY(finished); // the work may use what the runner's owner is about to destroy: it ended first
    }
};

QTEST_GUILESS_MAIN(TestLatestRequest)
#include "test_latest_request.moc"
