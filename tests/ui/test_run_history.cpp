// The run history in the window: filters, tags, notes and repeats over stored runs; several runs selected,
// refreshed and deleted; another run database opened and imported; the store following its file on disk.
#include "core/config/Registry.h"
#include "core/data/DatasetCatalog.h"
#include "core/store/RunStore.h"
#include "core/store/StoreObserver.h"
#include "core/training/ComputeDevice.h"
#include "core/training/Trainer.h"
#include "ui/MainWindow.h"
#include "ui/plots/AttentionHeatmap.h"
#include "ui/plots/TrainingCurvesPlot.h"
#include "ui/runs/RunListPanel.h"
#include "ui/runs/RunListPoller.h"
#include "ui/runs/RunTableModel.h"
#include "ui/setup/DatasetStatisticsCache.h"
#include "ui/setup/SetupPanel.h"
#include "ui/training/RunReplay.h"
#include "ui/training/TrainingWorker.h"
#include "tests/support/CliProcess.h"
#include "tests/support/FormDriving.h"
#include "tests/support/RunTableReading.h"
#include "tests/support/StoreFixtures.h"
#include "tests/support/WidgetLookup.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QRegularExpression>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTimer>
#include <QMessageBox>
#include <QAction>
#include <QApplication>
#include <QItemSelectionModel>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <qcustomplot.h>

#include <algorithm>
#include <cstdio>
#include <cmath>

using namespace attnlab;
using namespace attnlab::ui;

class TestRunHistory : public QObject {
    Q_OBJECT
private slots:
    void historyFiltersTagsAndRepeats();
    void selectSeveralRefreshAndDelete();
    void openAndImportRunDatabases();
    void followsItsDatabaseFileOnDisk();
    void runsOfAnotherProcessAppear();
};

// Three stored runs (two seeds of one configuration, one other model): the filter box, tags and notes
// edited in place and written to the store, and the repeats tab's mean ± sample std.
void TestRunHistory::historyFiltersTagsAndRepeats()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString db = dir.filePath(QStringLiteral("runs.sqlite"));
    std::vector<double> bowTests;
    {
        RunStore store(db.toStdString());
        const TextDataset dataset = DatasetCatalog::load("synthetic-sentiment");
        for (const auto& [model, seed] : std::vector<std::pair<std::string, int>>{{"bow", 1}, {"bow", 2}, {"lstm", 1}}) {
            TrainConfig c;
            c.model.model = model;
            c.model.position = "none";
            c.model.dModel = 16;
            c.steps = 20;
            c.evalEvery = 10;
            c.seed = static_cast<std::uint64_t>(seed);
            c.device = "cpu";
            StoreObserver observer(store);
            CancelToken cancel;
            const RunSummary summary = Trainer(c).run(dataset, observer, cancel);
            QCOMPARE(statusText(summary.status), statusText(RunStatus::Completed));
            if (model == "bow")
                bowTests.push_back(summary.testAccuracy);
        }
    }
    MainWindow window(db);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    RunListPanel* runs = child<RunListPanel>(&window, "runListPanel");
    QLineEdit* filter = child<QLineEdit>(runs, "runFilter");
    QCOMPARE(runs->runCount(), 3);
    QCOMPARE(runs->visibleRunCount(), 3);

    filter->setText(QStringLiteral("LSTM"));
    QCOMPARE(runs->visibleRunCount(), 1);
    filter->setText(QStringLiteral("bow completed"));
    QCOMPARE(runs->visibleRunCount(), 2);
    filter->clear();
    QCOMPARE(runs->visibleRunCount(), 3);

    // Tags and notes: edited in the cells, saved in the store, searchable.
    const qint64 lstmId = runs->runIds().first(); // newest first: the LSTM run
    QTableView* table = child<QTableView>(runs, "runTable");
    QAbstractItemModel* model = table->model();
    QVERIFY(model->flags(model->index(0, RunTableModel::Tags)) & Qt::ItemIsEditable);
    QVERIFY(!(model->flags(model->index(0, RunTableModel::Model)) & Qt::ItemIsEditable));
    QCOMPARE(cell(table, 0, RunTableModel::Model).toString(), QStringLiteral("lstm"));
    QVERIFY(model->setData(model->index(0, RunTableModel::Tags), QStringLiteral("baseline,  demo ,")));
    QVERIFY(model->setData(model->index(0, RunTableModel::Notes), QStringLiteral("shown in class")));
    RunStore store(db.toStdString());
    QTRY_VERIFY(store.run(lstmId)->notes == "shown in class");
    QCOMPARE(store.run(lstmId)->tags, (std::vector<std::string>{"baseline", "demo"}));
    QTRY_COMPARE(cell(table, 0, RunTableModel::Tags).toString(), QStringLiteral("baseline, demo")); // re-read from the store
    QCOMPARE(cell(table, 0, RunTableModel::Notes, Qt::ToolTipRole).toString(), QStringLiteral("shown in class"));
    runs->setFilterText(QStringLiteral("demo"));
    QCOMPARE(runs->visibleRunCount(), 1);
    runs->setFilterText(QString());

    // Repeats: one row per configuration; the bow row is the mean and sample std of its two runs.
    QTableWidget* groups = child<QTableWidget>(runs, "groupTable");
    QCOMPARE(groups->rowCount(), 2);
    int bowRow = -1;
    for (int row = 0; row < groups->rowCount(); ++row)
        if (groups->item(row, RunListPanel::GroupModel)->text() == QStringLiteral("bow"))
            bowRow = row;
    QVERIFY(bowRow >= 0);
    QCOMPARE(groups->item(bowRow, RunListPanel::GroupRuns)->text(), QStringLiteral("2 / 2"));
    const double mean = (bowTests[0] + bowTests[1]) / 2, sd = std::abs(bowTests[0] - bowTests[1]) / std::sqrt(2.0);
    QCOMPARE(groups->item(bowRow, RunListPanel::GroupTestMean)->data(Qt::DisplayRole).toDouble(),
             std::round(mean * 10000.0) / 100.0);
    QCOMPARE(groups->item(bowRow, RunListPanel::GroupTestStd)->data(Qt::DisplayRole).toDouble(),
             std::round(sd * 10000.0) / 100.0);

    child<QTabWidget>(runs, "runTabs")->setCurrentIndex(1);
    const QString shots = QStringLiteral(ATTNLAB_BUILD_DIR "/screenshots");
    QVERIFY(QDir().mkpath(shots));
    QVERIFY(runs->grab().save(shots + QStringLiteral("/run-history-repeats.png")));
}


