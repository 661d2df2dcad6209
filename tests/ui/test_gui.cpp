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
#include "ui/runs/RunTableModel.h"
#include "ui/setup/DatasetStatisticsCache.h"
#include "ui/setup/SetupPanel.h"
#include "ui/training/RunReplay.h"
#include "ui/training/TrainingWorker.h"
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

// A small run in the form (the setup panel, or the window around it), the way a user would set it.
void fillSmallRun(QWidget* form, const char* model, const char* position, int steps, int evalEvery)
{
    choose(child<QComboBox>(form, "datasetCombo"), "synthetic-sentiment");
    choose(child<QComboBox>(form, "modelCombo"), model);
    choose(child<QComboBox>(form, "positionCombo"), position);
    child<QSpinBox>(form, "dModelSpin")->setValue(32);
    child<QSpinBox>(form, "layersSpin")->setValue(1);
    child<QSpinBox>(form, "stepsSpin")->setValue(steps);
    child<QSpinBox>(form, "evalEverySpin")->setValue(evalEvery);
    child<QSpinBox>(form, "batchSizeSpin")->setValue(32);
    child<QSpinBox>(form, "seedSpin")->setValue(5);
    choose(child<QComboBox>(form, "deviceCombo"), "cpu");
}

std::vector<double> values(const QCPGraph* graph)
{
    std::vector<double> out;
    for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
        out.push_back(it->value);
    return out;
}

// A cell of the run table as its view shows it (row in display order).
QVariant cell(const QTableView* table, int row, int column, int role = Qt::DisplayRole)
{
    return table->model()->index(row, column).data(role);
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
    void heatmapLabelsStayLegibleAtProjectorSize();
    void regressionRunReadsAsRmse();
    void selectSeveralRefreshAndDelete();
    void openAndImportRunDatabases();
    void followsItsDatabaseFileOnDisk();
};

