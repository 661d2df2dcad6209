// The attention explorer driven through its widgets over real runs in a real store: typed sentences
// answered from the run's checkpoint on a worker thread (compared with the engine's own answer), a
// thumbnail opening its map, the timeline showing the stored snapshots, a run on the user's own file
// listing its examples, runs that cannot be explored saying why, and a time-series run reading as one in
// every view of the window. Attribution rows and faithfulness: test_explorer_faithfulness.
#include "core/analysis/AttentionStepsTable.h"
#include "core/data/DatasetCatalog.h"
#include "core/data/install/Sha256.h"
#include "core/store/RunStore.h"
#include "core/store/StoreObserver.h"
#include "core/platform/CancelToken.h"
#include "core/training/ModelExplainer.h"
#include "core/training/Trainer.h"
#include "tests/support/ExplorerRuns.h"
#include "tests/support/RealData.h"
#include "tests/support/WidgetLookup.h"
#include "ui/MainWindow.h"
#include "ui/plots/AttentionThumbnail.h"
#include "ui/plots/AttentionThumbnailGrid.h"
#include "ui/analysis/TableExportDialog.h"
#include "ui/explorer/AttentionStepsView.h"
#include "ui/explorer/ClassProbabilityChart.h"
#include "ui/explorer/DatasetBrowser.h"
#include "ui/explorer/ExamplePredictionModel.h"
#include "ui/explorer/ExplorerView.h"
#include "ui/explorer/PositionTechniqueView.h"
#include "ui/plots/AttentionHeatmap.h"
#include "ui/plots/AttentionText.h"
#include "ui/runs/RunListPanel.h"
#include "ui/runs/RunTableModel.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QTableWidget>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QStandardPaths>
#include <QSlider>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest/QtTest>
#include <qcustomplot.h>

#include <cmath>

using namespace attnlab;
using namespace attnlab::testing;
using namespace attnlab::ui;

