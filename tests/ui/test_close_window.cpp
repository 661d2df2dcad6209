// Closing the main window while runs train ("Faults"): one run from Train, or four side by side
// from Compare, closed 50 times each at varied moments (ATTNLAB_CLOSE_ROUNDS sets another count). Each
// time the window closes within seconds, every run it started is in the store as cancelled (none left
// "running"), and the next window opens the same store. A crash fails the test, a hang its timeout.
#include "core/store/RunStore.h"
#include "tests/support/FormDriving.h"
#include "tests/support/WidgetLookup.h"
#include "tests/support/StatusText.h"
#include "ui/MainWindow.h"
#include "ui/training/LiveComparisonView.h"

#include <QAction>
#include <QComboBox>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <random>

using namespace attnlab;
using namespace attnlab::ui;

namespace {

// A small, long run in the form: it is still training when the window closes.
void fillLongRun(QWidget* window, const char* model)
{
    choose(child<QComboBox>(window, "datasetCombo"), "synthetic-sentiment");
    choose(child<QComboBox>(window, "modelCombo"), model);
    choose(child<QComboBox>(window, "positionCombo"), "none");
    child<QSpinBox>(window, "dModelSpin")->setValue(16);
    child<QSpinBox>(window, "layersSpin")->setValue(1);
    child<QSpinBox>(window, "stepsSpin")->setValue(100000);
    child<QSpinBox>(window, "evalEverySpin")->setValue(1000);
    child<QSpinBox>(window, "batchSizeSpin")->setValue(32);
    choose(child<QComboBox>(window, "deviceCombo"), "cpu");
}

int rounds()
{
    return qEnvironmentVariableIsSet("ATTNLAB_CLOSE_ROUNDS") ? qEnvironmentVariableIntValue("ATTNLAB_CLOSE_ROUNDS") : 50;
}

} // namespace

class TestCloseWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void closingWithOneRunTraining();
    void closingWithFourRunsTraining();

private:
    // Opens a window on db, starts `runs` runs (1: Train; 2-4: Compare), closes it `delayMs` after the
    // runs were stored as started, and checks the store: `expected` runs in all, every one cancelled.
    // How long close() took goes to *closingMs.
    void closeWhileTraining(const QString& db, int runs, int delayMs, std::size_t expected, qint64* closingMs);

    QTemporaryDir dir_;
};

void TestCloseWindow::initTestCase()
{
    QVERIFY(dir_.isValid());
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir_.filePath(QStringLiteral("settings")));
    QCoreApplication::setOrganizationName(QStringLiteral("attnlab-test"));
}

void TestCloseWindow::closeWhileTraining(const QString& db, int runs, int delayMs, std::size_t expected,
                                         qint64* closingMs)
{
    {
        MainWindow window(db);
        window.show();
        if (runs == 1) {
            fillLongRun(&window, "ssan");
            child<QAction>(&window, "trainAction")->trigger();
            QVERIFY(window.isTraining());
        } else {
            const char* models[] = {"ssan", "cnn", "lstm", "bow"};
            for (int i = 0; i < runs; ++i) {
                fillLongRun(&window, models[i]);
                child<QAction>(&window, "addToComparisonAction")->trigger();
            }
            QTest::mouseClick(child<QPushButton>(&window, "compareButton"), Qt::LeftButton);
            QVERIFY(child<LiveComparisonView>(&window, "liveComparisonView")->isRunning());
        }
        // Training, for real: every run has its row (the trainer has started it), then a varied moment more.
        const auto stored = [&] { return RunStore(db.toStdString()).listRuns().size(); };
        QVERIFY2(QTest::qWaitFor([&] { return stored() == expected; }, 120000), "the runs did not start within 120 s");
        QTest::qWait(delayMs);
        QElapsedTimer clock;
        clock.start();
        QVERIFY(window.close());
        *closingMs = clock.elapsed();
    }
    RunStore store(db.toStdString());
    const auto all = store.listRuns();
    QCOMPARE(all.size(), expected);
    for (const auto& run : all)
        QCOMPARE(statusText(run.status), statusText(RunStatus::Cancelled));
}

void TestCloseWindow::closingWithOneRunTraining()
{
    const QString db = dir_.filePath(QStringLiteral("one.sqlite"));
    std::mt19937 random(13);
    std::uniform_int_distribution<int> delayMs(0, 300);
    QElapsedTimer total;
    total.start();
    qint64 slowest = 0;
    const int count = rounds();
    for (int round = 0; round < count; ++round) {
        qint64 closing = 0;
        closeWhileTraining(db, 1, delayMs(random), static_cast<std::size_t>(round + 1), &closing);
        if (QTest::currentTestFailed())
            QFAIL(qPrintable(QStringLiteral("round %1 of %2").arg(round).arg(count)));
        slowest = std::max(slowest, closing);
    }
    RunStore store(db.toStdString());
    const auto all = store.listRuns();
    QCOMPARE(all.size(), static_cast<std::size_t>(count));
    const auto trained = std::count_if(all.begin(), all.end(), [](const RunRecord& r) { return r.steps > 0; });
    qInfo("%d closes with one run training: %d runs, all cancelled, %d of them after some steps; slowest close "
          "%lld ms; %.1f s in all", count, count, static_cast<int>(trained), static_cast<long long>(slowest),
          total.elapsed() / 1000.0);
    QVERIFY2(trained > 0, "no close came while a run was training");
    QVERIFY2(slowest < 10000, "closing must not hang");
}

void TestCloseWindow::closingWithFourRunsTraining()
{
    const QString db = dir_.filePath(QStringLiteral("four.sqlite"));
    std::mt19937 random(14);
    std::uniform_int_distribution<int> delayMs(0, 300);
    QElapsedTimer total;
    total.start();
    qint64 slowest = 0;
    const int count = rounds();
    for (int round = 0; round < count; ++round) {
        qint64 closing = 0;
        closeWhileTraining(db, 4, delayMs(random), static_cast<std::size_t>(4 * (round + 1)), &closing);
        if (QTest::currentTestFailed())
            QFAIL(qPrintable(QStringLiteral("round %1 of %2").arg(round).arg(count)));
        slowest = std::max(slowest, closing);
    }
    RunStore store(db.toStdString());
    const auto all = store.listRuns();
    QCOMPARE(all.size(), static_cast<std::size_t>(4 * count));
    const auto trained = std::count_if(all.begin(), all.end(), [](const RunRecord& r) { return r.steps > 0; });
    qInfo("%d closes with four runs training side by side: %d runs, all cancelled, %d of them after some steps; "
          "slowest close %lld ms; %.1f s in all", count, 4 * count, static_cast<int>(trained),
          static_cast<long long>(slowest), total.elapsed() / 1000.0);
    QVERIFY2(trained > 0, "no close came while a run was training");
    QVERIFY2(slowest < 10000, "closing must not hang");
}

QTEST_MAIN(TestCloseWindow)
#include "test_close_window.moc"