namespace {

// A finished run written straight into the store (no training): what the run list shows.
qint64 storedRun(RunStore& store, const char* model, std::uint64_t seed, double testAccuracy)
{
    RunInfo info;
    info.config.dataset = "synthetic-sentiment";
    info.config.model.model = model;
    info.config.model.position = "none";
    info.config.seed = seed;
    info.device = "cpu";
    const auto id = store.beginRun(info);
    store.appendMetrics(id, {{10, "train", "loss", 0.5}, {10, "dev", "accuracy", testAccuracy}});
    RunSummary s;
    s.status = RunStatus::Completed;
    s.steps = 10;
    s.bestStep = 10;
    s.bestDevAccuracy = testAccuracy;
    s.testAccuracy = testAccuracy;
    store.finishRun(id, s);
    return id;
}

// Clicks the button named buttonName of the modal message box as soon as it is shown (exec() blocks the
// test until then); what the box said is kept for the test to check.
void answerNextMessageBox(const char* buttonName, QString* said)
{
    auto* poll = new QTimer;
    poll->setInterval(20);
    QObject::connect(poll, &QTimer::timeout, poll, [poll, buttonName, said] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (!box)
            return;
        *said = box->text() + QLatin1Char('\n') + box->informativeText();
        QAbstractButton* button = box->findChild<QAbstractButton*>(QLatin1String(buttonName));
        if (!button)
            button = box->button(QMessageBox::Cancel);
        button->click();
        poll->deleteLater();
    });
    poll->start();
}

} // namespace

