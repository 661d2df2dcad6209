// The analyst's views in the window (results matrix, run differences, run details), driven through their
// widgets over a real run store whose results are known, so every shown number can be checked by hand.
#include "core/config/TrainConfig.h"
#include "core/store/RunStore.h"
#include "ui/MainWindow.h"
#include "ui/analysis/ComparePanel.h"
#include "ui/analysis/CompareView.h"
#include "ui/analysis/ResultsMatrixView.h"
#include "ui/analysis/RunDetailsView.h"
#include "ui/analysis/RunDifferencesView.h"
#include "ui/analysis/TableDocumentModel.h"
#include "ui/analysis/TableExportDialog.h"
#include "ui/runs/RunListPanel.h"
#include "tests/support/SampleStatistics.h"
#include "tests/support/WidgetLookup.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QScrollArea>
#include <QFile>
#include <QLabel>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace attnlab;
using namespace attnlab::ui;

namespace {

struct StoredRun {
    std::string dataset, model, position;
    std::uint64_t seed;
    double test;
    int dModel = 300;
};

std::int64_t store(RunStore& s, const StoredRun& r, double learningRate = 1e-3)
{
    RunInfo info;
    info.config.dataset = r.dataset;
    info.config.model.model = r.model;
    info.config.model.position = r.position;
    info.config.model.dModel = r.dModel;
    info.config.seed = r.seed;
    info.config.learningRate = learningRate;
    info.device = "cpu";
    const auto id = s.beginRun(info);
    RunSummary summary;
    summary.status = RunStatus::Completed;
    summary.steps = 100;
    summary.bestStep = 80;
    summary.testAccuracy = r.test;
    summary.bestDevAccuracy = r.test + 0.01;
    summary.testConfusion = {{40, 10}, {5, 45}};
    summary.testMacroF1 = 0.849;
    // Curves shaped like a real run's, so the Compare tab has something to draw: loss falling with some
    // noise, dev accuracy rising towards the run's test accuracy.
    std::vector<MetricPoint> points;
    for (int step = 2; step <= 100; step += 2) {
        const double noise = 0.08 * std::sin(1.7 * step + 3.0 * static_cast<double>(r.seed));
        points.push_back({step, "train", "loss", (1.6 + noise) * std::exp(-step / (r.model == "lstm" ? 60.0 : 35.0)) + 0.2});
        points.push_back({step, "train", "epoch", step / 25.0});
        if (step % 10 == 0)
            points.push_back({step, "dev", "accuracy", (r.test + 0.01) * (1.0 - std::exp(-step / 25.0)) + noise / 10});
    }
    s.appendMetrics(id, points);
    s.finishRun(id, summary);
    return id;
}

QString cell(QTableView* view, int row, int column)
{
    return view->model()->index(row, column).data().toString();
}

using attnlab::testing::sampleStd;

} // namespace

