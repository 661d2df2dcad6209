// The main window driven like a user would: set up a small run, click Train, watch the curves, the
// attention heatmap and the history fill in from a real training run; close mid-run.
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
#include "ui/setup/DatasetStatisticsCache.h"
#include "ui/setup/SetupPanel.h"
#include "ui/training/TrainingWorker.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QRegularExpression>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

using namespace attnlab;
using namespace attnlab::ui;

namespace {

QString statusText(RunStatus status)
{
    return QString::fromStdString(toString(status));
}

void choose(QComboBox* combo, const char* id)
{
    const int index = combo->findData(QString::fromLatin1(id));
    QVERIFY2(index >= 0, id);
    combo->setCurrentIndex(index);
}

// A small run in the form, the way a user would set it.
void fillSmallRun(SetupPanel* panel, const char* model, const char* position, int steps, int evalEvery)
{
    choose(panel->datasetCombo(), "synthetic-sentiment");
    choose(panel->modelCombo(), model);
    choose(panel->positionCombo(), position);
    panel->dModelSpin()->setValue(32);
    panel->layersSpin()->setValue(1);
    panel->stepsSpin()->setValue(steps);
    panel->evalEverySpin()->setValue(evalEvery);
    panel->batchSizeSpin()->setValue(32);
    panel->seedSpin()->setValue(5);
    choose(panel->deviceCombo(), "cpu");
}

std::vector<double> values(const QCPGraph* graph)
{
    std::vector<double> out;
    for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
        out.push_back(it->value);
    return out;
}

std::size_t count(const std::vector<MetricPoint>& points, const char* split, const char* name)
{
    return static_cast<std::size_t>(std::count_if(points.begin(), points.end(), [&](const MetricPoint& p) {
        return p.split == split && p.name == name;
    }));
}

} // namespace

class TestGui : public QObject {
    Q_OBJECT
private slots:
    void setupPanelFollowsRegistry();
    void datasetPickerShowsStatistics();
    void trainFromTheWindow();
    void modelWithoutAttentionShowsPlaceholder();
    void closingMidRunStoresCancelledRun();
    void historyFiltersTagsAndRepeats();
    void heatmapShowsPoolingAndInputAttention();
};