void TestGui::setupPanelFollowsRegistry()
{
    SetupPanel panel;
    QComboBox* datasets = child<QComboBox>(&panel, "datasetCombo");
    QComboBox* models = child<QComboBox>(&panel, "modelCombo");
    QComboBox* positions = child<QComboBox>(&panel, "positionCombo");
    QComboBox* optimizers = child<QComboBox>(&panel, "optimizerCombo");
    QSpinBox* heads = child<QSpinBox>(&panel, "headsSpin");
    QSpinBox* rprClip = child<QSpinBox>(&panel, "rprClipSpin");
    QComboBox* pooling = child<QComboBox>(&panel, "poolingCombo");
    QCheckBox* dropoutAt[] = {child<QCheckBox>(&panel, "dropoutInputBox"), child<QCheckBox>(&panel, "dropoutHiddenBox"),
                              child<QCheckBox>(&panel, "dropoutOutputBox")};
    // Every registry entry is offered (your own sentence pairs too: the import dialog reads them), and the position
    // combo lists only the model's techniques.
    QCOMPARE(datasets->count(), static_cast<int>(Registry::datasets().size()));
    // The model list follows the dataset's task: text classifiers for text, time-series models for series.
    auto countFor = [](const std::string& task) {
        return static_cast<int>(std::count_if(Registry::models().begin(), Registry::models().end(),
                                              [&](const auto& m) { return m.task == task || m.task == "both"; }));
    };
    choose(datasets, "synthetic-lag");
    QCOMPARE(models->count(), countFor("regression"));
    QVERIFY(models->findData(QStringLiteral("darnn")) >= 0);
    QCOMPARE(models->findData(QStringLiteral("lstm")), -1);
    choose(datasets, "synthetic-sentiment");
    QCOMPARE(models->count(), countFor("classification"));
    for (const auto& model : Registry::models()) {
        if (model.task == "regression" || model.task == "translation")
            continue;
        choose(models, model.id.c_str());
        QStringList offered;
        for (int i = 0; i < positions->count(); ++i)
            offered << positions->itemData(i).toString();
        QStringList expected;
        for (const auto& position : Registry::positions()) {
            if (model.positions.empty()
                || std::find(model.positions.begin(), model.positions.end(), position.id) != model.positions.end())
                expected << QString::fromStdString(position.id);
        }
        QCOMPARE(offered, expected);
        QCOMPARE(models->toolTip(), QString::fromStdString(model.description));
    }
    // Model options follow the registry: heads for multi-head models, pooling choices per model.
    choose(models, "essan");
    QVERIFY(heads->isEnabled());
    heads->setValue(4);
    choose(pooling, "mean");
    choose(child<QComboBox>(&panel, "activationCombo"), "gelu");
    QCOMPARE(panel.config().model.heads, 4);
    QCOMPARE(panel.config().model.pooling, std::string("mean"));
    QCOMPARE(panel.config().model.activation, std::string("gelu"));
    choose(models, "lstm");
    QVERIFY(!heads->isEnabled());
    QVERIFY(!pooling->isEnabled());
    QCOMPARE(panel.config().model.heads, 1);
    QCOMPARE(panel.config().model.pooling, std::string());
    // Dropout points: the LSTM's default is the embeddings only (Barnes et al.); changing them is stored.
    QVERIFY(dropoutAt[0]->isChecked());
    QVERIFY(!dropoutAt[1]->isChecked());
    QCOMPARE(panel.config().model.dropoutPoints, std::string()); // the model's own points
    dropoutAt[2]->setChecked(true);
    QCOMPARE(panel.config().model.dropoutPoints, std::string("input,output"));
    dropoutAt[0]->setChecked(false);
    dropoutAt[2]->setChecked(false);
    QCOMPARE(panel.config().model.dropoutPoints, std::string("none"));
    choose(models, "bow"); // no dropout point at all
    for (int i = 0; i < 3; ++i)
        QVERIFY(!dropoutAt[i]->isEnabled());
    QCOMPARE(panel.config().model.dropoutPoints, std::string());
    // Switching optimiser switches to its default learning rate.
    QDoubleSpinBox* learningRate = child<QDoubleSpinBox>(&panel, "learningRateSpin");
    choose(optimizers, "adadelta");
    QCOMPARE(learningRate->value(), 1.0);
    QCOMPARE(panel.config().learningRate, 1.0);
    choose(optimizers, "adam");
    QCOMPARE(learningRate->value(), 1e-3);
    // CUDA is selectable only where it exists.
    QComboBox* deviceCombo = child<QComboBox>(&panel, "deviceCombo");
    auto* devices = qobject_cast<QStandardItemModel*>(deviceCombo->model());
    QVERIFY(devices);
    if (ComputeDevice::cudaAvailable()) { // every GPU listed by name and memory, selectable
        for (const auto& gpu : ComputeDevice::gpus()) {
            const int row = deviceCombo->findData(QString::fromStdString(gpu.id()));
            QVERIFY(row >= 0);
            QVERIFY(devices->item(row)->isEnabled());
            QVERIFY(deviceCombo->itemText(row).contains(QString::fromStdString(gpu.name)));
        }
    } else { // a disabled "cuda" that says why
        const int row = deviceCombo->findData(QStringLiteral("cuda"));
        QVERIFY(row >= 0);
        QVERIFY(!devices->item(row)->isEnabled());
        QVERIFY(!deviceCombo->itemData(row, Qt::ToolTipRole).toString().isEmpty());
    }
    // TF32 and the deterministic option reach the configuration.
    child<QCheckBox>(&panel, "tf32Box")->setChecked(true);
    child<QCheckBox>(&panel, "deterministicBox")->setChecked(true);
    QVERIFY(panel.config().tf32);
    QVERIFY(panel.config().deterministic);
    // Issue 28: a refused setting is named by its field's label in the window, not by its key.
    choose(deviceCombo, "cpu");
    const std::string problem = panel.config().validate();
    QCOMPARE(problem, std::string("tf32: TF32 matrix products are for CUDA devices; this run is on the CPU"));
    QCOMPARE(panel.inFieldTerms(problem), QStringLiteral("TF32: TF32 matrix products are for CUDA devices; this run is on the CPU"));
    QCOMPARE(panel.inFieldTerms("learning_rate: must be a positive number (got nan)"),
             QStringLiteral("Learning rate: must be a positive number (got nan)"));
    QCOMPARE(panel.inFieldTerms("no key here"), QStringLiteral("no key here"));
    child<QCheckBox>(&panel, "tf32Box")->setChecked(false);
    child<QCheckBox>(&panel, "deterministicBox")->setChecked(false);
    choose(deviceCombo, "auto");
    // The form's values are the config's.
    fillSmallRun(&panel, "ssan", "rpr", 123, 7);
    rprClip->setValue(4);
    child<QDoubleSpinBox>(&panel, "dropoutKeepSpin")->setValue(0.65);
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
    QVERIFY(rprClip->isEnabled());
    choose(positions, "none");
    QVERIFY(!rprClip->isEnabled()); // k only means something for RPR
}