class TestExplorer : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // located files are remembered in QSettings: not the user's
        QSettings().remove(QStringLiteral("locatedDataFiles"));
    }

    void typedSentenceMatchesTheEngine()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("runs.sqlite"));
        const qint64 runId = trainInto(db, "essan", "synthetic-sentiment", true);
        RunStore store(db.toStdString());
        const auto record = *store.run(runId);
        const ModelExplainer engine(*ModelExplainer::choose(store.checkpoints(runId), record.bestStep));

        ExplorerView view;
        view.setStore(&store);
        view.resize(1100, 760);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setRun(runId);
        // The checkpoint opens on a worker thread, then the probe sentence is explained on its own.
        QVERIFY(settle(view));
        auto* input = child<QLineEdit>(&view, "explorerInput");
        QVERIFY(input->isEnabled());
        QVERIFY(!input->text().isEmpty());

        input->clear();
        QTest::keyClicks(input, QStringLiteral("the acting is not charming"));
        QVERIFY(QTest::qWaitFor([&] { return !view.isBusy() && view.explanation() &&
                                             view.explanation()->text == "the acting is not charming"; }, 20000));
        const ModelExplanation expected = engine.explain("the acting is not charming");
        QCOMPARE(view.explanation()->probabilities, expected.probabilities);
        const auto shown = child<ClassProbabilityChart>(&view, "classProbabilityChart")->shownProbabilities();
        QCOMPARE(shown.size(), expected.probabilities.size());
        for (std::size_t c = 0; c < shown.size(); ++c)
            QCOMPARE(shown[c], expected.probabilities[c]);
        QVERIFY(child<QLabel>(&view, "explorerTokens")->text().contains(QStringLiteral("charming")));

        // 2 layers x 2 heads, the rollout, the AttnSeqRep pooling: six thumbnails, in the heatmap's order.
        auto* grid = child<AttentionThumbnailGrid>(&view, "attentionThumbnailGrid");
        QCOMPARE(grid->thumbnailCount(), 2 * 2 + 1 + 1);
        QCOMPARE(view.shownSnapshot().maps.size(), std::size_t(2 * 2 + 1));
        for (std::size_t m = 0; m < expected.attention.maps.size(); ++m)
            QCOMPARE(view.shownSnapshot().maps[m].weights, expected.attention.maps[m].weights);
        QCOMPARE(view.shownSnapshot().maps.back().weights.size(), expected.rollout->weights.size());
        for (std::size_t i = 0; i < expected.rollout->weights.size(); ++i)
            QVERIFY(std::abs(view.shownSnapshot().maps.back().weights[i] - expected.rollout->weights[i]) < 1e-5);
        // Clicking layer 2, head 1 shows it large.
        auto* heatmap = child<AttentionHeatmap>(&view, "explorerHeatmap");
        QTest::mouseClick(child<AttentionThumbnail>(grid, "thumbnail2"), Qt::LeftButton);
        QCOMPARE(heatmap->currentMapIndex(), 2);
        QVERIFY(heatmap->titleText().contains(QStringLiteral("layer 2, head 1")));

        // Unknown words are marked and named; typing fast only computes the last text.
        input->clear();
        QTest::keyClicks(input, QStringLiteral("the acting is zyzzyva"));
        QVERIFY(QTest::qWaitFor([&] { return !view.isBusy() && view.explanation() &&
                                             view.explanation()->text == "the acting is zyzzyva"; }, 20000));
        QVERIFY(child<QLabel>(&view, "explorerNotes")->text().contains(QStringLiteral("zyzzyva")));

        // The timeline: one snapshot per dev evaluation (120 steps, every 20), the first one shown when
        // the slider is at the start, with its stored prediction and the dev curve's cursor there.
        QCOMPARE(view.timelineSteps(), (std::vector<int>{20, 40, 60, 80, 100, 120}));
        auto* slider = child<QSlider>(&view, "explorerTimeline");
        slider->setValue(0);
        QVERIFY(view.showingTimeline());
        const auto stored = store.attentionNearest(runId, 20);
        QCOMPARE(view.shownSnapshot().step, 20);
        QCOMPARE(view.shownSnapshot().maps.front().weights, stored->maps.front().weights);
        QCOMPARE(child<QLabel>(&view, "explorerStep")->text(), QStringLiteral("step 20 (1 of 6)"));
        const auto atStep = child<ClassProbabilityChart>(&view, "classProbabilityChart")->shownProbabilities();
        QCOMPARE(atStep.size(), stored->probabilities.size());
        for (std::size_t c = 0; c < atStep.size(); ++c)
            QCOMPARE(atStep[c], static_cast<double>(stored->probabilities[c]));
        QCOMPARE(child<QCustomPlot>(&view, "explorerDevPlot")->graph(0)->dataCount(), 6);
        // The other probe inputs: one dev example per class, each with its own stored maps.
        auto* probes = child<QComboBox>(&view, "explorerProbe");
        QCOMPARE(probes->count(), static_cast<int>(store.attentionProbes(runId).size()));
        QVERIFY(probes->count() > 1);
        probes->setCurrentIndex(2);
        emit probes->activated(2);
        QCOMPARE(view.shownSnapshot().probe, 2);
        QCOMPARE(view.shownSnapshot().tokens, store.attentionNearest(runId, 20, 2)->tokens);
        probes->setCurrentIndex(0);
        emit probes->activated(0);

        // The dataset browser: every test example predicted again from the checkpoint gives the confusion
        // matrix the run stored; its filters and cells narrow the list; double-clicking explains one.
        child<QTabWidget>(&view, "explorerLowerTabs")->setCurrentIndex(1);
        auto* browser = child<DatasetBrowser>(&view, "datasetBrowser");
        QVERIFY(QTest::qWaitFor([&] { return browser->isLoaded(); }, 60000));
        child<QComboBox>(browser, "browserSplit")->setCurrentIndex(1); // test
        QCOMPARE(browser->confusion(), RunSummary::fromJson(record.summaryJson).testConfusion);
        std::int64_t total = 0, diagonal = 0;
        const auto confusion = browser->confusion();
        for (std::size_t g = 0; g < confusion.size(); ++g)
            for (std::size_t p = 0; p < confusion.size(); ++p) {
                total += confusion[g][p];
                diagonal += g == p ? confusion[g][p] : 0;
            }
        QCOMPARE(browser->shownCount(), static_cast<int>(total));
        child<QComboBox>(browser, "browserShow")->setCurrentIndex(1); // misclassified
        QCOMPARE(browser->shownCount(), static_cast<int>(total - diagonal));
        child<QComboBox>(browser, "browserShow")->setCurrentIndex(0);
        auto* cells = child<QTableWidget>(browser, "browserConfusion");
        std::size_t g = 0, p = 0; // the largest off-diagonal cell
        for (std::size_t a = 0; a < confusion.size(); ++a)
            for (std::size_t b = 0; b < confusion.size(); ++b)
                if (a != b && confusion[a][b] > confusion[g][p])
                    g = a, p = b;
        emit cells->cellClicked(static_cast<int>(g), static_cast<int>(p));
        QCOMPARE(browser->shownCount(), static_cast<int>(confusion[g][p]));
        auto* examples = child<QTableView>(browser, "browserTable");
        if (browser->shownCount() > 0) {
            const QModelIndex first = examples->model()->index(0, ExamplePredictionModel::Text);
            const QString text = first.data().toString();
            emit examples->doubleClicked(first);
            QCOMPARE(input->text(), text);
            QVERIFY(QTest::qWaitFor([&] { return !view.isBusy() && view.explanation() &&
                                                 QString::fromStdString(view.explanation()->text) == text; }, 20000));
            QCOMPARE(view.explanation()->predicted, static_cast<int>(p)); // the cell's predicted class
        }
        emit cells->cellClicked(static_cast<int>(g), static_cast<int>(p)); // again: the whole split
        QCOMPARE(browser->shownCount(), static_cast<int>(total));
        // The position technique: RPR's key and value tables of both layers, drawn on a scale around 0.
        child<QTabWidget>(&view, "explorerLowerTabs")->setCurrentIndex(2);
        QCOMPARE(child<PositionTechniqueView>(&view, "positionTechniqueView")->viewCount(), 2 * 2);
        QVERIFY(child<QLabel>(&view, "positionViewAbout")->text().contains(QStringLiteral("Shaw")));
        // Step by step: the tab computes one head for one query of the typed sentence, as the engine does, and its
        // recomputed weights give back the model's own row; a clicked map chooses its layer and head, the query box
        // its row.
        auto* lower = child<QTabWidget>(&view, "explorerLowerTabs");
        auto* stepsView = child<AttentionStepsView>(&view, "attentionStepsView");
        lower->setCurrentWidget(child<QScrollArea>(&view, "explorerStepsScroll"));
        QCOMPARE(lower->tabText(lower->currentIndex()), QStringLiteral("&Step by step"));
        input->setText(QStringLiteral("the acting is not charming"));
        auto stepsOf = [&](int layer, int head, int query) {
            return QTest::qWaitFor([&] { return !view.isBusy() && stepsView->shown() && stepsView->shown()->tokens.size() == 5 &&
                                                stepsView->shown()->layer == layer && stepsView->shown()->head == head &&
                                                stepsView->shown()->query == query; }, 20000);
        };
        QVERIFY(stepsOf(1, 0, 0)); // the thumbnail clicked above: layer 2, head 1
        {
            const AttentionStepByStep want = engine.stepByStep("the acting is not charming", 1, 0, 0);
            const AttentionStepByStep& got = *stepsView->shown();
            QCOMPARE(got.weights, want.weights);
            QCOMPARE(got.position, std::string("rpr"));
            double sum = 0.0;
            for (std::size_t j = 0; j < got.weights.size(); ++j) {
                sum += got.weights[j];
                QVERIFY(std::abs(got.weights[j] - got.modelWeights[j]) < 1e-6);
            }
            QVERIFY(std::abs(sum - 1.0) < 1e-5);
            auto* table = child<QTableView>(stepsView, "stepsTable");
            QCOMPARE(table->model()->rowCount(), 5);
            QCOMPARE(table->model()->index(3, 1).data().toString(), QStringLiteral("not"));
            QCOMPARE(table->model()->index(3, 6).data().toString(), QString::number(want.weights[3], 'f', 4));
            QVERIFY(child<QLabel>(stepsView, "stepsCaption")->text().contains(QStringLiteral("q . a_ij")));
            QVERIFY(child<QLabel>(stepsView, "stepsCheck")->text().contains(QStringLiteral("model's own")));
            QVERIFY(child<QLabel>(stepsView, "stepsVectors")->text().contains(QStringLiteral("q_i")));
            // The export writes the cells on screen.
            const QString csv = dir.filePath(QStringLiteral("steps.csv"));
            TableExportDialog::write(AttentionStepsTable::of(got), csv);
            QFile file(csv);
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QString written = QString::fromUtf8(file.readAll());
            QVERIFY(written.contains(QStringLiteral("model's weight")));
            QVERIFY(written.contains(QString::number(want.weights[3], 'f', 4)));
        }
        auto* query = child<QComboBox>(stepsView, "stepsQuery");
        QCOMPARE(query->count(), 5);
        query->setCurrentIndex(3);
        emit query->activated(3);
        QVERIFY(stepsOf(1, 0, 3));
        QCOMPARE(stepsView->shown()->weights, engine.stepByStep("the acting is not charming", 1, 0, 3).weights);
        QTest::mouseClick(child<AttentionThumbnail>(grid, "thumbnail1"), Qt::LeftButton); // layer 1, head 2
        QVERIFY(stepsOf(0, 1, 3));
        QCOMPARE(stepsView->shown()->output, engine.stepByStep("the acting is not charming", 0, 1, 3).output);
        QDir().mkpath(QStringLiteral(ATTNLAB_BUILD_DIR "/screenshots"));
        QVERIFY(view.grab().save(QStringLiteral(ATTNLAB_BUILD_DIR "/screenshots/explorer-step-by-step.png")));
        lower->setCurrentIndex(0);

        QDir().mkpath(QStringLiteral(ATTNLAB_BUILD_DIR "/screenshots"));
        input->setText(QStringLiteral("the plot is not good but the acting is really charming"));
        QVERIFY(QTest::qWaitFor([&] { return !view.isBusy() && !view.showingTimeline(); }, 20000));
        QTest::qWait(100);
        QVERIFY(view.grab().save(QStringLiteral(ATTNLAB_BUILD_DIR "/screenshots/explorer-text.png")));
        // Under the map, the typed sentence itself shaded by the chosen word's row of the map shown: the model's own
        // weights over that row's largest; a click on another word chooses its row.
        AttentionText* text = heatmap->text();
        QVERIFY(text->isVisible());
        const std::vector<std::string> words = heatmap->shownColumns();
        QCOMPARE(words.size(), std::size_t{11});
        for (int i = 0; i < 11; ++i)
            QCOMPARE(text->keyText(i), QString::fromStdString(words[static_cast<std::size_t>(i)]));
        const auto rowShades = [&](int row) {
            const std::vector<float> values = heatmap->shownValues();
            const float highest = *std::max_element(values.begin() + row * 11, values.begin() + (row + 1) * 11);
            std::vector<double> out;
            for (int k = 0; k < 11; ++k)
                out.push_back(values[static_cast<std::size_t>(row * 11 + k)] / highest);
            return out;
        };
        const auto near = [](const std::vector<double>& a, const std::vector<double>& b) {
            for (std::size_t i = 0; i < a.size(); ++i)
                if (std::abs(a[i] - b[i]) > 1e-6)
                    return false;
            return a.size() == b.size();
        };
        QCOMPARE(text->chosenQuery(), 10);
        QVERIFY(near(text->shades(), rowShades(10)));
        text->chooseQuery(3); // "not"
        QVERIFY(near(text->shades(), rowShades(3)));
    }

    // a run on the user's own TSV lists its examples: the browser reads the file, columns and
    // delimiter from the run's configuration (it used to ask for the file again) and predicts every test row
    // to the confusion matrix the run stored.
    void ownFileRunListsItsExamples()
    {
        QTemporaryDir dir;
        QFile tsv(dir.filePath(QStringLiteral("reviews.tsv")));
        QVERIFY(tsv.open(QIODevice::WriteOnly));
        tsv.write("review\tverdict\n");
        const char* good[] = {"a fine warm film", "truly good and moving", "charming and clever", "a great joy"};
        const char* bad[] = {"dull and slow", "a boring mess", "truly awful acting", "tedious and flat"};
        for (int i = 0; i < 300; ++i)
            tsv.write(QByteArray(i % 2 ? bad[i % 4] : good[i % 4]) + " " + QByteArray::number(i % 7) + "\t" +
                      (i % 2 ? "neg" : "pos") + "\n");
        tsv.close();
        const QString db = dir.filePath(QStringLiteral("runs.sqlite"));
        qint64 runId = 0;
        {
            RunStore store(db.toStdString());
            TrainConfig c;
            c.dataset = "csv-text";
            c.file = tsv.fileName().toStdString();
            c.textColumn = "review";
            c.labelColumn = "verdict";
            c.model.model = "ssan";
            c.model.position = "rpr";
            c.model.dModel = 16;
            c.steps = 30;
            c.evalEvery = 10;
            c.device = "cpu";
            c.checkpointDir = RunStore::checkpointFolderOf(store.path());
            StoreObserver observer(store);
            CancelToken cancel;
            Trainer(c).run(DatasetCatalog::loadAny(c.dataset, c.datasetOptions()), observer, cancel);
            runId = observer.runId();
        }
        RunStore store(db.toStdString());
        const auto record = *store.run(runId);
        ExplorerView view;
        view.setStore(&store);
        view.resize(1100, 760);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setRun(runId);
        QVERIFY(settle(view));
        child<QTabWidget>(&view, "explorerLowerTabs")->setCurrentIndex(1);
        auto* browser = child<DatasetBrowser>(&view, "datasetBrowser");
        QVERIFY(QTest::qWaitFor([&] { return browser->isLoaded(); }, 60000));
        child<QComboBox>(browser, "browserSplit")->setCurrentIndex(1); // test
        QCOMPARE(browser->confusion(), RunSummary::fromJson(record.summaryJson).testConfusion);
        QVERIFY(browser->shownCount() > 0);
        QVERIFY(browser->fileProblem().isEmpty());
        // The run recorded its file's sha256 when it started.
        const std::string sha = Sha256::ofFile(tsv.fileName().toStdString());
        QVERIFY2(record.environmentJson.find("\"data_sha256.file\":\"" + sha + "\"") != std::string::npos,
                 record.environmentJson.c_str());

        auto* locate = child<QPushButton>(browser, "browserLocate");
        auto* useChanged = child<QPushButton>(browser, "browserUseChanged");
        auto* summary = child<QLabel>(browser, "browserSummary");
        const auto reopen = [&] {
            view.setStore(&store); // forgets the shown run
            view.setRun(runId);
            return QTest::qWaitFor([&] { return !view.isBusy() && !browser->isLoading(); }, 60000);
        };
        const auto settled = [&] {
            return QTest::qWaitFor([&] { return !browser->isLoading() && (browser->isLoaded() || !browser->fileProblem().isEmpty()); }, 60000);
        };

        // Moved since the run: said with the path and the setting, and the file can be located.
        const QString moved = dir.filePath(QStringLiteral("moved-reviews.tsv"));
        QVERIFY(QFile::rename(tsv.fileName(), moved));
        QVERIFY(reopen());
        QVERIFY(settled());
        QVERIFY(!browser->isLoaded());
        QVERIFY2(browser->fileProblem().contains(QStringLiteral("no longer there")) &&
                     browser->fileProblem().contains(tsv.fileName()) && browser->fileProblem().contains(QStringLiteral("setting file")),
                 qPrintable(browser->fileProblem()));
        QVERIFY(summary->text().contains(browser->fileProblem()));
        QVERIFY(!locate->isHidden());
        QVERIFY(useChanged->isHidden()); // nothing to list as it is
        browser->locateFile(QStringLiteral("file"), moved);
        QVERIFY(settled());
        QVERIFY2(browser->isLoaded(), qPrintable(summary->text()));
        child<QComboBox>(browser, "browserSplit")->setCurrentIndex(1);
        QCOMPARE(browser->confusion(), RunSummary::fromJson(record.summaryJson).testConfusion);
        QVERIFY2(summary->text().contains(QStringLiteral("located there")), qPrintable(summary->text()));
        QVERIFY(locate->isHidden());

        // Remembered: opened again, the run reads it from where it was located, with no question.
        QVERIFY(reopen());
        QVERIFY(settled());
        QVERIFY2(browser->isLoaded(), qPrintable(summary->text()));

        // Changed since the run: said with both digests' starts; it can be listed as it is, saying so.
        {
            QFile f(moved);
            QVERIFY(f.open(QIODevice::Append));
            f.write("an added row of praise\tpos\n");
        }
        QVERIFY(reopen());
        QVERIFY(settled());
        QVERIFY(!browser->isLoaded());
        QVERIFY2(browser->fileProblem().contains(QStringLiteral("has changed since the run")) &&
                     browser->fileProblem().contains(QString::fromStdString(sha.substr(0, 12))),
                 qPrintable(browser->fileProblem()));
        QVERIFY(!useChanged->isHidden());
        QVERIFY(!locate->isHidden());
        browser->useChangedFile();
        QVERIFY(settled());
        QVERIFY2(browser->isLoaded(), qPrintable(summary->text()));
        QVERIFY2(summary->text().contains(QStringLiteral("as it is now")), qPrintable(summary->text()));
    }
    void runsThatCannotBeExploredSayWhy()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("runs.sqlite"));
        const qint64 noWeights = trainInto(db, "essan", "synthetic-sentiment", false);
        const qint64 tampered = trainInto(db, "essan", "synthetic-sentiment", true);
        RunStore store(db.toStdString());
        for (const auto& c : store.checkpoints(tampered)) {
            QFile f(QString::fromStdString(c.path));
            QVERIFY(f.open(QIODevice::Append));
            f.write("x");
        }
        ExplorerView view;
        view.setStore(&store);
        view.show();
        auto* input = child<QLineEdit>(&view, "explorerInput");
        auto* notes = child<QLabel>(&view, "explorerNotes");
        view.setRun(noWeights);
        QVERIFY(!input->isEnabled());
        QVERIFY2(notes->text().contains(QStringLiteral("kept no weights")), qPrintable(notes->text()));
        QVERIFY(!view.timelineSteps().empty()); // its snapshots are still there to look at
        QVERIFY(!view.shownSnapshot().maps.empty());

        view.setRun(tampered);
        QVERIFY(QTest::qWaitFor([&] { return !view.isBusy(); }, 20000));
        QVERIFY(!view.canExplain());
        QVERIFY(!input->isEnabled());
        QVERIFY2(notes->text().contains(QStringLiteral("sha256")) && notes->text().contains(QStringLiteral("not loaded")),
                 qPrintable(notes->text()));
    }

    // On synthetic-lag the explorer says how much attention lands on the driver and lag the data was made from.
    void syntheticLagShowsTheKnownAnswer()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("runs.sqlite"));
        const qint64 runId = trainInto(db, "darnn", "synthetic-lag", true);
        RunStore store(db.toStdString());
        ExplorerView view;
        view.setStore(&store);
        view.show();
        view.setRun(runId);
        auto* known = child<QLabel>(&view, "explorerKnownAnswer");
        QVERIFY(known->isVisible());
        QVERIFY2(known->text().contains(QStringLiteral("lag 3")) && known->text().contains(QStringLiteral("uniform 25.0%")),
                 qPrintable(known->text()));
    }

    // in the window at its default size (1400x900) and at 1280x720, with the Runs dock below, every
    // panel of the Explorer has room without scrolling: the maps and the lower panels (timeline, examples,
    // positions) stand side by side on the wide, short tab, each at least 180 px tall on screen.
    void explorerPanelsHaveRoomInTheWindow()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("runs.sqlite"));
        const qint64 runId = trainInto(db, "essan", "synthetic-sentiment", true);
        QVERIFY(QDir().mkpath(QStringLiteral(ATTNLAB_BUILD_DIR "/screenshots")));
        for (const QSize size : {QSize(1400, 900), QSize(1280, 720)}) {
            MainWindow window(db);
            window.resize(size);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            window.showRun(runId);
            auto* tabs = child<QTabWidget>(&window, "workspaceTabs");
            tabs->setCurrentIndex(1);
            QTest::qWait(50);
            auto* explorer = child<ExplorerView>(&window, "explorerView");
            QCOMPARE(explorer->panelsOrientation(), Qt::Horizontal);
            const QString where = QStringLiteral("%1x%2").arg(size.width()).arg(size.height());
            QVERIFY(window.grab().save(QStringLiteral(ATTNLAB_BUILD_DIR "/screenshots/explorer-") + where + ".png"));
            for (const char* name : {"explorerLowerTabs", "explorerHeatmap"}) {
                // On screen: the panel's rectangle within the tab's scroll area (visibleRegion would leave out
                // what the panel's own children cover).
                auto* panel = child<QWidget>(explorer, name);
                QWidget* viewport = child<QScrollArea>(&window, "explorerScroll")->viewport();
                const QRect shown = QRect(panel->mapTo(viewport, QPoint(0, 0)), panel->size()) & viewport->rect();
                QVERIFY2(shown.height() >= 180, qPrintable(where + " " + name + ": " + QString::number(shown.height()) + " px shown"));
            }
            // The explanation rows need no scrolling: under the map where there is room, otherwise a
            // lower tab beside the maps; the tab's page fits its viewport either way.
            QScrollArea* scroll = child<QScrollArea>(&window, "explorerScroll");
            QVERIFY2(explorer->height() <= scroll->viewport()->height(),
                     qPrintable(where + ": the explorer is " + QString::number(explorer->height()) + " px in a " +
                                QString::number(scroll->viewport()->height()) + " px view"));
            QCOMPARE(explorer->explanationsInTabs(), size.height() < 800);
        }
    }

    // A DA-RNN run on SML2010 in the window: RMSE, not accuracy; no position technique; time steps, not
    // tokens; a title that fits; cell labels that never run into each other; no typed input.
    void timeSeriesRunReadsAsOneEverywhere()
    {
        REQUIRE_REAL_DATA(data);
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("runs.sqlite"));
        const qint64 runId = trainInto(db, "darnn", "sml2010", true, data.toStdString());
        MainWindow window(db);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* table = child<QTableView>(child<RunListPanel>(&window, "runListPanel"), "runTable");
        const QModelIndex position = table->model()->index(0, RunTableModel::Position);
        QCOMPARE(position.data().toString(), QStringLiteral("—"));
        QVERIFY(position.data(Qt::ToolTipRole).toString().contains(QStringLiteral("no position technique")));
        window.showRun(runId);
        auto* heatmap = child<AttentionHeatmap>(&window, "attentionHeatmap");
        QVERIFY(heatmap->snapshot()->series);
        auto* plot = child<QCustomPlot>(heatmap, "attentionPlot");
        for (int view = 0; view < heatmap->viewCount(); ++view) {
            heatmap->showView(view);
            QVERIFY2(!plot->xAxis->label().contains(QStringLiteral("token")) &&
                         !plot->yAxis->label().contains(QStringLiteral("token")),
                     qPrintable(plot->xAxis->label() + " / " + plot->yAxis->label()));
            // The title fits its cell above the map: each of its lines narrower than the cell, as drawn.
            plot->replot();
            auto* title = qobject_cast<QCPTextElement*>(plot->plotLayout()->element(0, 0));
            QVERIFY(title);
            const QFontMetrics metrics(title->font());
            for (const QString& line : heatmap->titleText().split(QLatin1Char('\n')))
                QVERIFY2(metrics.horizontalAdvance(line) <= title->outerRect().width(),
                         qPrintable(line + QStringLiteral(" in %1 px").arg(title->outerRect().width())));
        }
        // The temporal attention row: numbers only where a cell is wide enough for one.
        heatmap->showView(0);
        QVERIFY(heatmap->titleText().contains(QStringLiteral("temporal attention")));
        QVERIFY(heatmap->fullTitle().contains(QStringLiteral("temporal attention: the weight of each time step")));
        const int cell = plot->axisRect()->width() / 10;
        if (heatmap->valueLabelCount() > 0)
            QVERIFY2(cell >= QFontMetrics(plot->font()).height(), qPrintable(QString::number(cell)));

        child<QAction>(&window, "showWorkspace1")->trigger(); // Ctrl+2: the Explorer tab (in a scroll area below ~630 px)
        auto* explorer = child<ExplorerView>(&window, "explorerView");
        QCOMPARE(explorer->runId(), runId);
        QVERIFY(!child<QLineEdit>(explorer, "explorerInput")->isEnabled());
        QVERIFY(child<QLabel>(explorer, "explorerNotes")->text().contains(QStringLiteral("time-series")));
        QVERIFY(explorer->shownSnapshot().series);
        QCOMPARE(child<QCustomPlot>(explorer, "explorerDevPlot")->yAxis->label(), QStringLiteral("dev RMSE"));
        QVERIFY(!child<ClassProbabilityChart>(explorer, "classProbabilityChart")->isVisible()); // no classes
        window.resize(1280, 720);
        QTest::qWait(150);
        QVERIFY(window.grab().save(QStringLiteral(ATTNLAB_BUILD_DIR "/screenshots/explorer-series-1280x720.png")));
    }
};

QTEST_MAIN(TestExplorer)
#include "test_explorer.moc"