void TestGui::setupPanelFollowsRegistry()
{
    SetupPanel panel;
    // Every registry entry is offered, and the position combo lists only the model's techniques.
    QCOMPARE(panel.datasetCombo()->count(), static_cast<int>(Registry::datasets().size()));
    // The model list follows the dataset's task: text classifiers for text, time-series models for series.
    auto countFor = [](const std::string& task) {
        return static_cast<int>(std::count_if(Registry::models().begin(), Registry::models().end(),
                                              [&](const auto& m) { return m.task == task || m.task == "both"; }));
    };
    choose(panel.datasetCombo(), "synthetic-lag");
    QCOMPARE(panel.modelCombo()->count(), countFor("regression"));
    QVERIFY(panel.modelCombo()->findData(QStringLiteral("darnn")) >= 0);
    QCOMPARE(panel.modelCombo()->findData(QStringLiteral("lstm")), -1);
    choose(panel.datasetCombo(), "synthetic-sentiment");
    QCOMPARE(panel.modelCombo()->count(), countFor("classification"));
    for (const auto& model : Registry::models()) {
        if (model.task == "regression")
            continue;
        choose(panel.modelCombo(), model.id.c_str());
        QStringList offered;
        for (int i = 0; i < panel.positionCombo()->count(); ++i)
            offered << panel.positionCombo()->itemData(i).toString();
        QStringList expected;
        for (const auto& position : Registry::positions()) {
            if (model.positions.empty()
                || std::find(model.positions.begin(), model.positions.end(), position.id) != model.positions.end())
                expected << QString::fromStdString(position.id);
        }
        QCOMPARE(offered, expected);
        QCOMPARE(panel.modelCombo()->toolTip(), QString::fromStdString(model.description));
    }
    // Model options follow the registry: heads for multi-head models, pooling choices per model.
    choose(panel.modelCombo(), "essan");
    QVERIFY(panel.headsSpin()->isEnabled());
    panel.headsSpin()->setValue(4);
    choose(panel.poolingCombo(), "mean");
    choose(panel.activationCombo(), "gelu");
    QCOMPARE(panel.config().model.heads, 4);
    QCOMPARE(panel.config().model.pooling, std::string("mean"));
    QCOMPARE(panel.config().model.activation, std::string("gelu"));
    choose(panel.modelCombo(), "lstm");
    QVERIFY(!panel.headsSpin()->isEnabled());
    QVERIFY(!panel.poolingCombo()->isEnabled());
    QCOMPARE(panel.config().model.heads, 1);
    QCOMPARE(panel.config().model.pooling, std::string());
    // Dropout points: the LSTM's default is the embeddings only (Barnes et al.); changing them is stored.
    QVERIFY(panel.dropoutPointBox(0)->isChecked());
    QVERIFY(!panel.dropoutPointBox(1)->isChecked());
    QCOMPARE(panel.config().model.dropoutPoints, std::string()); // the model's own points
    panel.dropoutPointBox(2)->setChecked(true);
    QCOMPARE(panel.config().model.dropoutPoints, std::string("input,output"));
    panel.dropoutPointBox(0)->setChecked(false);
    panel.dropoutPointBox(2)->setChecked(false);
    QCOMPARE(panel.config().model.dropoutPoints, std::string("none"));
    choose(panel.modelCombo(), "bow"); // no dropout point at all
    for (int i = 0; i < 3; ++i)
        QVERIFY(!panel.dropoutPointBox(i)->isEnabled());
    QCOMPARE(panel.config().model.dropoutPoints, std::string());
    // Switching optimiser switches to its default learning rate.
    choose(panel.optimizerCombo(), "adadelta");
    QCOMPARE(panel.learningRateSpin()->value(), 1.0);
    QCOMPARE(panel.config().learningRate, 1.0);
    choose(panel.optimizerCombo(), "adam");
    QCOMPARE(panel.learningRateSpin()->value(), 1e-3);
    // CUDA is selectable only where it exists.
    auto* devices = qobject_cast<QStandardItemModel*>(panel.deviceCombo()->model());
    QVERIFY(devices);
    QCOMPARE(devices->item(panel.deviceCombo()->findData(QStringLiteral("cuda")))->isEnabled(),
             ComputeDevice::cudaAvailable());
    // The form's values are the config's.
    fillSmallRun(&panel, "ssan", "rpr", 123, 7);
    panel.rprClipSpin()->setValue(4);
    panel.dropoutKeepSpin()->setValue(0.65);
    const TrainConfig config = panel.config();
    QCOMPARE(config.model.model, std::string("ssan"));
    QCOMPARE(config.model.position, std::string("rpr"));
    QCOMPARE(config.model.dModel, 32);
    QCOMPARE(config.model.rprClip, 4);
    QCOMPARE(config.model.dropoutKeep, 0.65);
    QCOMPARE(config.steps, 123);
    QCOMPARE(config.evalEvery, 7);
    QCOMPARE(config.seed, std::uint64_t(5));
    QCOMPARE(config.device, std::string("cpu"));
    QVERIFY(panel.rprClipSpin()->isEnabled());
    choose(panel.positionCombo(), "none");
    QVERIFY(!panel.rprClipSpin()->isEnabled()); // k only means something for RPR
}

