// Every preset and every lesson, started the way a user starts them, trains: in the window (Start from → the
// preset → ▶ Train; Start from → the lesson → Compare) and on the command line (`attnlab-cli train --preset`).
// Each run must complete, with the dataset and model its preset names and the position technique it names or,
// where it names none, the one that model takes (Registry::defaultPosition): the rule TrainConfig::fromJson
// applies for every path. Choosing a preset must show no change from it ("As the preset."). New presets and
// lessons are covered without editing this file. ATTNLAB_MAX_STEPS keeps each run to a few steps (the stored
// configuration and the run's notes say so), so the whole suite takes a minute or two.
// Presets whose data is not on this machine (the real datasets, word vectors, the pretrained model) are skipped
// on a developer's machine and fail the test in CI, where the data is always there.
#include "core/config/Registry.h"
#include "core/config/TeachingScenario.h"
#include "core/config/TrainPreset.h"
#include "core/store/RunStore.h"
#include "core/training/PretrainedLanguageModel.h"
#include "tests/support/CliProcess.h"
#include "tests/support/RealData.h"
#include "tests/support/StatusText.h"
#include "tests/support/WidgetLookup.h"
#include "ui/MainWindow.h"
#include "ui/analysis/CompareView.h"
#include "ui/explorer/PretrainedLlmView.h"
#include "ui/setup/PresetChooser.h"
#include "ui/training/LiveComparisonView.h"

#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>

#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <memory>

using namespace attnlab;
using namespace attnlab::ui;

namespace {

// Steps per run: 2 are enough to train, evaluate, test and store. ATTNLAB_MAX_STEPS set beforehand wins, and 0 trains
// each lesson at its full budget: `ATTNLAB_MAX_STEPS=0 xvfb-run tests/test_every_lesson everyLessonFromTheDesigner`
// is every lesson as a user meets it, each one's minutes printed.
int stepsPerRun()
{
    return qEnvironmentVariableIsSet("ATTNLAB_MAX_STEPS") ? qEnvironmentVariableIntValue("ATTNLAB_MAX_STEPS") : 2;
}

QString text(const std::string& s) { return QString::fromStdString(s); }

// What a preset needs besides the built-in data, or "" when nothing.
std::string missingData(const TrainPreset& preset, bool realData, bool pretrained)
{
    const TrainConfig& c = preset.config;
    const ModelSpec* model = Registry::model(c.model.model);
    if (model && !model->pretrained.empty() && !pretrained)
        return "the pretrained model " + model->pretrained + " (ATTNLAB_PRETRAINED_WHEEL)";
    if ((c.dataset.rfind("synthetic-", 0) != 0 || !c.embeddingsPath.empty()) && !realData)
        return "the real datasets (ATTNLAB_DATA_DIR)";
    return {};
}

// The newest `count` runs of the store, oldest first.
std::vector<RunRecord> newestRuns(const QString& db, std::size_t count)
{
    std::vector<RunRecord> runs = RunStore(db.toStdString()).listRuns(); // newest first
    runs.resize(std::min(count, runs.size()));
    return {runs.rbegin(), runs.rend()};
}

// The run completed, trained the preset's dataset, model and position, and was capped as asked.
void expectTrainedAsThePreset(const RunRecord& run, const TrainPreset& preset, const QString& path)
{
    const TrainConfig stored = TrainConfig::fromJson(run.configJson);
    const QString what = path + " " + text(preset.name) + " (run " + QString::number(run.id) + ")";
    QVERIFY2(run.status == RunStatus::Completed,
             qPrintable(what + ": " + statusText(run.status) + ": " + text(run.message)));
    QVERIFY2(stored.dataset == preset.config.dataset, qPrintable(what + ": dataset " + text(stored.dataset)));
    QVERIFY2(stored.model.model == preset.config.model.model, qPrintable(what + ": model " + text(stored.model.model)));
    QVERIFY2(stored.model.position == preset.config.model.position,
             qPrintable(what + ": position " + text(stored.model.position) + ", the preset's " + text(preset.config.model.position)));
    const ModelSpec* model = Registry::model(stored.model.model);
    QVERIFY(model);
    QVERIFY2(std::find(model->positions.begin(), model->positions.end(), stored.model.position) != model->positions.end(),
             qPrintable(what + ": position " + text(stored.model.position) + " does not apply to the model"));
    // At the full budget (0) an epoch preset's configuration says 0 steps: only a capped run is checked against its cap.
    QVERIFY2(stepsPerRun() == 0 || (stored.steps <= stepsPerRun() && run.steps == stored.steps), qPrintable(what + ": " + QString::number(run.steps) + " steps"));
    // The run's name comes from what it trained, never from a position it does not take.
    QVERIFY2(!Registry::takesPosition(stored.model.model) ? run.name.find('+') == std::string::npos : true,
             qPrintable(what + ": named " + text(run.name)));
}

// The slowest few, for whoever wants this suite faster.
void reportSlowest(const char* path, std::vector<std::pair<double, QString>> times)
{
    std::sort(times.rbegin(), times.rend());
    QStringList slowest;
    for (std::size_t i = 0; i < times.size() && i < 6; ++i)
        slowest << QStringLiteral("%1 %2 s").arg(times[i].second).arg(times[i].first, 0, 'f', 1);
    qInfo("%s, slowest: %s", path, qPrintable(slowest.join(QStringLiteral(", "))));
}

} // namespace