void TestGui::datasetPickerShowsStatistics()
{
    // No real data anywhere: the real datasets say where their files go.
    QTemporaryDir empty;
    qputenv("ATTNLAB_DATA_DIR", empty.path().toUtf8());
    qputenv("XDG_DATA_HOME", empty.path().toUtf8());
    {
        SetupPanel panel;
        QLabel* label = child<QLabel>(&panel, "datasetStatisticsLabel");
        QVERIFY(label);
        QComboBox* datasets = child<QComboBox>(&panel, "datasetCombo");
        const DatasetStatisticsCache* cache = child<DatasetStatisticsCache>(&panel, "datasetStatisticsCache");
        choose(datasets, "synthetic-sentiment");
        // Computed on a worker thread: the first request only shows that it is under way.
        if (!cache->cached(QStringLiteral("synthetic-sentiment")))
            QVERIFY2(label->text().contains(QStringLiteral("Computing")), qPrintable(label->text()));
        QTRY_VERIFY_WITH_TIMEOUT(cache->cached(QStringLiteral("synthetic-sentiment")), 30000);
        QVERIFY2(label->text().contains(QRegularExpression(QStringLiteral(">6000</td>.*>600</td>.*>600</td>"))),
                 qPrintable(label->text()));
        QCOMPARE(label->toolTip(), QStringLiteral("train 6000 / dev 600 / test 600"));
        QVERIFY(label->text().contains(QStringLiteral("5 classes")));
        QVERIFY(label->text().contains(QStringLiteral("Vocabulary")));

        choose(datasets, "opener");
        QTRY_VERIFY_WITH_TIMEOUT(cache->cached(QStringLiteral("opener")), 30000);
        QVERIFY2(label->text().contains(QStringLiteral("Data not found")), qPrintable(label->text()));
        QVERIFY(label->text().contains(QStringLiteral("ATTNLAB_DATA_DIR")));
        QVERIFY(label->text().contains(empty.path() + QStringLiteral("/sentiment/opener")));

        // Back to a computed dataset: straight from the cache.
        choose(datasets, "synthetic-sentiment");
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
    RunListPanel* runs = child<RunListPanel>(&window, "runListPanel");
    QPushButton* train = child<QPushButton>(&window, "trainButton");
    QPushButton* stop = child<QPushButton>(&window, "stopButton");
    QSpinBox* dModel = child<QSpinBox>(&window, "dModelSpin");
    QProgressBar* progress = child<QProgressBar>(&window, "trainingProgress");
    QCOMPARE(runs->runCount(), 0);
    QVERIFY(!child<QLabel>(&window, "deviceLabel")->text().isEmpty());

    // The default budget of the synthetic task (600 steps, d_model 64): SSAN+RPR learns it in seconds, and
    // the screenshot this test saves (the README's) shows a model that has learned where to look.
    const int steps = 600;
    fillSmallRun(&window, "ssan", "rpr", steps, 50);
    dModel->setValue(64);
    QVERIFY(train->isEnabled());
    QVERIFY(!stop->isEnabled());
    QTest::mouseClick(train, Qt::LeftButton);
    QVERIFY(window.isTraining());
    QVERIFY(!train->isEnabled());
    QVERIFY(stop->isEnabled());
    QVERIFY(!dModel->isEnabled()); // the form is locked during a run
    QTRY_VERIFY_WITH_TIMEOUT(!window.isTraining(), 240000);
    QVERIFY(train->isEnabled());
    QVERIFY(!stop->isEnabled());
    QVERIFY(dModel->isEnabled());
    QCOMPARE(progress->maximum(), steps);
    QCOMPARE(progress->value(), steps);

    // Curves: accuracy in percent, the loss positive, the test point at the end.
    TrainingCurvesPlot* curves = child<TrainingCurvesPlot>(&window, "trainingCurvesPlot");
    const QCPGraph* devAccuracyGraph = child<QCPGraph>(curves, "devMetricGraph");
    const QCPGraph* trainLossGraph = child<QCPGraph>(curves, "trainLossGraph");
    const QCPGraph* testAccuracyGraph = child<QCPGraph>(curves, "testMetricGraph");
    QVERIFY(devAccuracyGraph->dataCount() > 0);
    QVERIFY(trainLossGraph->dataCount() > 0);
    QCOMPARE(testAccuracyGraph->dataCount(), 1);
    for (double v : values(devAccuracyGraph))
        QVERIFY2(v >= 0.0 && v <= 100.0, qPrintable(QString::number(v)));
    for (double v : values(trainLossGraph))
        QVERIFY(std::isfinite(v) && v > 0.0);
    const std::vector<double> devAccuracy = values(devAccuracyGraph);
    QVERIFY2(*std::max_element(devAccuracy.begin(), devAccuracy.end()) > 1.0,
             "accuracy must be drawn in percent, not as a fraction");
    QVERIFY2(*std::max_element(devAccuracy.begin(), devAccuracy.end()) >= 90.0,
             "SSAN+RPR trained from the window should reach 90% dev accuracy on the synthetic task");

    // Heatmap: tokens x tokens, every query's row sums to one.
    AttentionHeatmap* heatmap = child<AttentionHeatmap>(&window, "attentionHeatmap");
    QCPColorMap* colorMap = child<QCPColorMap>(heatmap, "attentionColorMap");
    QVERIFY(!heatmap->isPlaceholderShown());
    QVERIFY(heatmap->snapshot().has_value());
    const int n = static_cast<int>(heatmap->snapshot()->tokens.size());
    QVERIFY(n > 1);
    QCPColorMapData* cells = colorMap->data();
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
    QTableView* table = child<QTableView>(runs, "runTable");
    QCOMPARE(runs->runCount(), 1);
    const qint64 runId = window.liveRunId();
    QVERIFY(runId > 0);
    QCOMPARE(runs->runIds().first(), runId);
    QCOMPARE(cell(table, 0, RunTableModel::Status).toString(), statusText(RunStatus::Completed));
    QCOMPARE(cell(table, 0, RunTableModel::Steps).toInt(), steps);
    RunStore store(db.toStdString());
    const auto stored = store.metrics(runId);
    QCOMPARE(static_cast<std::size_t>(devAccuracyGraph->dataCount()), count(stored, "dev", "accuracy"));
    QCOMPARE(static_cast<std::size_t>(trainLossGraph->dataCount()), count(stored, "train", "loss"));
    const double bestDev = store.run(runId)->bestDevAccuracy;
    QCOMPARE(cell(table, 0, RunTableModel::BestDev).toDouble(), std::round(bestDev * 1000.0) / 10.0);
    QCOMPARE(cell(table, 0, RunTableModel::BestDev, RunTableModel::SortRole).toDouble(), 100.0 * bestDev);

    // Selecting the run reads its curves and attention back from the store.
    curves->clear();
    heatmap->showPlaceholder(QStringLiteral("cleared"));
    QCOMPARE(devAccuracyGraph->dataCount(), 0);
    table->clearSelection();
    const QRect datasetCell = table->visualRect(table->model()->index(0, RunTableModel::Dataset));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, datasetCell.center());
    QCOMPARE(runs->selectedRunId(), runId);
    QCOMPARE(window.shownRunId(), runId);
    QCOMPARE(static_cast<std::size_t>(devAccuracyGraph->dataCount()), count(stored, "dev", "accuracy"));
    QCOMPARE(static_cast<std::size_t>(trainLossGraph->dataCount()), count(stored, "train", "loss"));
    QCOMPARE(testAccuracyGraph->dataCount(), 1);
    QVERIFY(!heatmap->isPlaceholderShown());
    QCOMPARE(colorMap->data()->keySize(), n);
    QCOMPARE(heatmap->snapshot()->step, store.latestAttention(runId)->step);

    // The Training tab's replay (issue 28): a step shows the stored points up to it and the map of the last
    // evaluation at or before it; played over 2 s it ends where the run did.
    auto* replay = child<RunReplay>(&window, "trainingReplay");
    QVERIFY(replay->isVisible());
    QCOMPARE(replay->lastStep(), steps);
    const int at = 120;
    replay->showStep(at);
    std::size_t lossesUpTo = 0;
    for (const auto& p : stored)
        lossesUpTo += p.split == "train" && p.name == "loss" && p.step <= at ? 1 : 0;
    QVERIFY(lossesUpTo > 0 && lossesUpTo < count(stored, "train", "loss"));
    QCOMPARE(static_cast<std::size_t>(trainLossGraph->dataCount()), lossesUpTo);
    int mapStep = 0;
    for (const int s : store.attentionSteps(runId))
        if (s <= at)
            mapStep = std::max(mapStep, s);
    QVERIFY(mapStep > 0);
    QCOMPARE(heatmap->snapshot()->step, mapStep);
    replay->showStep(0);
    QCOMPARE(trainLossGraph->dataCount(), 0);
    QVERIFY(heatmap->isPlaceholderShown()); // no evaluation yet at step 0
    replay->setSeconds(2);
    replay->play();
    QVERIFY(replay->isPlaying());
    QTRY_VERIFY_WITH_TIMEOUT(!replay->isPlaying(), 15000);
    QCOMPARE(replay->step(), steps);
    QCOMPARE(static_cast<std::size_t>(trainLossGraph->dataCount()), count(stored, "train", "loss"));
    QCOMPARE(heatmap->snapshot()->step, store.latestAttention(runId)->step);
    replay->setSeconds(20); // as a user finds it, for the screenshot

    // A screenshot for the eye (and the README).
    curves->replot();
    child<QCustomPlot>(heatmap, "attentionPlot")->replot();
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
    fillSmallRun(&window, "lstm", "none", 40, 20);
    QTest::mouseClick(child<QPushButton>(&window, "trainButton"), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!window.isTraining(), 240000);
    QVERIFY(child<QCPGraph>(&window, "devMetricGraph")->dataCount() > 0);
    const AttentionHeatmap* heatmap = child<AttentionHeatmap>(&window, "attentionHeatmap");
    QVERIFY(heatmap->isPlaceholderShown());
    QVERIFY2(heatmap->placeholderText().contains(QStringLiteral("no attention")), qPrintable(heatmap->placeholderText()));
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
        fillSmallRun(&window, "ssan", "rpr", steps, 1000);
        QTest::mouseClick(child<QPushButton>(&window, "trainButton"), Qt::LeftButton);
        const QProgressBar* progress = child<QProgressBar>(&window, "trainingProgress");
        QTRY_VERIFY_WITH_TIMEOUT(progress->value() > 0, 120000);
        seenStep = progress->value();
        QElapsedTimer closing;
        closing.start();
        QVERIFY(window.close());
        QVERIFY2(closing.elapsed() < 5000, "closing must stop the run within a batch or so");
        QVERIFY(child<TrainingWorker>(&window, "trainingWorker")->wait(0)); // the training thread has ended
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
    const RunSummary summary = Trainer(c).run(DatasetCatalog::loadAny(dataset, {}), observer, cancel);
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
    QComboBox* mapSelector = child<QComboBox>(&heatmap, "attentionMapSelector");
    const QCPColorMap* colorMap = child<QCPColorMap>(&heatmap, "attentionColorMap");
    QCustomPlot* plot = child<QCustomPlot>(&heatmap, "attentionPlot");
    heatmap.resize(640, 420);
    heatmap.show();
    QVERIFY(QTest::qWaitForWindowExposed(&heatmap));

    const AttentionSnapshot essan = trainedSnapshot("synthetic-sentiment", "essan", 2);
    heatmap.setSnapshot(essan);
    QCOMPARE(heatmap.viewCount(), 2 * 2 + 1); // 2 layers x 2 heads, then the pooling weights
    mapSelector->setCurrentIndex(heatmap.viewCount() - 1);
    const int tokens = static_cast<int>(essan.tokens.size());
    QCOMPARE(colorMap->data()->keySize(), tokens);
    QCOMPARE(colorMap->data()->valueSize(), 2); // one row, drawn as two identical half-height cells
    double sum = 0;
    for (int k = 0; k < tokens; ++k)
        sum += colorMap->data()->cell(k, 0);
    QVERIFY2(std::abs(sum - 1.0) < 1e-3, qPrintable(QString::number(sum))); // a distribution over the tokens
    QCOMPARE(heatmap.valueLabelCount(), tokens); // each weight printed on its cell
    plot->replot();
    QVERIFY(heatmap.grab().save(shots + QStringLiteral("/heatmap-pooling.png")));

    const AttentionSnapshot darnn = trainedSnapshot("synthetic-lag", "darnn", 1);
    heatmap.setSnapshot(darnn);
    QVERIFY(heatmap.viewCount() >= 2); // temporal attention (pooling) and input attention
    mapSelector->setCurrentIndex(heatmap.viewCount() - 1);
    QCOMPARE(colorMap->data()->keySize(), static_cast<int>(darnn.features.size()));
    QCOMPARE(colorMap->data()->valueSize(), static_cast<int>(darnn.tokens.size()));
    QCOMPARE(heatmap.valueLabelCount(), 0); // a matrix: colour only
    plot->replot();
    QVERIFY(heatmap.grab().save(shots + QStringLiteral("/heatmap-input-attention.png")));
}