void TestGui::datasetPickerShowsStatistics()
{
    // No real data anywhere: the real datasets say where their files go.
    QTemporaryDir empty;
    qputenv("ATTNLAB_DATA_DIR", empty.path().toUtf8());
    qputenv("XDG_DATA_HOME", empty.path().toUtf8());
    {
        SetupPanel panel;
        QLabel* label = panel.datasetStatisticsLabel();
        QVERIFY(label);
        choose(panel.datasetCombo(), "synthetic-sentiment");
        // Computed on a worker thread: the first request only shows that it is under way.
        if (!panel.statisticsCache()->cached(QStringLiteral("synthetic-sentiment")))
            QVERIFY2(label->text().contains(QStringLiteral("Computing")), qPrintable(label->text()));
        QTRY_VERIFY_WITH_TIMEOUT(panel.statisticsCache()->cached(QStringLiteral("synthetic-sentiment")), 30000);
        QVERIFY2(label->text().contains(QRegularExpression(QStringLiteral(">6000</td>.*>600</td>.*>600</td>"))),
                 qPrintable(label->text()));
        QCOMPARE(label->toolTip(), QStringLiteral("train 6000 / dev 600 / test 600"));
        QVERIFY(label->text().contains(QStringLiteral("5 classes")));
        QVERIFY(label->text().contains(QStringLiteral("Vocabulary")));

        choose(panel.datasetCombo(), "opener");
        QTRY_VERIFY_WITH_TIMEOUT(panel.statisticsCache()->cached(QStringLiteral("opener")), 30000);
        QVERIFY2(label->text().contains(QStringLiteral("Data not found")), qPrintable(label->text()));
        QVERIFY(label->text().contains(QStringLiteral("ATTNLAB_DATA_DIR")));
        QVERIFY(label->text().contains(empty.path() + QStringLiteral("/sentiment/opener")));

        // Back to a computed dataset: straight from the cache.
        choose(panel.datasetCombo(), "synthetic-sentiment");
        QVERIFY(label->text().contains(QStringLiteral(">6000</td>")));
    }
    qunsetenv("ATTNLAB_DATA_DIR");
    qunsetenv("XDG_DATA_HOME");
}