class TestEveryLesson : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void presetPositionsFollowTheirModels();
    void everyPresetFromTheDesigner();
    void everyLessonFromTheDesigner();
    void everyExploringLessonFromTheDesigner();
    void everyPresetFromTheCommandLine();
    void cleanupTestCase();

private:
    bool available(const TrainPreset& preset);
    void showWithDataFolder(MainWindow& window); // shown, its data folder the one with the pretrained model

    QTemporaryDir dir_;
    QString data_;      // the pretrained model imported here; the real datasets come from ATTNLAB_DATA_DIR
    bool realData_ = false;
    bool pretrained_ = false;
    bool llm_ = false; // SmolLM2 imported too
    QStringList skipped_;
    QElapsedTimer clock_;
};

void TestEveryLesson::initTestCase()
{
    clock_.start();
    QVERIFY(dir_.isValid());
    qputenv("ATTNLAB_MAX_STEPS", QByteArray::number(stepsPerRun())); // read by the trainer here and in the CLI's processes
    QSettings().clear();
    data_ = dir_.filePath(QStringLiteral("data"));
    realData_ = !realDataDir().isEmpty();
    const QString wheel = qEnvironmentVariable("ATTNLAB_PRETRAINED_WHEEL");
    if (!wheel.isEmpty()) {
        const CliResult r = runCli({"import", "all-minilm-l6-v2", wheel, "--data-dir", data_, "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        pretrained_ = true;
    }
    if (const QString llmWheel = qEnvironmentVariable("ATTNLAB_LLM_WHEEL"); !llmWheel.isEmpty()) {
        const CliResult r = runCli({"import", "smollm2-135m", llmWheel, "--data-dir", data_, "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        llm_ = true;
    }
    if (qEnvironmentVariable("CI") == QLatin1String("true") && (!realData_ || !pretrained_ || !llm_))
        QFAIL("CI=true but the real data (ATTNLAB_DATA_DIR) or a pretrained wheel (ATTNLAB_PRETRAINED_WHEEL, "
              "ATTNLAB_LLM_WHEEL) "
              "is missing: every preset and lesson must be tried there");
}

bool TestEveryLesson::available(const TrainPreset& preset)
{
    const std::string missing = missingData(preset, realData_, pretrained_);
    if (!missing.empty() && !skipped_.contains(text(preset.name)))
        skipped_ << text(preset.name) + " (needs " + text(missing) + ")";
    return missing.empty();
}

void TestEveryLesson::showWithDataFolder(MainWindow& window)
{
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto* dataDir = child<QLineEdit>(&window, "dataDirEdit");
    dataDir->setText(data_); // typed, as a user sets it
    emit dataDir->editingFinished();
}

// The rule for what a preset leaves out, checked on every compiled-in preset before anything trains: a
// translation preset that names no position gets none (its models take none), not the SANs' rpr.
void TestEveryLesson::presetPositionsFollowTheirModels()
{
    QVERIFY(TrainPreset::all().size() >= 60);
    for (const auto& preset : TrainPreset::all()) {
        const ModelSpec* model = Registry::model(preset.config.model.model);
        QVERIFY2(model, preset.name.c_str());
        QVERIFY2(std::find(model->positions.begin(), model->positions.end(), preset.config.model.position) != model->positions.end(),
                 qPrintable(text(preset.name) + ": position " + text(preset.config.model.position)));
    }
    for (const char* name : {"teach-align-bahdanau", "teach-align-seq2seq", "teach-luong-dot", "teach-luong-general", "teach-luong-concat"})
        QCOMPARE(text(TrainPreset::find(name)->config.model.position), QStringLiteral("none"));
    // The same rule for a config file: a model and nothing else gives that model's own position and an
    // optimiser's own learning rate.
    const TrainConfig lstm = TrainConfig::fromJson(R"({"model": "lstm", "optimizer": "adadelta"})");
    QCOMPARE(text(lstm.model.position), QStringLiteral("none"));
    QCOMPARE(lstm.learningRate, 1.0);
    QCOMPARE(text(TrainConfig::fromJson(R"({"dataset": "synthetic-reverse"})").model.model), QStringLiteral("bahdanau"));
    QCOMPARE(text(TrainConfig::fromJson(R"({"model": "ssan"})").model.position), QStringLiteral("rpr"));
}

// Start from → each preset → ▶ Train, one run each (the repeats spin set to 1, as a user short of time does).
void TestEveryLesson::everyPresetFromTheDesigner()
{
    const QString db = dir_.filePath(QStringLiteral("designer.sqlite"));
    MainWindow window(db);
    showWithDataFolder(window);
    if (QTest::currentTestFailed())
        return;
    auto* chooser = child<PresetChooser>(&window, "presetChooser");
    auto* differences = child<QLabel>(&window, "presetDifferences");
    auto* train = child<QPushButton>(&window, "trainButton");
    int trained = 0;
    std::vector<std::pair<double, QString>> times;
    for (const auto& preset : TrainPreset::all()) {
        if (!available(preset))
            continue;
        QElapsedTimer one;
        one.start();
        QVERIFY2(chooser->choose(text(preset.name)), preset.name.c_str());
        // Nothing was changed, so nothing is said to be: the form holds the preset's effective configuration.
        QVERIFY2(differences->text().contains(QStringLiteral("As the preset")),
                 qPrintable(text(preset.name) + ": " + differences->text()));
        child<QSpinBox>(&window, "repeatsSpin")->setValue(1);
        QVERIFY2(train->isEnabled(), preset.name.c_str());
        QTest::mouseClick(train, Qt::LeftButton);
        QVERIFY2(window.isTraining(), qPrintable(text(preset.name) + ": ▶ Train did not start"));
        QTRY_VERIFY_WITH_TIMEOUT(!window.isTraining(), 300000);
        const auto runs = newestRuns(db, 1);
        QCOMPARE(runs.size(), std::size_t(1));
        expectTrainedAsThePreset(runs.front(), preset, QStringLiteral("▶ Train"));
        if (QTest::currentTestFailed())
            return;
        ++trained;
        times.emplace_back(one.elapsed() / 1000.0, text(preset.name));
    }
    reportSlowest("▶ Train", times);
    QCOMPARE(RunStore(db.toStdString()).listRuns().size(), std::size_t(trained));
    qInfo("%d presets trained from the designer in %.1f s so far", trained, clock_.elapsed() / 1000.0);
}

// Start from → each lesson (and its real-data version) → Compare: every run of it completes as its preset
// says, and the lesson reaches its end.
void TestEveryLesson::everyLessonFromTheDesigner()
{
    const QString db = dir_.filePath(QStringLiteral("lessons.sqlite"));
    MainWindow window(db);
    window.resize(1280, 720); // a projector's
    showWithDataFolder(window);
    if (QTest::currentTestFailed())
        return;
    auto* chooser = child<PresetChooser>(&window, "presetChooser");
    auto* live = child<LiveComparisonView>(&window, "liveComparisonView");
    auto* compare = child<QPushButton>(&window, "compareButton");
    QVERIFY(TeachingScenario::all().size() >= 10);
    int lessons = 0;
    std::size_t runsSoFar = 0;
    for (const auto& scenario : TeachingScenario::all()) {
        for (const bool real : {false, true}) {
            const auto& presets = real ? scenario.realPresets : scenario.presets;
            if (presets.empty()) // a lesson that explores: everyExploringLessonFromTheDesigner
                continue;
            bool ready = true;
            for (const TrainPreset* p : presets)
                ready = available(*p) && ready;
            if (!ready)
                continue;
            const QString id = QStringLiteral("lesson:") + text(scenario.id) + (real ? QStringLiteral(":real") : QString());
            QVERIFY2(chooser->choose(id), qPrintable(id));
            QCOMPARE(live->planSize(), static_cast<int>(presets.size()));
            QElapsedTimer lessonClock;
            lessonClock.start();
            QSignalSpy finished(live, &LiveComparisonView::allFinished);
            QSignalSpy ended(live, &LiveComparisonView::lessonEnded);
            QVERIFY2(compare->isEnabled(), qPrintable(id));
            QTest::mouseClick(compare, Qt::LeftButton);
            QVERIFY2(live->isRunning(), qPrintable(id + ": Compare did not start"));
            QVERIFY2(finished.wait(stepsPerRun() == 0 ? 3600000 : 600000) || finished.count() > 0, qPrintable(id + ": did not finish"));
            if (stepsPerRun() == 0)
                qInfo("%s: %zu runs side by side in %.1f min", qPrintable(id), presets.size(), lessonClock.elapsed() / 60000.0);
            QTRY_VERIFY_WITH_TIMEOUT(!live->isRunning(), 10000);
            const auto runs = newestRuns(db, presets.size());
            QCOMPARE(runs.size(), presets.size());
            runsSoFar += presets.size();
            // The compared runs are stored in the order they finish: match each to its preset by what it trained.
            for (const TrainPreset* p : presets) {
                const auto it = std::find_if(runs.begin(), runs.end(), [&](const RunRecord& r) {
                    const TrainConfig c = TrainConfig::fromJson(r.configJson);
                    return c.model.model == p->config.model.model && c.model.position == p->config.model.position &&
                           c.model.uniformAttention == p->config.model.uniformAttention &&
                           c.model.attentionScore == p->config.model.attentionScore && c.model.alignment == p->config.model.alignment &&
                           // a pretrained model's sizes are its own (config.json), not the preset's
                           (c.model.model == "minilm" || (c.model.layers == p->config.model.layers && c.model.heads == p->config.model.heads)) &&
                           c.model.frozenEncoder == p->config.model.frozenEncoder && c.model.pooling == p->config.model.pooling &&
                           c.phrases == p->config.phrases;
                });
                QString seen;
                for (const auto& r : runs)
                    seen += QStringLiteral(" [%1 %2 %3: %4]").arg(r.id).arg(text(r.name), statusText(r.status), text(r.message));
                QVERIFY2(it != runs.end(), qPrintable(id + ": no run of " + text(p->name) + " among the compared runs:" + seen));
                expectTrainedAsThePreset(*it, *p, QStringLiteral("Compare ") + id);
                if (QTest::currentTestFailed())
                    return;
            }
            // A lesson that opens a view at its end says so once every run has ended.
            if (!scenario.opens.empty())
                QCOMPARE(ended.count(), 1);
            if (scenario.opens == "compare") { // Compare over the lesson's runs, as the window shows them
                auto* compareView = child<CompareView>(&window, "compareView");
                QTRY_VERIFY_WITH_TIMEOUT(compareView->isVisible(), 5000);
                QCOMPARE(static_cast<std::size_t>(compareView->runs().size()), presets.size());
                for (const auto& r : runs)
                    QVERIFY2(compareView->runs().contains(r.id), qPrintable(id));
                bool gradients = false; // a lesson whose presets record the gradient shows its profile
                for (const TrainPreset* p : presets)
                    gradients = gradients || p->config.gradientNorms;
                if (gradients)
                    QVERIFY2(compareView->panel(QStringLiteral("grad_by_distance")) &&
                                 compareView->panel(QStringLiteral("grad_norm")), qPrintable(id + ": no gradient panels"));
            }
            ++lessons;
        }
    }
    QCOMPARE(RunStore(db.toStdString()).listRuns().size(), runsSoFar);
    qInfo("%d lessons compared in the window (%zu runs), %.1f s so far", lessons, runsSoFar, clock_.elapsed() / 1000.0);
}

// Start from → each lesson that explores a pretrained model: nothing trains, the Real LLM tab opens on the lesson's
// prompt and tab with the lesson's text above it, the model reads the prompt and, where the lesson asks, measures
// which heads copy; the designer makes room at a projector's width.
void TestEveryLesson::everyExploringLessonFromTheDesigner()
{
    const QString db = dir_.filePath(QStringLiteral("exploring.sqlite"));
    MainWindow window(db);
    window.resize(1280, 720);
    showWithDataFolder(window);
    if (QTest::currentTestFailed())
        return;
    auto* chooser = child<PresetChooser>(&window, "presetChooser");
    auto* llm = child<PretrainedLlmView>(&window, "llmView");
    auto* designer = child<QDockWidget>(&window, "designerDock");
    auto* runsDock = child<QDockWidget>(&window, "runsDock");
    auto* workspace = child<QTabWidget>(&window, "workspaceTabs");
    int lessons = 0;
    for (const auto& scenario : TeachingScenario::all()) {
        if (!scenario.explore)
            continue;
        const TeachingScenario::Exploration& e = *scenario.explore;
        const QString id = QStringLiteral("lesson:") + text(scenario.id);
        QCOMPARE(text(e.model), QString::fromLatin1(PretrainedLanguageModel::kDefaultId));
        if (!llm_) {
            skipped_ << id + " (needs the model smollm2-135m, ATTNLAB_LLM_WHEEL)";
            continue;
        }
        designer->show();
        runsDock->show();
        QSignalSpy explained(llm, &PretrainedLlmView::explained);
        QSignalSpy measured(llm, &PretrainedLlmView::copyMeasured);
        QVERIFY2(chooser->choose(id), qPrintable(id));
        QVERIFY2(workspace->currentWidget()->findChild<PretrainedLlmView*>() == llm,
                 qPrintable(id + ": the Real LLM tab is not shown"));
        QVERIFY2(!designer->isVisible() && !runsDock->isVisible(),
                 qPrintable(id + ": the docks did not make room at 1280 px"));
        QCOMPARE(llm->currentTab(), e.viewIndex());
        QVERIFY2(llm->lessonText().contains(text(scenario.title).toHtmlEscaped()), qPrintable(llm->lessonText()));
        QTRY_VERIFY_WITH_TIMEOUT(explained.count() > 0 && !llm->isBusy(), 120000);
        QVERIFY2(llm->explanation() && llm->explanation()->text == e.prompt,
                 qPrintable(id + ": the prompt was not read"));
        QVERIFY(llm->explanation()->attention.maps.size() == 270); // 30 layers x 9 heads
        QVERIFY(!llm->nextPiecesText().isEmpty());
        QCOMPARE(QString::fromStdString(llm->ablation().text()), text(e.ablate));
        if (e.measureCopying) {
            QTRY_VERIFY_WITH_TIMEOUT(measured.count() > 0 || llm->copyScores(), 120000);
            QVERIFY(llm->copyScores()->repeatedHalfLoss < llm->copyScores()->firstHalfLoss);
        }
        QTest::qWait(200); // the last paint
        QDir().mkpath(QStringLiteral(ATTNLAB_BUILD_DIR "/screenshots"));
        window.grab().save(
            QStringLiteral(ATTNLAB_BUILD_DIR "/screenshots/lesson-%1-1280x720.png").arg(text(scenario.id)));
        ++lessons;
    }
    QVERIFY(lessons >= 3 || !llm_);
    QVERIFY2(RunStore(db.toStdString()).listRuns().empty(), "an exploring lesson trained something");
}

// `attnlab-cli train --preset NAME`, as the README gives it: each preset once (--repeat 1), two processes of one
// thread at a time (most of a 2-step run is LibTorch's start: 0.85 s of `--version`), into one database as a
// sweep would.
void TestEveryLesson::everyPresetFromTheCommandLine()
{
    const QString db = dir_.filePath(QStringLiteral("cli.sqlite"));
    std::vector<const TrainPreset*> queue;
    for (const auto& preset : TrainPreset::all())
        if (available(preset))
            queue.push_back(&preset);
    struct Running {
        const TrainPreset* preset;
        std::unique_ptr<QProcess> process;
    };
    std::vector<Running> running;
    std::vector<std::pair<double, QString>> times;
    QElapsedTimer clock;
    clock.start();
    int trained = 0;
    std::size_t next = 0;
    while (next < queue.size() || !running.empty()) {
        while (running.size() < 2 && next < queue.size()) {
            auto process = std::make_unique<QProcess>();
            process->start(QStringLiteral(ATTNLAB_CLI_PATH), {"train", "--preset", text(queue[next]->name), "--repeat", "1",
                                                             "--threads", "1", "--data-dir", data_, "--db", db, "--json"});
            QVERIFY2(process->waitForStarted(), queue[next]->name.c_str());
            running.push_back({queue[next++], std::move(process)});
        }
        Running done = std::move(running.front());
        running.erase(running.begin());
        QVERIFY2(done.process->waitForFinished(300000), done.preset->name.c_str());
        const QString name = text(done.preset->name);
        const QString err = QString::fromUtf8(done.process->readAllStandardError());
        QVERIFY2(done.process->exitStatus() == QProcess::NormalExit && done.process->exitCode() == 0,
                 qPrintable(name + ": exit " + QString::number(done.process->exitCode()) + ": " + err.right(600)));
        const QList<QByteArray> lines = done.process->readAllStandardOutput().trimmed().split('\n');
        const QJsonObject result = QJsonDocument::fromJson(lines.last()).object();
        QCOMPARE(result["status"].toString(), QStringLiteral("completed"));
        const auto run = RunStore(db.toStdString()).run(result["run_id"].toInteger());
        QVERIFY2(run.has_value(), qPrintable(name));
        expectTrainedAsThePreset(*run, *done.preset, QStringLiteral("train --preset"));
        if (QTest::currentTestFailed())
            return;
        ++trained;
        times.emplace_back(result["seconds"].toDouble(), name);
    }
    reportSlowest("train --preset (seconds of training)", times);
    QCOMPARE(RunStore(db.toStdString()).listRuns().size(), queue.size());
    qInfo("%d presets trained by train --preset in %.1f s, %.1f s in all", trained, clock.elapsed() / 1000.0,
          clock_.elapsed() / 1000.0);
}

void TestEveryLesson::cleanupTestCase()
{
    if (!skipped_.isEmpty())
        qWarning("skipped, their data is not here: %s", qPrintable(skipped_.join(QStringLiteral(", "))));
    qunsetenv("ATTNLAB_MAX_STEPS");
}

QTEST_MAIN(TestEveryLesson)
#include "test_every_lesson.moc"