// Issue 28: a real SST sentence of 25 tokens in a side-by-side panel at 1280x720 (the map itself about
// 110 px square there) had its key labels run into each other. Now the labels drawn never overlap (a font
// whose line fits its cell, upright keys where a word is wider than its cell, every second label where even
// 7 points do not fit), and Enlarge (or a double click) shows the map at the screen's size, where every one
// of the 25 labels is drawn.
void TestGui::heatmapLabelsStayLegibleAtProjectorSize()
{
    const std::vector<std::string> sentence = {
        "it", "'s", "a", "lovely", "film", "with", "lovely", "performances", "by", "buy", "and", "accorsi",
        "but", "the", "screenplay", "is", "an", "unbelievably", "contrived", "and", "ultimately", "tiresome",
        "affair", "overall", "."};
    AttentionSnapshot snapshot;
    snapshot.step = 100;
    snapshot.tokens = sentence;
    AttentionMap map;
    map.size = static_cast<int>(sentence.size());
    map.weights.assign(static_cast<std::size_t>(map.size * map.size), 1.0f / static_cast<float>(map.size));
    snapshot.maps.push_back(map);
    const QString shots = QStringLiteral(ATTNLAB_BUILD_DIR "/screenshots");
    QVERIFY(QDir().mkpath(shots));
    for (const QSize size : {QSize(340, 250), QSize(620, 420), QSize(1150, 620)}) {
        AttentionHeatmap heatmap;
        heatmap.resize(size);
        heatmap.show();
        QVERIFY(QTest::qWaitForWindowExposed(&heatmap));
        heatmap.setSnapshot(snapshot);
        child<QCustomPlot>(&heatmap, "attentionPlot")->replot();
        heatmap.setSnapshot(snapshot); // laid out once: the cells' real size
        const auto labels = heatmap.tokenLabels();
        const QString where = QStringLiteral("%1x%2: cells %3 x %4 px").arg(size.width()).arg(size.height())
                                  .arg(labels.cellWidth).arg(labels.cellHeight);
        if (size.width() >= 1150) { // the enlarged size: every label
            QCOMPARE(labels.keyStride, 1);
            QCOMPARE(labels.queryStride, 1);
        }
        QVERIFY2(labels.keyFont.pointSizeF() >= 7.0 && labels.queryFont.pointSizeF() >= 7.0, qPrintable(where));
        QVERIFY2(QFontMetrics(labels.queryFont).height() <= labels.cellHeight * labels.queryStride, qPrintable(where));
        const QFontMetrics keys(labels.keyFont);
        if (labels.keyRotation == 0.0) { // across: every (elided) label fits its cell
            for (const auto& token : sentence)
                QVERIFY2(std::min(keys.horizontalAdvance(QString::fromStdString(token)), 9 * keys.averageCharWidth()) + 4 <=
                             labels.cellWidth,
                         qPrintable(where + " " + QString::fromStdString(token)));
        } else { // upright: one line's height per drawn label
            QCOMPARE(labels.keyRotation, 90.0);
            QVERIFY2(keys.height() <= labels.cellWidth * labels.keyStride, qPrintable(where));
        }
        QVERIFY(heatmap.grab().save(shots + QStringLiteral("/heatmap-25-tokens-%1x%2.png").arg(size.width()).arg(size.height())));
        if (size.width() == 340) { // the side-by-side panel: Enlarge opens the map at the screen's size
            auto* button = child<QPushButton>(&heatmap, "attentionEnlargeButton");
            QVERIFY(button->isEnabled());
            QTest::mouseClick(button, Qt::LeftButton);
            auto* large = heatmap.window()->findChild<AttentionHeatmap*>(QStringLiteral("attentionHeatmapEnlarged"));
            QVERIFY(large);
            QVERIFY(QTest::qWaitForWindowExposed(large->window()));
            large->setSnapshot(snapshot);
            QCOMPARE(large->tokenLabels().keyStride, 1);
            QCOMPARE(large->tokenLabels().queryStride, 1);
            QVERIFY(large->grab().save(shots + QStringLiteral("/heatmap-25-tokens-enlarged.png")));
            large->window()->close();
        }
    }
}