void TestGui::trainFromTheWindow()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString db = dir.filePath(QStringLiteral("runs.sqlite"));
    MainWindow window(db);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QCOMPARE(window.runList()->runCount(), 0);
    QVERIFY(!window.deviceLabel()->text().isEmpty());

    // The default budget of the synthetic task (600 steps, d_model 64): SSAN+RPR learns it in seconds, and
    // the screenshot this test saves (the README's) shows a model that has learned where to look.
    const int steps = 600;
    fillSmallRun(window.setupPanel(), "ssan", "rpr", steps, 50);
    window.setupPanel()->dModelSpin()->setValue(64);
    QVERIFY(window.trainButton()->isEnabled());
    QVERIFY(!window.stopButton()->isEnabled());
    QTest::mouseClick(window.trainButton(), Qt::LeftButton);
    QVERIFY(window.isTraining());
    QVERIFY(!window.trainButton()->isEnabled());
    QVERIFY(window.stopButton()->isEnabled());
    QVERIFY(!window.setupPanel()->dModelSpin()->isEnabled()); // the form is locked during a run
    QTRY_VERIFY_WITH_TIMEOUT(!window.isTraining(), 240000);
    QVERIFY(window.trainButton()->isEnabled());
    QVERIFY(!window.stopButton()->isEnabled());
    QVERIFY(window.setupPanel()->dModelSpin()->isEnabled());
    QCOMPARE(window.progressBar()->maximum(), steps);
    QCOMPARE(window.progressBar()->value(), steps);

    // Curves: accuracy in percent, the loss positive, the test point at the end.
    TrainingCurvesPlot* curves = window.curvesPlot();
    QVERIFY(curves->devAccuracyGraph()->dataCount() > 0);
    QVERIFY(curves->trainLossGraph()->dataCount() > 0);
    QCOMPARE(curves->testAccuracyGraph()->dataCount(), 1);
    for (double v : values(curves->devAccuracyGraph()))
        QVERIFY2(v >= 0.0 && v <= 100.0, qPrintable(QString::number(v)));
    for (double v : values(curves->trainLossGraph()))
        QVERIFY(std::isfinite(v) && v > 0.0);
    const std::vector<double> devAccuracy = values(curves->devAccuracyGraph());
    QVERIFY2(*std::max_element(devAccuracy.begin(), devAccuracy.end()) > 1.0,
             "accuracy must be drawn in percent, not as a fraction");
    QVERIFY2(*std::max_element(devAccuracy.begin(), devAccuracy.end()) >= 90.0,
             "SSAN+RPR trained from the window should reach 90% dev accuracy on the synthetic task");

    // Heatmap: tokens x tokens, every query's row sums to one.
    AttentionHeatmap* heatmap = window.heatmap();
    QVERIFY(!heatmap->isPlaceholderShown());
    QVERIFY(heatmap->snapshot().has_value());
    const int n = static_cast<int>(heatmap->snapshot()->tokens.size());
    QVERIFY(n > 1);
    QCPColorMapData* cells = heatmap->colorMap()->data();
    QCOMPARE(cells->keySize(), n);
    QCOMPARE(cells->valueSize(), n);
    for (int query = 0; query < n; ++query) {
        double row = 0;
        for (int key = 0; key < n; ++key) {
            const double w = cells->cell(key, query);
            QVERIFY(w >= 0.0 && w <= 1.0);
            row += w;
        }
        QVERIFY2(std::abs(row - 1.0) < 1e-3, qPrintable(QStringLiteral("row %1 sums to %2").arg(query).arg(row)));
    }
    QVERIFY(heatmap->snapshot()->step > 0 && heatmap->snapshot()->step <= steps);

    // History: the new run, completed, its numbers from the store.
    RunListPanel* runs = window.runList();
    QCOMPARE(runs->runCount(), 1);
    const qint64 runId = window.liveRunId();
    QVERIFY(runId > 0);
    QCOMPARE(runs->runIds().first(), runId);
    QCOMPARE(runs->table()->item(0, RunListPanel::Status)->text(), statusText(RunStatus::Completed));
    QCOMPARE(runs->table()->item(0, RunListPanel::Steps)->data(Qt::DisplayRole).toInt(), steps);
    RunStore store(db.toStdString());
    const auto stored = store.metrics(runId);
    QCOMPARE(static_cast<std::size_t>(curves->devAccuracyGraph()->dataCount()), count(stored, "dev", "accuracy"));
    QCOMPARE(static_cast<std::size_t>(curves->trainLossGraph()->dataCount()), count(stored, "train", "loss"));
    const double bestDev = store.run(runId)->bestDevAccuracy;
    QCOMPARE(runs->table()->item(0, RunListPanel::BestDev)->data(Qt::DisplayRole).toDouble(),
             std::round(bestDev * 1000.0) / 10.0);

    // Selecting the run reads its curves and attention back from the store.
    curves->clear();
    heatmap->showPlaceholder(QStringLiteral("cleared"));
    QCOMPARE(curves->devAccuracyGraph()->dataCount(), 0);
    runs->table()->clearSelection();
    const QRect cell = runs->table()->visualItemRect(runs->table()->item(0, RunListPanel::Dataset));
    QTest::mouseClick(runs->table()->viewport(), Qt::LeftButton, {}, cell.center());
    QCOMPARE(runs->selectedRunId(), runId);
    QCOMPARE(window.shownRunId(), runId);
    QCOMPARE(static_cast<std::size_t>(curves->devAccuracyGraph()->dataCount()), count(stored, "dev", "accuracy"));
    QCOMPARE(static_cast<std::size_t>(curves->trainLossGraph()->dataCount()), count(stored, "train", "loss"));
    QCOMPARE(curves->testAccuracyGraph()->dataCount(), 1);
    QVERIFY(!heatmap->isPlaceholderShown());
    QCOMPARE(heatmap->colorMap()->data()->keySize(), n);
    QCOMPARE(heatmap->snapshot()->step, store.latestAttention(runId)->step);

    // A screenshot for the eye (and the README).
    curves->replot();
    heatmap->plot()->replot();
    const QString shots = QStringLiteral(ATTNLAB_BUILD_DIR "/screenshots");
    QVERIFY(QDir().mkpath(shots));
    const QPixmap shot = window.grab();
    QVERIFY(!shot.isNull());
    QCOMPARE(shot.size(), window.size());
    const QString file = shots + QStringLiteral("/main-window.png");
    QVERIFY(shot.save(file));
    QVERIFY(QFileInfo(file).size() > 10000);
}