// Several runs selected through the view's selection model; a refresh (as while a training writes) keeps
// the selection and adds the new run; one run deleted through the window's action, confirmed in its
// dialog: gone from the view, the store and the disk (its checkpoint file); a cancelled delete keeps it.
void TestRunHistory::selectSeveralRefreshAndDelete()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString db = dir.filePath(QStringLiteral("runs.sqlite"));
    const QString weights = dir.filePath(QStringLiteral("b.pt"));
    qint64 a = 0, b = 0, c = 0;
    {
        RunStore store(db.toStdString());
        a = storedRun(store, "bow", 1, 0.5);
        b = storedRun(store, "lstm", 2, 0.625);
        c = storedRun(store, "cnn", 3, 0.75);
        QFile file(weights);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("weights");
        file.close();
        store.addCheckpoint(b, 10, weights.toStdString(), "00");
    }
    MainWindow window(db);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto* runs = child<RunListPanel>(&window, "runListPanel");
    QTableView* table = child<QTableView>(runs, "runTable");
    QCOMPARE(runs->runIds(), (QList<qint64>{c, b, a})); // newest first
    QCOMPARE(table->selectionMode(), QAbstractItemView::ExtendedSelection);
    QAction* remove = child<QAction>(&window, "deleteRunsAction");
    QAction* rename = child<QAction>(&window, "renameRunAction");
    QVERIFY(!remove->isEnabled()); // nothing selected
    QVERIFY(table->actions().contains(remove)); // the context menu offers it

    QSignalSpy announced(runs, &RunListPanel::selectionChanged);
    QSignalSpy shown(runs, &RunListPanel::runSelected);
    const QAbstractItemModel* model = table->model();
    table->selectionModel()->select(QItemSelection(model->index(0, 0), model->index(1, RunTableModel::ColumnCount - 1)),
                                    QItemSelectionModel::ClearAndSelect);
    QCOMPARE(runs->selectedRunIds(), (QList<qint64>{c, b}));
    QCOMPARE(runs->selectedRunId(), 0); // several: none to show
    QCOMPARE(announced.count(), 1);
    QCOMPARE(announced.last().at(0).value<QList<qint64>>(), (QList<qint64>{c, b}));
    QCOMPARE(shown.count(), 0);
    QVERIFY(remove->isEnabled());
    QVERIFY(!rename->isEnabled()); // renaming is for one run

    // A run appears while the list is selected (a training started elsewhere): the refresh adds it and
    // keeps the selection without announcing it again.
    qint64 d = 0;
    {
        RunStore store(db.toStdString());
        d = storedRun(store, "bow", 4, 0.25);
    }
    window.refreshRuns();
    QCOMPARE(runs->runIds(), (QList<qint64>{d, c, b, a}));
    QCOMPARE(runs->selectedRunIds(), (QList<qint64>{c, b}));
    QCOMPARE(announced.count(), 1);
    runs->setFilterText(QStringLiteral("lstm"));
    QCOMPARE(runs->runIds(), (QList<qint64>{b}));
    QCOMPARE(runs->selectedRunIds(), (QList<qint64>{b})); // only what is shown stays selected
    runs->setFilterText(QString());

    // Delete one run through the window's action, confirmed.
    QVERIFY(runs->selectRun(b));
    QCOMPARE(runs->selectedRunIds(), (QList<qint64>{b}));
    QCOMPARE(window.shownRunId(), b);
    QString said;
    answerNextMessageBox("confirmDeleteButton", &said);
    remove->trigger();
    QVERIFY2(said.contains(QStringLiteral("Delete 1 run")) && said.contains(QStringLiteral("1 checkpoint file")),
             qPrintable(said));
    QCOMPARE(runs->runIds(), (QList<qint64>{d, c, a}));
    QCOMPARE(runs->runCount(), 3);
    QVERIFY(runs->selectedRunIds().isEmpty());
    QCOMPARE(window.shownRunId(), 0);
    QVERIFY(!QFile::exists(weights));
    {
        RunStore store(db.toStdString());
        QVERIFY(!store.run(b).has_value());
        QVERIFY(store.metrics(b).empty());
        QCOMPARE(store.listRuns().size(), std::size_t(3));
        QCOMPARE(store.metrics(a).size(), std::size_t(2));
    }
    QVERIFY2(window.statusBar()->currentMessage().contains(QStringLiteral("Deleted 1 run")),
             qPrintable(window.statusBar()->currentMessage()));

    // Cancelled: nothing happens.
    QVERIFY(runs->selectRun(a));
    answerNextMessageBox("no such button: cancel", &said);
    remove->trigger();
    QCOMPARE(runs->runIds(), (QList<qint64>{d, c, a}));
    RunStore store(db.toStdString());
    QVERIFY(store.run(a).has_value());
}