class AnalysisViewsTest : public QObject {
    Q_OBJECT
private slots:
    void matrixDifferencesAndDetailsShowTheStore()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath("runs.sqlite");
        std::int64_t first = 0, other = 0;
        {
            RunStore s(db.toStdString());
            first = store(s, {"sst-fine", "ssan", "rpr", 1, 0.47});
            store(s, {"sst-fine", "ssan", "rpr", 2, 0.49});
            store(s, {"sst-fine", "ssan", "rpr", 3, 0.48});
            store(s, {"opener", "ssan", "rpr", 1, 0.83});
            store(s, {"sst-fine", "lstm", "none", 1, 0.44});
            other = store(s, {"opener", "lstm", "none", 1, 0.84}, 0.01);
        }
        MainWindow window(db);
        window.resize(1280, 720);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));

        // Ctrl+4 shows the matrix: rows model, columns dataset, the three ssan sst-fine runs in one cell.
        auto* tabs = child<QTabWidget>(&window, "workspaceTabs");
        child<QAction>(&window, "showWorkspace3")->trigger();
        QCOMPARE(tabs->currentWidget()->objectName(), QStringLiteral("resultsMatrixView"));
        auto* matrixView = child<ResultsMatrixView>(&window, "resultsMatrixView");
        child<QComboBox>(matrixView, "matrixRows")->setCurrentText(QStringLiteral("model"));
        auto* table = child<QTableView>(matrixView, "resultsMatrixTable");
        QCOMPARE(table->model()->rowCount(), 2);
        QCOMPARE(table->model()->columnCount(), 4); // model, opener, sst-fine, macro-average
        QCOMPARE(cell(table, 1, 0), QStringLiteral("ssan"));
        const double mean = (0.47 + 0.49 + 0.48) / 3, sd = sampleStd({0.47, 0.49, 0.48});
        QCOMPARE(cell(table, 1, 2), QStringLiteral("%1 ± %2 (3)").arg(100 * mean, 0, 'f', 1).arg(100 * sd, 0, 'f', 1));
        QVERIFY(table->model()->index(1, 2).data(Qt::FontRole).value<QFont>().bold()); // ssan best on sst-fine
        QVERIFY(table->model()->index(0, 1).data(Qt::FontRole).value<QFont>().bold()); // lstm best on opener
        QCOMPARE(cell(table, 1, 3), QString::number(100 * (mean + 0.83) / 2, 'f', 1));  // macro-average

        // The thesis' numbers in rows of their own: 1-layer SSAN + RPR (300) on SST-fine is 48.1 (0.4).
        child<QCheckBox>(matrixView, "matrixThesis")->setChecked(true);
        QCOMPARE(table->model()->rowCount(), 4);
        QCOMPARE(cell(table, 3, 0), QStringLiteral("thesis: 1-layer SSAN + RPR (300)"));
        QCOMPARE(cell(table, 3, 2), QStringLiteral("48.1 ± 0.4 (5)"));
        QCOMPARE(cell(table, 1, 0), QStringLiteral("thesis: LSTM (300)"));

        // The exported file holds the shown cells.
        const QString tex = dir.filePath("matrix.tex");
        TableExportDialog::write(matrixView->table(), tex);
        QFile file(tex);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString latex = QString::fromUtf8(file.readAll());
        QVERIFY(latex.contains(QStringLiteral("\\toprule")));
        QVERIFY(latex.contains(QStringLiteral("\\textbf{%1 $\\pm$ %2 (3)}").arg(100 * mean, 0, 'f', 1).arg(100 * sd, 0, 'f', 1)));

        // Top: a column of each dataset's best single run before it (ssan's best sst-fine run is 0.49).
        child<QCheckBox>(matrixView, "matrixThesis")->setChecked(false);
        child<QCheckBox>(matrixView, "matrixTop")->setChecked(true);
        QCOMPARE(table->model()->columnCount(), 6); // model, opener top, opener, sst-fine top, sst-fine, macro-average
        QCOMPARE(table->model()->headerData(3, Qt::Horizontal).toString(), QStringLiteral("sst-fine top"));
        QCOMPARE(cell(table, 1, 3), QStringLiteral("49.0"));
        QVERIFY(
            child<QLabel>(matrixView, "matrixSummary")->text().contains(QStringLiteral("top: the best single run")));
        child<QCheckBox>(matrixView, "matrixTop")->setChecked(false);
        QCOMPARE(table->model()->columnCount(), 4);

        // Another metric: macro-F1 of every run is 0.849.
        child<QComboBox>(matrixView, "matrixMetric")->setCurrentText(QStringLiteral("test_macro_f1"));
        child<QCheckBox>(matrixView, "matrixThesis")->setChecked(false);
        QCOMPARE(cell(table, 0, 1), QStringLiteral("84.9 (1)"));

        // Compare two runs: only the keys that differ, in bold, below the results.
        window.compareRuns({first, other});
        QCOMPARE(child<CompareView>(&window, "compareView")->runs(), (QList<qint64>{first, other}));
        auto* differences = child<RunDifferencesView>(&window, "runDifferencesView");
        auto* diffTable = child<QTableView>(differences, "differencesTable");
        QStringList keys;
        for (int r = 3; r < diffTable->model()->rowCount(); ++r)
            keys << cell(diffTable, r, 0);
        QCOMPARE(keys, (QStringList{"dataset", "learning_rate", "model", "position"}));
        QCOMPARE(cell(diffTable, 2, 1), QStringLiteral("47.00%"));
        QVERIFY(diffTable->model()->index(3, 1).data(Qt::FontRole).value<QFont>().bold());
        QVERIFY(child<QLabel>(differences, "differencesSummary")->text().startsWith(QStringLiteral("4 of ")));

        // Run details: the confusion matrix and per-class scores computed from it.
        window.showRun(first);
        auto* details = child<RunDetailsView>(&window, "runDetailsView");
        auto* confusion = child<QTableView>(details, "confusionTable");
        QCOMPARE(cell(confusion, 0, 1), QStringLiteral("40"));
        QCOMPARE(cell(confusion, 1, 1), QStringLiteral("5"));
        auto* perClass = child<QTableView>(details, "perClassTable");
        QCOMPARE(cell(perClass, 0, 1), QString::number(40.0 / 45.0, 'f', 3)); // precision of class 0
        QCOMPARE(cell(perClass, 0, 2), QString::number(40.0 / 50.0, 'f', 3)); // recall of class 0
        QCOMPARE(cell(perClass, 3, 3), QString::number(85.0 / 100.0, 'f', 3)); // accuracy

        // What a user sees at a projector's size.
        child<QComboBox>(matrixView, "matrixMetric")->setCurrentText(QStringLiteral("test"));
        child<QCheckBox>(matrixView, "matrixThesis")->setChecked(true);
        child<QAction>(&window, "showWorkspace3")->trigger();
        QVERIFY2(window.minimumSizeHint().width() <= 1280, "the window must fit a 1280x720 projector");
        QDir().mkpath(QStringLiteral("screenshots"));
        QVERIFY(window.grab().save(QStringLiteral("screenshots/results-matrix.png")));

        // The Compare tab at a projector's size: four SST-fine runs grouped by model, smoothed.
        window.resize(1280, 720);
        auto* compare = child<CompareView>(&window, "compareView");
        auto* runList = child<RunListPanel>(&window, "runListPanel");
        runList->setFilterText(QStringLiteral("dataset=sst-fine"));
        runList->selectAllShown();
        QCOMPARE(compare->runs().size(), 4);
        compare->setSmoothing(0.6);
        compare->setGroupBy({QStringLiteral("model")});
        child<QAction>(&window, "showWorkspace2")->trigger();
        const QString status = child<QLabel>(compare, "statusLabel")->text();
        QVERIFY2(status.contains(QStringLiteral("2 group(s)")), qPrintable(status));
        QTest::qWait(50);
        QVERIFY(window.grab().save(QStringLiteral("screenshots/compare-tab-1280x720.png")));
    }

    // A screenshot of Compare over every run of a store, for the docs: ATTNLAB_SCREENSHOT_DB (the store),
    // ATTNLAB_SCREENSHOT_PANEL (the panel it is about, which must be drawn: grad_by_distance for the "Why gates?"
    // lesson, step_ms_by_length for bench --lengths runs, bleu_by_length for translation runs),
    // ATTNLAB_SCREENSHOT_NAME (screenshots/NAME-default.png at the window's default size, docks shown, and
    // NAME-1280x720.png as a class sees it: docks hidden, the panel scrolled into view) and, optionally,
    // ATTNLAB_SCREENSHOT_GROUP_BY (Compare's grouping, e.g. model: each model's seeds as one band).
    void screenshotOfCompare()
    {
        const QString db = qEnvironmentVariable("ATTNLAB_SCREENSHOT_DB");
        const QString panel = qEnvironmentVariable("ATTNLAB_SCREENSHOT_PANEL");
        const QString name = qEnvironmentVariable("ATTNLAB_SCREENSHOT_NAME");
        if (db.isEmpty() || panel.isEmpty() || name.isEmpty())
            QSKIP("ATTNLAB_SCREENSHOT_DB, _PANEL and _NAME not all set: nothing to photograph");
        MainWindow window(db);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        child<RunListPanel>(&window, "runListPanel")->selectAllShown();
        auto* compare = child<CompareView>(&window, "compareView");
        const QString groupBy = qEnvironmentVariable("ATTNLAB_SCREENSHOT_GROUP_BY");
        if (!groupBy.isEmpty())
            compare->setGroupBy(groupBy.split(QLatin1Char(',')));
        child<QAction>(&window, "showWorkspace2")->trigger();
        QVERIFY2(compare->panel(panel), qPrintable("no panel " + panel));
        QTest::qWait(300);
        QDir().mkpath(QStringLiteral("screenshots"));
        QVERIFY(window.grab().save(QStringLiteral("screenshots/%1-default.png").arg(name)));
        window.resize(1280, 720);
        for (auto* dock : window.findChildren<QDockWidget*>()) // as a class sees it: Ctrl+D, the run list closed
            dock->hide();
        QTest::qWait(300);
        if (auto* scroll = qobject_cast<QScrollArea*>(compare->panel(panel)->parentWidget()->parentWidget()->parentWidget()))
            scroll->ensureWidgetVisible(compare->panel(panel), 0, 0);
        QTest::qWait(300);
        QVERIFY(window.grab().save(QStringLiteral("screenshots/%1-1280x720.png").arg(name)));
    }
};

QTEST_MAIN(AnalysisViewsTest)
#include "test_analysis_views.moc"