void TestGui::modelWithoutAttentionShowsPlaceholder()
{
    if (!Registry::find(Registry::models(), "lstm"))
        QSKIP("no LSTM in the registry");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    MainWindow window(dir.filePath(QStringLiteral("runs.sqlite")));
    window.show();
    fillSmallRun(window.setupPanel(), "lstm", "none", 40, 20);
    QTest::mouseClick(window.trainButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!window.isTraining(), 240000);
    QVERIFY(window.curvesPlot()->devAccuracyGraph()->dataCount() > 0);
    QVERIFY(window.heatmap()->isPlaceholderShown());
    QVERIFY2(window.heatmap()->placeholderText().contains(QStringLiteral("no attention")),
             qPrintable(window.heatmap()->placeholderText()));
}

void TestGui::closingMidRunStoresCancelledRun()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString db = dir.filePath(QStringLiteral("runs.sqlite"));
    const int steps = 100000;
    int seenStep = 0;
    {
        MainWindow window(db);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        fillSmallRun(window.setupPanel(), "ssan", "rpr", steps, 1000);
        QTest::mouseClick(window.trainButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(window.progressBar()->value() > 0, 120000);
        seenStep = window.progressBar()->value();
        QElapsedTimer closing;
        closing.start();
        QVERIFY(window.close());
        QVERIFY2(closing.elapsed() < 5000, "closing must stop the run within a batch or so");
        QVERIFY(window.worker()->wait(0)); // the training thread has ended
    }
    RunStore store(db.toStdString());
    const auto runs = store.listRuns();
    QCOMPARE(runs.size(), std::size_t(1));
    QCOMPARE(statusText(runs.front().status), statusText(RunStatus::Cancelled));
    QVERIFY(runs.front().steps >= seenStep);
    QVERIFY(runs.front().steps < steps);
}

// Three stored runs (two seeds of one configuration, one other model): the filter box, tags and notes
// edited in place and written to the store, and the repeats tab's mean ± sample std.
void TestGui::historyFiltersTagsAndRepeats()
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
    RunListPanel* runs = window.runList();
    QCOMPARE(runs->runCount(), 3);
    QCOMPARE(runs->visibleRunCount(), 3);

    runs->filterEdit()->setText(QStringLiteral("LSTM"));
    QCOMPARE(runs->visibleRunCount(), 1);
    runs->filterEdit()->setText(QStringLiteral("bow completed"));
    QCOMPARE(runs->visibleRunCount(), 2);
    runs->filterEdit()->clear();
    QCOMPARE(runs->visibleRunCount(), 3);

    // Tags and notes: edited in the cells, saved in the store, searchable.
    const qint64 lstmId = runs->runIds().first(); // newest first: the LSTM run
    QTableWidget* table = runs->table();
    QVERIFY(table->item(0, RunListPanel::Tags)->flags() & Qt::ItemIsEditable);
    QVERIFY(!(table->item(0, RunListPanel::Model)->flags() & Qt::ItemIsEditable));
    table->item(0, RunListPanel::Tags)->setText(QStringLiteral("baseline,  demo ,"));
    table->item(0, RunListPanel::Notes)->setText(QStringLiteral("shown in class"));
    RunStore store(db.toStdString());
    QTRY_VERIFY(store.run(lstmId)->notes == "shown in class");
    QCOMPARE(store.run(lstmId)->tags, (std::vector<std::string>{"baseline", "demo"}));
    QTRY_COMPARE(table->item(0, RunListPanel::Tags)->text(), QStringLiteral("baseline, demo")); // re-read from the store
    runs->setFilterText(QStringLiteral("demo"));
    QCOMPARE(runs->visibleRunCount(), 1);
    runs->setFilterText(QString());

    // Repeats: one row per configuration; the bow row is the mean and sample std of its two runs.
    QTableWidget* groups = runs->groupTable();
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

    runs->tabs()->setCurrentIndex(1);
    const QString shots = QStringLiteral(ATTNLAB_BUILD_DIR "/screenshots");
    QVERIFY(QDir().mkpath(shots));
    QVERIFY(runs->grab().save(shots + QStringLiteral("/run-history-repeats.png")));
}