// File menu: another database opened (and remembered), a broken one refused with the current store kept,
// and the runs of one database imported into another once.
void TestRunHistory::openAndImportRunDatabases()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir.filePath(QStringLiteral("settings")));
    const QString first = dir.filePath(QStringLiteral("first.sqlite"));
    const QString second = dir.filePath(QStringLiteral("second.sqlite"));
    {
        RunStore one(first.toStdString());
        storedRun(one, "bow", 1, 0.5);
        RunStore two(second.toStdString());
        storedRun(two, "lstm", 1, 0.5);
        storedRun(two, "cnn", 2, 0.5);
    }
    MainWindow window(first);
    window.show();
    auto* runs = child<RunListPanel>(&window, "runListPanel");
    QCOMPARE(runs->runCount(), 1);
    QVERIFY(window.openStore(second));
    QCOMPARE(window.storePath(), second);
    QCOMPARE(runs->runCount(), 2);
    QCOMPARE(child<TrainingWorker>(&window, "trainingWorker")->dbPath(), second); // the next run goes there too
    QCOMPARE(QSettings().value(QStringLiteral("store/path")).toString(), second);

    const QString broken = dir.filePath(QStringLiteral("notes.sqlite"));
    {
        QFile file(broken);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray(4096, 'x'));
    }
    QVERIFY(!window.openStore(broken));
    QCOMPARE(window.storePath(), second); // kept
    QCOMPARE(runs->runCount(), 2);
    QTRY_VERIFY(window.findChild<QMessageBox*>(QStringLiteral("warningMessage")));
    auto* warning = window.findChild<QMessageBox*>(QStringLiteral("warningMessage"));
    QVERIFY2(warning->text().contains(broken), qPrintable(warning->text()));
    warning->close();

    QVERIFY(window.importRuns(first));
    QCOMPARE(runs->runCount(), 3);
    QVERIFY2(window.statusBar()->currentMessage().contains(QStringLiteral("Imported 1 run from ") + first),
             qPrintable(window.statusBar()->currentMessage()));
    QVERIFY(window.importRuns(first)); // the same runs again: skipped
    QCOMPARE(runs->runCount(), 3);
    QVERIFY(window.statusBar()->currentMessage().contains(QStringLiteral("1 already there")));
}

