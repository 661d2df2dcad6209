// The main window driven like a user would: set up a small run, click Train, watch the curves and the
// attention heatmap fill in from a real training run; close mid-run; a time-series run read as RMSE.
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
    void regressionRunReadsAsRmse();
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
    auto countFor = [](TaskKind task) {
        return static_cast<int>(std::count_if(Registry::models().begin(), Registry::models().end(),
                                              [&](const auto& m) { return m.servesTask(task); }));
    };
    choose(datasets, "synthetic-lag");
    QCOMPARE(models->count(), countFor(TaskKind::Regression));
    QVERIFY(models->findData(QStringLiteral("darnn")) >= 0);
    QCOMPARE(models->findData(QStringLiteral("lstm")), -1);
    choose(datasets, "synthetic-sentiment");
    QCOMPARE(models->count(), countFor(TaskKind::Classification));
    for (const auto& model : Registry::models()) {
        if (!model.servesTask(TaskKind::Classification))
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
    // a refused setting is named by its field's label in the window, not by its key.
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

        // A language model's splits are streams: their tokens, and the dev loss of train's counts (ln 50 for the
        // repeat task's 50 equally likely symbols).
        choose(datasets, "synthetic-repeat");
        QTRY_VERIFY_WITH_TIMEOUT(cache->cached(QStringLiteral("synthetic-repeat")), 30000);
        QVERIFY2(label->text().contains(QStringLiteral(">%1</td>").arg(QLocale().toString(640000))), qPrintable(label->text()));
        QVERIFY2(label->text().contains(QStringLiteral("dev loss %1 nats").arg(QLocale().toString(std::log(50.0), 'f', 2))),
                 qPrintable(label->text()));
        QCOMPARE(label->toolTip(), QStringLiteral("train 640000 / dev 6400 / test 6400 words"));

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

    // The Training tab's replay: a step shows the stored points up to it and the map of the last
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

QTEST_MAIN(TestGui)
#include "test_gui.moc"
