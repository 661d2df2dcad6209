// In the window, the explorer driven through its widgets over a real run in a real store: the chosen
// methods' scores as a row each under the map (the engine's own), this sentence's deletion curves, and the
// run's faithfulness measured with progress, stored with the run, read back from it, and cancelled.
// Typed input, thumbnails, timeline, runs that cannot be explored, a time-series run: test_explorer.
#include "core/store/RunStore.h"
#include "core/training/FaithfulnessEvaluator.h"
#include "core/training/ModelExplainer.h"
#include "tests/support/ExplorerRuns.h"
#include "tests/support/WidgetLookup.h"
#include "ui/explorer/AttributionPanel.h"
#include "ui/explorer/AttributionRowsPlot.h"
#include "ui/explorer/ExplorerView.h"
#include "ui/explorer/FaithfulnessView.h"
#include "ui/explorer/SentenceDeletionPlot.h"

#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest/QtTest>
#include <qcustomplot.h>

#include <cmath>

using namespace attnlab;
using namespace attnlab::testing;
using namespace attnlab::ui;

class TestExplorerFaithfulness : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // the chosen methods are remembered in QSettings: not the user's
    }

    // In the window: the chosen methods' scores shaded a row each under the map (the engine's own
    // scores, scaled per row), IG's completeness gap, this sentence's deletion curves, and the run's
    // faithfulness measured with progress, stored with the run and read back from it; a cancelled
    // measurement shown as partial and not stored.
    void explanationsAndFaithfulness()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("runs.sqlite"));
        // Trained long enough to find the grammar's deciding clause (the screenshots show a model that works).
        const qint64 runId = trainInto(db, "essan", "synthetic-sentiment", true, {}, 600);
        RunStore store(db.toStdString());
        const auto record = *store.run(runId);
        const ModelExplainer engine(*ModelExplainer::choose(store.checkpoints(runId), record.bestStep));

        ExplorerView view;
        view.setStore(&store);
        view.resize(1280, 680); // the Explorer tab's size in a 1280x720 window
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setRun(runId);
        QVERIFY(settle(view));
        AttributionPanel* panel = view.attributionPanel();
        const std::vector<std::string> methods{"attention", "ig", "occlusion"};
        panel->setMethods(methods);
        QCOMPARE(panel->methods(), methods);
        QVERIFY(QTest::qWaitFor([&] { return !view.isBusy() && panel->attributions().size() == 3; }, 20000));
        const std::string text = view.explanation()->text;
        const auto expected = engine.attribute(text, methods);
        const auto* rows = panel->rows();
        QCOMPARE(rows->rowMethods(), methods);
        for (std::size_t m = 0; m < methods.size(); ++m) {
            const auto& shown = panel->attributions()[m];
            QCOMPARE(shown.method, methods[m]);
            QCOMPARE(shown.scores.size(), expected[m].scores.size());
            double largest = 0;
            for (const double v : expected[m].scores)
                largest = std::max(largest, std::abs(v));
            for (std::size_t t = 0; t < shown.scores.size(); ++t) {
                QVERIFY(std::abs(shown.scores[t] - expected[m].scores[t]) < 1e-6);
                QVERIFY(std::abs(rows->shades()[m][t] - expected[m].scores[t] / largest) < 1e-6);
            }
        }
        QVERIFY2(panel->noteText().contains(QStringLiteral("completeness gap")), qPrintable(panel->noteText()));
        child<QTabWidget>(&view, "explorerLowerTabs")->setCurrentWidget(view.sentenceDeletion());
        QTest::qWait(100);
        QVERIFY(QDir().mkpath(QStringLiteral(ATTNLAB_BUILD_DIR "/screenshots")));
        QVERIFY(view.grab().save(QStringLiteral(ATTNLAB_BUILD_DIR "/screenshots/explorer-explanations-1280x720.png")));

        // This sentence's deletion curves: the engine's, one graph each, starting at the prediction's probability.
        const auto curves = FaithfulnessEvaluator(engine).deletionCurves(expected);
        auto* deletion = view.sentenceDeletion();
        QCOMPARE(deletion->curves().size(), curves.size());
        QCOMPARE(child<QCustomPlot>(&view, "sentenceDeletionPlot")->graphCount(), 3);
        const auto predicted = static_cast<std::size_t>(view.explanation()->predicted);
        for (std::size_t m = 0; m < curves.size(); ++m) {
            QCOMPARE(deletion->curves()[m].order, curves[m].order);
            QVERIFY(std::abs(deletion->curves()[m].aopc - curves[m].aopc) < 1e-6);
            QVERIFY(std::abs(deletion->curves()[m].probabilities.front() - view.explanation()->probabilities[predicted]) < 1e-5);
        }
        // No method chosen: the rows say so, and nothing is computed.
        panel->setMethods({});
        QVERIFY(QTest::qWaitFor([&] { return !view.isBusy() && panel->attributions().empty(); }, 20000));
        QVERIFY(rows->rowMethods().empty());
        panel->setMethods(methods);

        // Faithfulness: not measured yet; Measure over the 600 dev sentences, with progress; stored with the run.
        FaithfulnessView* faithfulness = view.faithfulness();
        QVERIFY(!faithfulness->report());
        QVERIFY(child<QLabel>(faithfulness, "faithfulnessSummary")->text().contains(QStringLiteral("Not measured")));
        QSignalSpy measured(faithfulness, &FaithfulnessView::measured);
        view.openFaithfulness(); // as the lesson does: the tab in front, measuring
        QCOMPARE(child<QTabWidget>(&view, "explorerLowerTabs")->currentWidget(), faithfulness);
        QVERIFY(faithfulness->isMeasuring());
        QVERIFY(child<QProgressBar>(faithfulness, "faithfulnessProgress")->isVisible());
        QVERIFY(measured.wait(240000));
        QVERIFY(faithfulness->report() && faithfulness->report()->complete);
        const FaithfulnessReport report = *faithfulness->report();
        QCOMPARE(report.examples, 600);
        QCOMPARE(report.methods.size(), AttributionOptions::methods().size() + 1);
        const auto stored = store.analysis(runId, "faithfulness", "dev");
        QVERIFY(stored.has_value());
        QCOMPARE(FaithfulnessReport::fromJson(stored->json).methods[0].deletionAopc, report.methods[0].deletionAopc);
        auto* table = child<QTableView>(faithfulness, "faithfulnessTable");
        auto* model = qobject_cast<QStandardItemModel*>(table->model());
        QCOMPARE(model->rowCount(), static_cast<int>(report.methods.size()));
        QVERIFY(model->horizontalHeaderItem(4)->text().contains(QStringLiteral("deciding clause")));
        QVERIFY(report.contrastSentences > 100); // about half the grammar's sentences have a "but"
        for (int r = 0; r < model->rowCount(); ++r) {
            const auto* m = report.find(model->item(r, 0)->text().toStdString());
            QVERIFY(m);
            QCOMPARE(model->item(r, 1)->data(Qt::UserRole).toDouble(), m->deletionAopc);
            QCOMPARE(model->item(r, 4)->data(Qt::UserRole).toDouble(), 100.0 * m->clauseHits / report.contrastSentences);
        }
        QCOMPARE(child<QCustomPlot>(faithfulness, "faithfulnessPlot")->graphCount(), static_cast<int>(report.methods.size()));
        QTest::qWait(100);
        QVERIFY(view.grab().save(QStringLiteral(ATTNLAB_BUILD_DIR "/screenshots/explorer-faithfulness-1280x720.png")));

        // Shown from the store next time, without measuring.
        view.clear(QString());
        view.setRun(runId);
        QVERIFY(settle(view));
        QVERIFY(faithfulness->report() && faithfulness->reportFromStore());
        QVERIFY(!faithfulness->isMeasuring());
        QCOMPARE(faithfulness->report()->methods[1].insertion, report.methods[1].insertion);

        // Test split, cancelled after a few sentences: shown as partial, not stored.
        child<QComboBox>(faithfulness, "faithfulnessSplit")->setCurrentIndex(1);
        QVERIFY(!faithfulness->report());
        faithfulness->measure();
        auto* progress = child<QProgressBar>(faithfulness, "faithfulnessProgress");
        QVERIFY(QTest::qWaitFor([&] { return progress->value() >= 3; }, 60000));
        measured.clear();
        QTest::mouseClick(child<QPushButton>(faithfulness, "faithfulnessCancel"), Qt::LeftButton);
        QVERIFY(measured.wait(60000));
        QVERIFY(faithfulness->report() && !faithfulness->report()->complete);
        QVERIFY(faithfulness->report()->examples < 600);
        QVERIFY(child<QLabel>(faithfulness, "faithfulnessSummary")->text().contains(QStringLiteral("Partial")));
        QVERIFY(!store.analysis(runId, "faithfulness", "test").has_value());
    }
};

QTEST_MAIN(TestExplorerFaithfulness)
#include "test_explorer_faithfulness.moc"