// The user deletes or replaces the run database while the window has it open. Idle: the window
// writes it back from its open connection and says so. While a run trains: the run's writer writes it
// back and the window reads the file there, so the run list shows the new run (it used to go on reading
// the deleted file). Replaced by another run database: the list shows that file's runs.
void TestRunHistory::followsItsDatabaseFileOnDisk()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString db = dir.filePath(QStringLiteral("runs.sqlite"));
    {
        RunStore store(db.toStdString());
        attnlab::testing::fillStore(store);
    }
    const std::size_t before = RunStore(db.toStdString()).listRuns().size();
    MainWindow window(db);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    RunListPanel* runs = child<RunListPanel>(&window, "runListPanel");
    QCOMPARE(runs->runCount(), static_cast<int>(before));
    const auto removeDatabase = [&] {
        for (const QString& suffix : {QString(), QStringLiteral("-wal"), QStringLiteral("-shm")})
            QFile::remove(db + suffix);
        QVERIFY(!QFileInfo::exists(db));
    };

    // Idle: written back after the grace period, with every run.
    removeDatabase();
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(db), 15000);
    QTRY_VERIFY_WITH_TIMEOUT(window.statusBar()->currentMessage().contains(QStringLiteral("written back")), 5000);
    qInfo("said: %s", qPrintable(window.statusBar()->currentMessage()));
    // For the eye: the message at a projector's size, where the status bar is narrowest.
    window.resize(1280, 720);
    const QString shots = QStringLiteral(ATTNLAB_BUILD_DIR "/screenshots");
    QVERIFY(QDir().mkpath(shots));
    QVERIFY(window.grab().save(shots + QStringLiteral("/database-written-back-1280x720.png")));
    QCOMPARE(RunStore(db.toStdString()).listRuns().size(), before);
    QCOMPARE(runs->runCount(), static_cast<int>(before));

    // While a run trains into it: deleted again; the run's writer puts it back and the list shows the run.
    fillSmallRun(&window, "ssan", "rpr", 3000, 1000);
    QTest::mouseClick(child<QPushButton>(&window, "trainButton"), Qt::LeftButton);
    QVERIFY(window.isTraining());
    const QProgressBar* progress = child<QProgressBar>(&window, "trainingProgress");
    QTRY_VERIFY_WITH_TIMEOUT(progress->value() > 0, 120000);
    removeDatabase();
    QTRY_VERIFY_WITH_TIMEOUT(!window.isTraining(), 240000);
    QTRY_COMPARE_WITH_TIMEOUT(runs->runCount(), static_cast<int>(before) + 1, 15000);
    const std::vector<RunRecord> stored = RunStore(db.toStdString()).listRuns();
    QCOMPARE(stored.size(), before + 1);
    QCOMPARE(statusText(stored.front().status), statusText(RunStatus::Completed));
    QVERIFY2(QString::fromStdString(stored.front().message).contains(QStringLiteral("written back")),
             stored.front().message.c_str());

    // Replaced by another run database (a rename over it, as a copy tool does): its runs are listed.
    const QString other = dir.filePath(QStringLiteral("other.sqlite"));
    {
        RunStore store(other.toStdString());
        store.finishRun(store.beginRun(attnlab::testing::infoFor("sst-fine", "lstm", "none", 1)), attnlab::testing::completed(0.4, 0.41));
    }
    QVERIFY(std::rename(other.toLocal8Bit().constData(), db.toLocal8Bit().constData()) == 0);
    QTRY_COMPARE_WITH_TIMEOUT(runs->runCount(), 1, 15000);
    QVERIFY2(window.statusBar()->currentMessage().contains(QStringLiteral("replaced")),
             qPrintable(window.statusBar()->currentMessage()));
}

// A run that `attnlab-cli train` writes into the window's database from another process appears in the run list,
// running and then completed, with no Refresh: within RunListPoller's interval, as TensorBoard shows new runs.
void TestRunHistory::runsOfAnotherProcessAppear()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString db = dir.filePath(QStringLiteral("runs.sqlite"));
    MainWindow window(db);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    RunListPanel* runs = child<RunListPanel>(&window, "runListPanel");
    auto* table = child<QTableView>(&window, "runTable");
    QCOMPARE(runs->runCount(), 0);
    auto* poller = child<RunListPoller>(&window, "runListPoller");
    QVERIFY(!poller->poll()); // nothing changed: nothing listed again

    QProcess other;
    other.start(QStringLiteral(ATTNLAB_CLI_PATH), {"train", "--dataset", "synthetic-sentiment", "--model", "lstm", "--d-model", "16",
                                                   "--steps", "3000", "--eval-every", "1000", "--device", "cpu", "--threads", "1",
                                                   "--db", db});
    QVERIFY(other.waitForStarted());
    // Running: listed while it trains (the list is read only when the store's state moved).
    QTRY_VERIFY_WITH_TIMEOUT(runs->runCount() == 1, 4 * RunListPoller::kIntervalMs + 5000);
    const QString first = cell(table, 0, RunTableModel::Status).toString();
    QVERIFY(other.waitForFinished(120000));
    QCOMPARE(other.exitCode(), 0);
    // Completed: the status the other process wrote replaces "running", still without Refresh.
    QTRY_VERIFY_WITH_TIMEOUT(cell(table, 0, RunTableModel::Status).toString() != first ||
                                 first.contains(QStringLiteral("complete"), Qt::CaseInsensitive),
                             2 * RunListPoller::kIntervalMs + 2000);
    QVERIFY2(cell(table, 0, RunTableModel::Status).toString().contains(QStringLiteral("complete"), Qt::CaseInsensitive),
             qPrintable(cell(table, 0, RunTableModel::Status).toString()));
    QCOMPARE(runs->runCount(), 1);
    QVERIFY(!poller->poll());
}

QTEST_MAIN(TestRunHistory)

#include "test_run_history.moc"