QTEST_MAIN(TestGui)
// A time-series run reads as RMSE in the run list and the plot's title, never as an accuracy ("0.0%").
void TestGui::regressionRunReadsAsRmse()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString db = dir.filePath(QStringLiteral("runs.sqlite"));
    qint64 runId = 0;
    RunSummary summary;
    {
        RunStore store(db.toStdString());
        TrainConfig c;
        c.dataset = "synthetic-lag";
        c.model.model = "darnn";
        c.model.position = "none";
        c.model.dModel = 16;
        c.steps = 30;
        c.evalEvery = 10;
        c.device = "cpu";
        StoreObserver observer(store);
        CancelToken cancel;
        summary = Trainer(c).run(DatasetCatalog::loadAny(c.dataset, {}), observer, cancel);
        QCOMPARE(statusText(summary.status), statusText(RunStatus::Completed));
        QVERIFY(summary.regression && summary.testRmse > 0.0);
        runId = observer.runId();
    }
    MainWindow window(db);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto* runs = child<RunListPanel>(&window, "runListPanel");
    QTableView* table = child<QTableView>(runs, "runTable");
    QCOMPARE(runs->runCount(), 1);
    const QString dev = cell(table, 0, RunTableModel::BestDev).toString();
    const QString test = cell(table, 0, RunTableModel::Test).toString();
    QVERIFY2(!dev.contains('%') && !test.contains('%'), qPrintable(dev + " / " + test));
    QCOMPARE(test, QString::number(summary.testRmse, 'f', 4));
    QCOMPARE(cell(table, 0, RunTableModel::Test, Qt::UserRole).toDouble(), summary.testRmse);
    QVERIFY(cell(table, 0, RunTableModel::Test, Qt::ToolTipRole).toString().startsWith(QStringLiteral("test RMSE")));

    window.showRun(runId);
    // DA-RNN takes no position technique: the title names the model alone (not "DA-RNN + None").
    QCOMPARE(child<TrainingCurvesPlot>(&window, "trainingCurvesPlot")->title(),
             QStringLiteral("Run #%1 · DA-RNN on Synthetic lagged series").arg(runId));
    const QString subtitle = child<TrainingCurvesPlot>(&window, "trainingCurvesPlot")->subtitle();
    QVERIFY2(subtitle.contains(QStringLiteral("best dev RMSE")) && subtitle.contains(QStringLiteral("test RMSE")),
             qPrintable(subtitle));
    QVERIFY2(!subtitle.contains('%'), qPrintable(subtitle));
    // The lower panel draws RMSE (not an empty accuracy panel): every stored dev RMSE point, in its own units.
    auto* curves = child<TrainingCurvesPlot>(&window, "trainingCurvesPlot");
    QCOMPARE(curves->metricName(), QStringLiteral("rmse"));
    std::vector<MetricPoint> stored;
    {
        RunStore store(db.toStdString());
        stored = store.metrics(runId);
    }
    const QCPGraph* devRmse = child<QCPGraph>(curves, "devMetricGraph");
    QCOMPARE(static_cast<std::size_t>(devRmse->dataCount()), count(stored, "dev", "rmse"));
    QVERIFY(devRmse->dataCount() >= 3); // steps 10, 20, 30
    QCOMPARE(child<QCPGraph>(curves, "testMetricGraph")->data()->constBegin()->value, summary.testRmse);
    const QString shots = QStringLiteral(ATTNLAB_BUILD_DIR "/screenshots");
    QVERIFY(QDir().mkpath(shots));
    QTest::qWait(100); // the plots replot on the event loop
    QVERIFY(window.grab().save(shots + QStringLiteral("/regression-run.png")));
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
void TestGui::selectSeveralRefreshAndDelete()
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
void TestGui::openAndImportRunDatabases()
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

#include "test_gui.moc"

// The user deletes or replaces the run database while the window has it open (issue 13). Idle: the window
// writes it back from its open connection and says so. While a run trains: the run's writer writes it
// back and the window reads the file there, so the run list shows the new run (it used to go on reading
// the deleted file). Replaced by another run database: the list shows that file's runs.
void TestGui::followsItsDatabaseFileOnDisk()
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