namespace {

// The last snapshot a real short training run stores.
AttentionSnapshot trainedSnapshot(const std::string& dataset, const std::string& model, int heads)
{
    QTemporaryDir dir;
    RunStore store(dir.filePath(QStringLiteral("runs.sqlite")).toStdString());
    TrainConfig c;
    c.dataset = dataset;
    c.model.model = model;
    c.model.position = model == "essan" ? "rpr" : "none";
    c.model.dModel = 16;
    c.model.heads = heads;
    c.model.layers = model == "essan" ? 2 : 1;
    c.steps = 30;
    c.evalEvery = 30;
    c.device = "cpu";
    StoreObserver observer(store);
    CancelToken cancel;
    const RunSummary summary = DatasetCatalog::isRegression(dataset)
                                   ? Trainer(c).run(DatasetCatalog::loadSeries(dataset, {}), observer, cancel)
                                   : Trainer(c).run(DatasetCatalog::load(dataset), observer, cancel);
    if (summary.status != RunStatus::Completed)
        qFatal("training %s failed: %s", model.c_str(), summary.message.c_str());
    return *store.latestAttention(observer.runId());
}

} // namespace

// Looked at as a user would: ESSAN's per-head maps and its AttnSeqRep weights over the probe's tokens, and
// DA-RNN's input attention over the named driving series; saved as screenshots.
void TestGui::heatmapShowsPoolingAndInputAttention()
{
    const QString shots = QStringLiteral(ATTNLAB_BUILD_DIR "/screenshots");
    QVERIFY(QDir().mkpath(shots));
    AttentionHeatmap heatmap;
    heatmap.resize(640, 420);
    heatmap.show();
    QVERIFY(QTest::qWaitForWindowExposed(&heatmap));

    const AttentionSnapshot essan = trainedSnapshot("synthetic-sentiment", "essan", 2);
    heatmap.setSnapshot(essan);
    QCOMPARE(heatmap.viewCount(), 2 * 2 + 1); // 2 layers x 2 heads, then the pooling weights
    heatmap.mapSelector()->setCurrentIndex(heatmap.viewCount() - 1);
    const int tokens = static_cast<int>(essan.tokens.size());
    QCOMPARE(heatmap.colorMap()->data()->keySize(), tokens);
    QCOMPARE(heatmap.colorMap()->data()->valueSize(), 2); // one row, drawn as two identical half-height cells
    double sum = 0;
    for (int k = 0; k < tokens; ++k)
        sum += heatmap.colorMap()->data()->cell(k, 0);
    QVERIFY2(std::abs(sum - 1.0) < 1e-3, qPrintable(QString::number(sum))); // a distribution over the tokens
    QCOMPARE(heatmap.valueLabelCount(), tokens); // each weight printed on its cell
    heatmap.plot()->replot();
    QVERIFY(heatmap.grab().save(shots + QStringLiteral("/heatmap-pooling.png")));

    const AttentionSnapshot darnn = trainedSnapshot("synthetic-lag", "darnn", 1);
    heatmap.setSnapshot(darnn);
    QVERIFY(heatmap.viewCount() >= 2); // temporal attention (pooling) and input attention
    heatmap.mapSelector()->setCurrentIndex(heatmap.viewCount() - 1);
    QCOMPARE(heatmap.colorMap()->data()->keySize(), static_cast<int>(darnn.features.size()));
    QCOMPARE(heatmap.colorMap()->data()->valueSize(), static_cast<int>(darnn.tokens.size()));
    QCOMPARE(heatmap.valueLabelCount(), 0); // a matrix: colour only
    heatmap.plot()->replot();
    QVERIFY(heatmap.grab().save(shots + QStringLiteral("/heatmap-input-attention.png")));
}

QTEST_MAIN(TestGui)
#include "test_gui.moc"
