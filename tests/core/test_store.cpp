// The SQLite run store: round trips, schema migration from version 1, queries and aggregates,
// export/import, the StoreObserver's writer thread, crash safety against a real SIGKILLed training
// process, and clear errors for locked, corrupt and foreign files.
#include "core/store/RunExport.h"
#include "core/store/RunStore.h"
#include "core/store/StoreObserver.h"

#include <nlohmann/json.hpp>

#include <QtCore/QCryptographicHash>
#include <QtCore/QElapsedTimer>
#include <QtCore/QFile>
#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <sqlite3.h>
#include <signal.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>

using namespace attnlab;
using nlohmann::json;

namespace {

RunInfo sampleInfo()
{
    RunInfo info;
    info.config.model.model = "ssan";
    info.config.model.position = "rpr";
    info.config.seed = 42;
    info.config.steps = 123;
    info.device = "cpu (2 threads)";
    info.torchVersion = "1.13.1";
    info.parameters = 465605;
    return info;
}

RunInfo infoFor(const std::string& dataset, const std::string& model, const std::string& position,
                std::uint64_t seed)
{
    RunInfo info = sampleInfo();
    info.config.dataset = dataset;
    info.config.model.model = model;
    info.config.model.position = position;
    info.config.seed = seed;
    return info;
}

RunSummary completed(double testAccuracy, double bestDev)
{
    RunSummary s;
    s.status = RunStatus::Completed;
    s.steps = 100;
    s.seconds = 2.5;
    s.testAccuracy = testAccuracy;
    s.bestDevAccuracy = bestDev;
    s.bestStep = 50;
    s.parameters = 465605;
    return s;
}

// Raw SQLite, to write files the way other programs (or older versions) do and to look underneath.
class RawDb {
public:
    explicit RawDb(const std::string& path, int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
    {
        if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK)
            throw std::runtime_error("raw open failed: " + path);
    }
    ~RawDb() { sqlite3_close(db_); }
    RawDb(const RawDb&) = delete;
    RawDb& operator=(const RawDb&) = delete;
    void exec(const std::string& sql)
    {
        char* error = nullptr;
        if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
            const std::string message = error ? error : "?";
            sqlite3_free(error);
            throw std::runtime_error("raw exec failed: " + message + " in " + sql);
        }
    }
    // The first column of the first row, as text; "" when there is no row or the query fails.
    std::string scalar(const std::string& sql)
    {
        sqlite3_stmt* s = nullptr;
        std::string result;
        if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &s, nullptr) == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW &&
            sqlite3_column_text(s, 0))
            result = reinterpret_cast<const char*>(sqlite3_column_text(s, 0));
        sqlite3_finalize(s);
        return result;
    }

private:
    sqlite3* db_ = nullptr;
};

std::string integrityCheck(const std::string& path)
{
    RawDb db(path, SQLITE_OPEN_READONLY);
    return db.scalar("PRAGMA integrity_check");
}

std::string fileContent(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// The schema version 1 exactly as the first release created it.
const char* kVersion1Schema =
    "CREATE TABLE IF NOT EXISTS runs ("
    " id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, status TEXT NOT NULL,"
    " started_at TEXT NOT NULL, finished_at TEXT, config_json TEXT NOT NULL, seed INTEGER NOT NULL,"
    " dataset TEXT NOT NULL, model TEXT NOT NULL, position TEXT NOT NULL,"
    " app_version TEXT, git_hash TEXT, torch_version TEXT, device TEXT, host TEXT, pid INTEGER,"
    " params INTEGER DEFAULT 0, steps INTEGER DEFAULT 0, seconds REAL DEFAULT 0,"
    " best_dev REAL DEFAULT 0, best_step INTEGER DEFAULT 0, test_accuracy REAL DEFAULT 0, message TEXT);"
    "CREATE TABLE IF NOT EXISTS metrics ("
    " run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE, step INTEGER NOT NULL,"
    " split TEXT NOT NULL, name TEXT NOT NULL, value REAL NOT NULL);"
    "CREATE INDEX IF NOT EXISTS metrics_by_run ON metrics(run_id, step);"
    "CREATE TABLE IF NOT EXISTS attention ("
    " run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE, step INTEGER NOT NULL,"
    " snapshot_json TEXT NOT NULL);"
    "CREATE INDEX IF NOT EXISTS attention_by_run ON attention(run_id, step);"
    "PRAGMA user_version = 1;";

// A version-1 file with one completed run (three metric points, one attention snapshot), written by
// raw SQL the way the first release wrote it.
void writeVersion1File(const std::string& path)
{
    RawDb db(path);
    db.exec("PRAGMA journal_mode = WAL");
    db.exec(std::string("BEGIN;") + kVersion1Schema + "COMMIT;");
    db.exec("INSERT INTO runs (name, status, started_at, finished_at, config_json, seed, dataset, model, position,"
            " app_version, git_hash, torch_version, device, host, pid, params, steps, seconds, best_dev, best_step,"
            " test_accuracy, message) VALUES ('ssan+rpr on sst-binary', 'completed', '2024-01-02T03:04:05Z',"
            " '2024-01-02T03:14:05Z', '{\"dataset\":\"sst-binary\",\"model\":\"ssan\",\"seed\":7,\"steps\":300}', 7,"
            " 'sst-binary', 'ssan', 'rpr', '0.1.0', 'abc123', '1.13.1', 'cpu (2 threads)', 'oldhost', 4242, 465605,"
            " 300, 600.5, 0.845, 250, 0.8375, '')");
    db.exec("INSERT INTO metrics VALUES (1, 10, 'train', 'loss', 0.69), (1, 20, 'train', 'loss', 0.5),"
            " (1, 20, 'dev', 'accuracy', 0.8)");
    db.exec("INSERT INTO attention VALUES (1, 20, '{\"step\":20,\"tokens\":[\"a\",\"b\"],\"maps\":[]}')");
}

// Every field of two records, except the id (which a store assigns).
void compareRecords(const RunRecord& a, const RunRecord& b)
{
    QCOMPARE(a.uuid, b.uuid);
    QCOMPARE(a.name, b.name);
    QCOMPARE(toString(a.status), toString(b.status));
    QCOMPARE(a.startedAt, b.startedAt);
    QCOMPARE(a.finishedAt, b.finishedAt);
    QCOMPARE(a.configJson, b.configJson);
    QCOMPARE(a.groupKey, b.groupKey);
    QCOMPARE(a.seed, b.seed);
    QCOMPARE(a.dataset, b.dataset);
    QCOMPARE(a.model, b.model);
    QCOMPARE(a.position, b.position);
    QCOMPARE(a.appVersion, b.appVersion);
    QCOMPARE(a.gitHash, b.gitHash);
    QCOMPARE(a.torchVersion, b.torchVersion);
    QCOMPARE(a.device, b.device);
    QCOMPARE(a.host, b.host);
    QCOMPARE(a.parameters, b.parameters);
    QCOMPARE(a.steps, b.steps);
    QCOMPARE(a.seconds, b.seconds);
    QCOMPARE(a.bestDevAccuracy, b.bestDevAccuracy);
    QCOMPARE(a.bestStep, b.bestStep);
    QCOMPARE(a.testAccuracy, b.testAccuracy);
    QCOMPARE(a.message, b.message);
    QCOMPARE(a.tags, b.tags);
    QCOMPARE(a.notes, b.notes);
    QCOMPARE(a.environmentJson, b.environmentJson);
    QCOMPARE(a.summaryJson, b.summaryJson);
    QCOMPARE(a.regression, b.regression);
    QCOMPARE(a.testRmse, b.testRmse);
}

void compareMetrics(const std::vector<MetricPoint>& a, const std::vector<MetricPoint>& b)
{
    QCOMPARE(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        QCOMPARE(a[i].step, b[i].step);
        QCOMPARE(a[i].split, b[i].split);
        QCOMPARE(a[i].name, b[i].name);
        QCOMPARE(a[i].value, b[i].value);
    }
}

std::vector<std::int64_t> idsOf(const std::vector<RunRecord>& runs)
{
    std::vector<std::int64_t> ids;
    for (const auto& r : runs)
        ids.push_back(r.id);
    return ids;
}

void expectError(const std::function<void()>& action, const std::string& path, const QString& words)
{
    try {
        action();
        QFAIL("expected an error");
    } catch (const std::runtime_error& e) {
        const QString message = QString::fromUtf8(e.what());
        QVERIFY2(message.contains(QString::fromStdString(path)), qPrintable(message));
        QVERIFY2(message.contains(words), qPrintable(message));
    }
}

// Two stores with runs that use every part of the schema: metrics, attention, tags, notes, environment,
// characteristics, checkpoints, a classification and a regression summary.
std::vector<std::int64_t> fillStore(RunStore& store)
{
    std::vector<std::int64_t> ids;
    {
        const auto id = store.beginRun(infoFor("sst-binary", "ssan", "rpr", 1));
        store.appendMetrics(id, {{10, "train", "loss", 0.6931471805599453}, {20, "train", "loss", 0.5},
                                 {20, "dev", "accuracy", 0.8125}});
        store.appendAttention(id, AttentionSnapshot{20, {"not", "good"}, {{0, 0, 2, {0.1f, 0.9f, 0.3f, 0.7f}}}});
        store.setTags(id, {"baseline", "thesis 5.3"});
        store.setNotes(id, "said \"fine\", then\nstopped");
        store.setEnvironment(id, R"({"dataset_files":{"train.txt":"ab12"},"embeddings_sha256":"cd34"})");
        store.appendCharacteristics(id, {{"params", 465605, ""}, {"peak_memory", 381.5, "MB"}});
        store.addCheckpoint(id, 20, "/tmp/run1-step20.pt", "ef56");
        RunSummary s = completed(0.8375, 0.8125);
        s.testMacroF1 = 0.83;
        s.testConfusion = {{40, 10}, {3, 47}};
        store.finishRun(id, s);
        ids.push_back(id);
    }
    {
        const auto id = store.beginRun(infoFor("sml2010", "essan", "rpr", 2));
        store.appendMetrics(id, {{5, "train", "loss", 0.25}, {5, "dev", "rmse", 0.125}});
        RunSummary s;
        s.status = RunStatus::Completed;
        s.regression = true;
        s.steps = 5;
        s.bestDevRmse = 0.125;
        s.testRmse = 0.1875;
        s.testMae = 0.15;
        s.testMape = 1.5;
        s.stoppedEarly = true;
        store.finishRun(id, s);
        ids.push_back(id);
    }
    return ids;
}

} // namespace

class TestStore : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void runReadBackEqualsWhatWasWritten()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("runs.sqlite").toStdString();
        std::int64_t id = 0;
        AttentionSnapshot snapshot{50, {"not", "good"}, {{0, 0, 2, {0.25f, 0.75f, 1.0f, 0.0f}}}};
        {
            RunStore store(path);
            StoreObserver observer(store);
            observer.onStarted(sampleInfo());
            id = observer.runId();
            observer.onMetric({10, "train", "loss", 1.25});
            observer.onMetric({50, "dev", "accuracy", 0.875});
            observer.onAttention(snapshot);
            RunSummary summary;
            summary.status = RunStatus::Completed;
            summary.steps = 123;
            summary.seconds = 4.5;
            summary.bestDevAccuracy = 0.875;
            summary.bestStep = 50;
            summary.testAccuracy = 0.8125;
            summary.parameters = 465605;
            summary.device = "cpu (2 threads)";
            observer.onFinished(summary);
        }
        RunStore store(path); // a fresh connection reads what the first wrote
        const auto run = store.run(id);
        QVERIFY(run.has_value());
        QCOMPARE(QString::fromStdString(toString(run->status)), QString("completed"));
        QCOMPARE(run->model, std::string("ssan"));
        QCOMPARE(run->position, std::string("rpr"));
        QCOMPARE(run->seed, 42ULL);
        QCOMPARE(run->steps, 123);
        QCOMPARE(run->seconds, 4.5);
        QCOMPARE(run->bestDevAccuracy, 0.875);
        QCOMPARE(run->bestStep, 50);
        QCOMPARE(run->testAccuracy, 0.8125);
        QCOMPARE(run->parameters, 465605LL);
        QCOMPARE(run->device, std::string("cpu (2 threads)"));
        QCOMPARE(run->torchVersion, std::string("1.13.1"));
        QVERIFY(!run->appVersion.empty());
        QVERIFY(!run->finishedAt.empty());
        QCOMPARE(TrainConfig::fromJson(run->configJson).toJson(), sampleInfo().config.toJson());
        // Schema 2: a 128-bit hex uuid, the group key (config without the seed and where checkpoints go),
        // environment, summary.
        QCOMPARE(run->uuid.size(), std::size_t(32));
        QVERIFY(std::all_of(run->uuid.begin(), run->uuid.end(), [](char c) { return std::isxdigit(c) && !std::isupper(c); }));
        json config = json::parse(run->configJson);
        config.erase("seed");
        QVERIFY(config.contains("checkpoint_dir"));
        config.erase("checkpoint_dir");
        QCOMPARE(run->groupKey, config.dump());
        const json environment = json::parse(run->environmentJson);
        QCOMPARE(environment.at("torch_version").get<std::string>(), std::string("1.13.1"));
        QCOMPARE(environment.at("device").get<std::string>(), std::string("cpu (2 threads)"));
        QCOMPARE(environment.at("app_version").get<std::string>(), run->appVersion);
        QCOMPARE(environment.at("dataset").get<std::string>(), std::string("synthetic-sentiment"));
        QVERIFY(environment.contains("cpu_model") && environment.contains("host") && environment.contains("git_hash"));
        QCOMPARE(RunSummary::fromJson(run->summaryJson).toJson(), RunSummary::fromJson(summaryOf(0.8125)).toJson());
        QVERIFY(run->tags.empty());
        QCOMPARE(run->notes, std::string());

        const auto metrics = store.metrics(id);
        QCOMPARE(metrics.size(), std::size_t(2));
        QCOMPARE(metrics[0].name, std::string("loss"));
        QCOMPARE(metrics[0].value, 1.25);
        QCOMPARE(metrics[1].split, std::string("dev"));
        QCOMPARE(metrics[1].step, 50);
        const auto attention = store.latestAttention(id);
        QVERIFY(attention.has_value());
        QCOMPARE(attention->tokens, snapshot.tokens);
        QCOMPARE(attention->maps[0].weights, snapshot.maps[0].weights);
        QCOMPARE(store.listRuns().size(), std::size_t(1));
    }

    void summaryJsonKeepsEveryField()
    {
        RunSummary s;
        s.status = RunStatus::Diverged;
        s.steps = 77;
        s.seconds = 12.25;
        s.bestDevAccuracy = 0.5;
        s.bestStep = 70;
        s.testAccuracy = 0.4375;
        s.regression = true;
        s.bestDevRmse = 0.1;
        s.testMae = 0.2;
        s.testRmse = 0.3;
        s.testMape = 4.5;
        s.testMacroF1 = 0.41;
        s.testConfusion = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
        s.stoppedEarly = true;
        s.parameters = 906060;
        s.device = "cuda:0 NVIDIA H100";
        s.message = "loss became NaN at step 77";
        const RunSummary r = RunSummary::fromJson(s.toJson());
        QCOMPARE(toString(r.status), std::string("diverged"));
        QCOMPARE(r.steps, 77);
        QCOMPARE(r.seconds, 12.25);
        QCOMPARE(r.bestDevAccuracy, 0.5);
        QCOMPARE(r.bestStep, 70);
        QCOMPARE(r.testAccuracy, 0.4375);
        QCOMPARE(r.regression, true);
        QCOMPARE(r.bestDevRmse, 0.1);
        QCOMPARE(r.testMae, 0.2);
        QCOMPARE(r.testRmse, 0.3);
        QCOMPARE(r.testMape, 4.5);
        QCOMPARE(r.testMacroF1, 0.41);
        QCOMPARE(r.testConfusion, s.testConfusion);
        QCOMPARE(r.stoppedEarly, true);
        QCOMPARE(r.parameters, 906060LL);
        QCOMPARE(r.device, s.device);
        QCOMPARE(r.message, s.message);
        // Missing keys are defaults (an older summary); bad JSON is an error.
        QCOMPARE(RunSummary::fromJson("{\"steps\": 3}").steps, 3);
        QCOMPARE(RunSummary::fromJson("{\"steps\": 3}").testConfusion.size(), std::size_t(0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, RunSummary::fromJson("{steps"));

        // The store keeps it whole, and the record carries the regression fields.
        QTemporaryDir dir;
        RunStore store(dir.filePath("runs.sqlite").toStdString());
        const auto id = store.beginRun(sampleInfo());
        store.finishRun(id, s);
        const auto run = store.run(id);
        QCOMPARE(run->summaryJson, s.toJson());
        QCOMPARE(run->regression, true);
        QCOMPARE(run->testRmse, 0.3);
        QCOMPARE(run->testMae, 0.2);
        QCOMPARE(run->testMape, 4.5);
        QCOMPARE(run->bestDevRmse, 0.1);
        QCOMPARE(run->testMacroF1, 0.41);
        QCOMPARE(run->stoppedEarly, true);
    }

    void version1FileIsMigratedToVersion2()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("v1.sqlite").toStdString();
        const std::string copyPath = dir.filePath("v1-copy.sqlite").toStdString();
        writeVersion1File(path);
        writeVersion1File(copyPath);
        QCOMPARE(RawDb(path).scalar("PRAGMA user_version"), std::string("1"));

        std::string uuid;
        {
            RunStore store(path);
            QCOMPARE(RawDb(path).scalar("PRAGMA user_version"), std::string("2"));
            const auto runs = store.listRuns();
            QCOMPARE(runs.size(), std::size_t(1));
            const RunRecord& r = runs[0];
            // The old run is intact ...
            QCOMPARE(r.id, 1LL);
            QCOMPARE(r.name, std::string("ssan+rpr on sst-binary"));
            QCOMPARE(toString(r.status), std::string("completed"));
            QCOMPARE(r.startedAt, std::string("2024-01-02T03:04:05Z"));
            QCOMPARE(r.seed, 7ULL);
            QCOMPARE(r.steps, 300);
            QCOMPARE(r.seconds, 600.5);
            QCOMPARE(r.bestDevAccuracy, 0.845);
            QCOMPARE(r.bestStep, 250);
            QCOMPARE(r.testAccuracy, 0.8375);
            QCOMPARE(r.parameters, 465605LL);
            QCOMPARE(r.host, std::string("oldhost"));
            compareMetrics(store.metrics(1), {{10, "train", "loss", 0.69}, {20, "train", "loss", 0.5},
                                              {20, "dev", "accuracy", 0.8}});
            QCOMPARE(store.latestAttention(1)->tokens, (std::vector<std::string>{"a", "b"}));
            // ... and its new columns are filled from what it had.
            QCOMPARE(r.uuid.size(), std::size_t(32));
            uuid = r.uuid;
            QCOMPARE(r.groupKey, std::string(R"({"dataset":"sst-binary","model":"ssan","steps":300})"));
            const RunSummary summary = RunSummary::fromJson(r.summaryJson);
            QCOMPARE(summary.testAccuracy, 0.8375);
            QCOMPARE(summary.bestDevAccuracy, 0.845);
            QCOMPARE(summary.steps, 300);
            QCOMPARE(json::parse(r.environmentJson).at("git_hash").get<std::string>(), std::string("abc123"));
            QVERIFY(r.tags.empty());

            // The new columns and tables are usable on the old run.
            store.setTags(1, {"from v1"});
            store.setNotes(1, "migrated");
            store.appendCharacteristics(1, {{"train_seconds", 600.5, "s"}});
            store.addCheckpoint(1, 250, "best.pt", "00ff");
            const auto again = store.run(1);
            QCOMPARE(again->tags, (std::vector<std::string>{"from v1"}));
            QCOMPARE(again->notes, std::string("migrated"));
            QCOMPARE(store.characteristics(1).at(0).value, 600.5);
            QCOMPARE(store.checkpoints(1).at(0).path, std::string("best.pt"));
            // A new run goes after it.
            QCOMPARE(store.beginRun(sampleInfo()), 2LL);
        }
        {
            RunStore reopened(path); // migrating is done once
            QCOMPARE(reopened.run(1)->uuid, uuid);
            QCOMPARE(reopened.listRuns().size(), std::size_t(2));
        }
        // Two copies of one v1 file migrate to the same uuids, so merging them adds nothing twice.
        RunStore copy(copyPath);
        QCOMPARE(copy.run(1)->uuid, uuid);
        RunStore merged(path);
        const auto result = RunExport(merged).importFrom(copyPath);
        QCOMPARE(result.added, 0);
        QCOMPARE(result.skipped, 1);
    }

    void newerSchemaAndForeignDatabasesAreRefused()
    {
        QTemporaryDir dir;
        const std::string newer = dir.filePath("newer.sqlite").toStdString();
        RawDb(newer).exec("PRAGMA user_version = 3");
        expectError([&] { RunStore store(newer); }, newer, "newer Attention Lab");

        const std::string foreign = dir.filePath("foreign.sqlite").toStdString();
        RawDb(foreign).exec("CREATE TABLE invoices (id INTEGER)");
        expectError([&] { RunStore store(foreign); }, foreign, "not an Attention Lab run database");
        QCOMPARE(RawDb(foreign).scalar("SELECT COUNT(*) FROM sqlite_master"), std::string("1")); // untouched
    }

    void tagsNotesEnvironmentCharacteristicsAndCheckpoints()
    {
        QTemporaryDir dir;
        RunStore store(dir.filePath("runs.sqlite").toStdString());
        const auto id = store.beginRun(sampleInfo());
        store.setTags(id, {"baseline", "thesis 5.3"});
        store.setNotes(id, "first try");
        store.setEnvironment(id, R"({"dataset_files":{"train.txt":"ab12","dev.txt":"cd34"},"embeddings_sha256":"ef56"})");
        store.setEnvironment(id, R"({"device":"cuda:0 NVIDIA H100"})"); // a later call adds and replaces keys
        store.appendCharacteristics(id, {{"params", 465605, ""}, {"peak_memory", 381.25, "MB"}});
        store.appendCharacteristics(id, {{"train_seconds", 64.5, "s"}, {"predict_seconds", 8.75, "s"}});
        store.addCheckpoint(id, 200, "/runs/1/step200.pt", "aa");
        store.addCheckpoint(id, 100, "/runs/1/step100.pt", "bb");

        const auto run = store.run(id);
        QCOMPARE(run->tags, (std::vector<std::string>{"baseline", "thesis 5.3"}));
        QCOMPARE(run->notes, std::string("first try"));
        const json environment = json::parse(run->environmentJson);
        QCOMPARE(environment.at("dataset_files").at("dev.txt").get<std::string>(), std::string("cd34"));
        QCOMPARE(environment.at("embeddings_sha256").get<std::string>(), std::string("ef56"));
        QCOMPARE(environment.at("device").get<std::string>(), std::string("cuda:0 NVIDIA H100"));
        QCOMPARE(environment.at("torch_version").get<std::string>(), std::string("1.13.1")); // kept
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, store.setEnvironment(id, "[1, 2]"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, store.setEnvironment(id, "{oops"));

        const auto values = store.characteristics(id);
        QCOMPARE(values.size(), std::size_t(4));
        QCOMPARE(values[0].name, std::string("params"));
        QCOMPARE(values[0].value, 465605.0);
        QCOMPARE(values[1].value, 381.25);
        QCOMPARE(values[1].unit, std::string("MB"));
        QCOMPARE(values[3].name, std::string("predict_seconds"));
        QCOMPARE(values[3].value, 8.75);
        const auto checkpoints = store.checkpoints(id);
        QCOMPARE(checkpoints.size(), std::size_t(2));
        QCOMPARE(checkpoints[0].step, 100); // by step
        QCOMPARE(checkpoints[0].sha256, std::string("bb"));
        QCOMPARE(checkpoints[1].path, std::string("/runs/1/step200.pt"));
    }

    void listRunsFiltersAndSorts()
    {
        QTemporaryDir dir;
        RunStore store(dir.filePath("runs.sqlite").toStdString());
        const auto a = store.beginRun(infoFor("sst-binary", "ssan", "rpr", 1));
        const auto b = store.beginRun(infoFor("sst-binary", "ssan", "none", 1));
        const auto c = store.beginRun(infoFor("sst-fine", "lstm", "none", 1));
        const auto d = store.beginRun(infoFor("sst-binary", "transformer", "rpr", 1));
        store.finishRun(a, completed(0.80, 0.82));
        store.finishRun(b, completed(0.70, 0.90));
        store.finishRun(c, completed(0.45, 0.40));
        store.setTags(a, {"thesis", "quick"});
        store.setTags(c, {"thesis"});
        store.setNotes(b, "Uses GloVe vectors");

        using V = std::vector<std::int64_t>;
        QCOMPARE(idsOf(store.listRuns()), (V{d, c, b, a})); // newest first, as before
        RunFilter f;
        f.dataset = "sst-binary";
        QCOMPARE(idsOf(store.listRuns(f)), (V{d, b, a}));
        f.position = "rpr";
        QCOMPARE(idsOf(store.listRuns(f)), (V{d, a}));
        f = {};
        f.model = "lstm";
        QCOMPARE(idsOf(store.listRuns(f)), (V{c}));
        f = {};
        f.status = "running";
        QCOMPARE(idsOf(store.listRuns(f)), (V{d}));
        f = {};
        f.tag = "thesis";
        QCOMPARE(idsOf(store.listRuns(f)), (V{c, a}));
        f.tag = "quick";
        QCOMPARE(idsOf(store.listRuns(f)), (V{a}));
        f.tag = "thes"; // whole tags only
        QCOMPARE(idsOf(store.listRuns(f)), (V{}));
        f = {};
        f.text = "glove"; // notes, any case
        QCOMPARE(idsOf(store.listRuns(f)), (V{b}));
        f.text = "TRANSFORMER"; // name
        QCOMPARE(idsOf(store.listRuns(f)), (V{d}));

        f = {};
        f.sortBy = RunFilter::SortBy::TestAccuracy;
        QCOMPARE(idsOf(store.listRuns(f)), (V{a, b, c, d})); // 0.80, 0.70, 0.45, running (0)
        f.descending = false;
        QCOMPARE(idsOf(store.listRuns(f)), (V{d, c, b, a}));
        f.sortBy = RunFilter::SortBy::BestDev;
        f.descending = true;
        QCOMPARE(idsOf(store.listRuns(f)), (V{b, a, c, d})); // 0.90, 0.82, 0.40, 0
        f.limit = 2;
        QCOMPARE(idsOf(store.listRuns(f)), (V{b, a}));
        f = {};
        f.sortBy = RunFilter::SortBy::Name;
        f.descending = false;
        // "lstm on sst-fine" < "ssan on sst-binary" < "ssan+rpr on sst-binary" < "transformer+rpr on ..."
        QCOMPARE(idsOf(store.listRuns(f)), (V{c, b, a, d}));
        f.sortBy = RunFilter::SortBy::Started;
        QCOMPARE(idsOf(store.listRuns(f)), (V{a, b, c, d}));
    }

    void metricSeriesSelectsOneCurve()
    {
        QTemporaryDir dir;
        RunStore store(dir.filePath("runs.sqlite").toStdString());
        const auto id = store.beginRun(sampleInfo());
        const auto other = store.beginRun(sampleInfo());
        store.appendMetrics(id, {{20, "train", "loss", 0.5}, {10, "train", "loss", 0.75}, {20, "dev", "loss", 0.6},
                                 {20, "train", "accuracy", 0.7}});
        store.appendMetrics(other, {{10, "train", "loss", 9.0}});
        const auto series = store.metricSeries(id, "train", "loss");
        QCOMPARE(series, (std::vector<std::pair<int, double>>{{10, 0.75}, {20, 0.5}}));
        QCOMPARE(store.metricSeries(id, "dev", "loss"), (std::vector<std::pair<int, double>>{{20, 0.6}}));
        QVERIFY(store.metricSeries(id, "test", "loss").empty());
    }

    void aggregatesGroupRepeatsOfAConfiguration()
    {
        QTemporaryDir dir;
        RunStore store(dir.filePath("runs.sqlite").toStdString());
        // Three completed repeats of one configuration (seeds differ), and one that failed.
        const double accuracies[] = {0.5, 0.6, 0.7}, devs[] = {0.55, 0.65, 0.8};
        for (int i = 0; i < 3; ++i)
            store.finishRun(store.beginRun(infoFor("sst-binary", "ssan", "rpr", 10 + i)), completed(accuracies[i], devs[i]));
        RunSummary failed;
        failed.status = RunStatus::Failed;
        failed.testAccuracy = 0.1;
        store.finishRun(store.beginRun(infoFor("sst-binary", "ssan", "rpr", 99)), failed);
        // A regression configuration: test RMSE 1, 2, 4.
        const double rmses[] = {1.0, 2.0, 4.0}, devRmses[] = {0.5, 1.0, 1.5};
        for (int i = 0; i < 3; ++i) {
            RunSummary s;
            s.status = RunStatus::Completed;
            s.regression = true;
            s.testRmse = rmses[i];
            s.bestDevRmse = devRmses[i];
            store.finishRun(store.beginRun(infoFor("sml2010", "essan", "rpr", i)), s);
        }
        // A single run of another configuration.
        store.finishRun(store.beginRun(infoFor("sst-binary", "lstm", "none", 1)), completed(0.75, 0.7));

        const auto groups = store.aggregates();
        QCOMPARE(groups.size(), std::size_t(3)); // ordered by dataset, model, position
        const RunAggregate& essan = groups[0];
        QCOMPARE(essan.dataset, std::string("sml2010"));
        QCOMPARE(essan.runs, 3);
        QCOMPARE(essan.completed, 3);
        QVERIFY(essan.regression);
        QVERIFY(std::abs(essan.testRmseMean - 7.0 / 3.0) < 1e-12);
        QVERIFY(std::abs(essan.testRmseStd - std::sqrt(7.0 / 3.0)) < 1e-12); // deviations -4/3, -1/3, 5/3
        QVERIFY(std::abs(essan.bestDevMean - 1.0) < 1e-12);

        const RunAggregate& lstm = groups[1];
        QCOMPARE(lstm.model, std::string("lstm"));
        QCOMPARE(lstm.completed, 1);
        QCOMPARE(lstm.testAccuracyMean, 0.75);
        QCOMPARE(lstm.testAccuracyStd, 0.0);

        const RunAggregate& ssan = groups[2];
        QCOMPARE(ssan.model, std::string("ssan"));
        QCOMPARE(ssan.position, std::string("rpr"));
        QCOMPARE(ssan.runs, 4);
        QCOMPARE(ssan.completed, 3); // the failed run is counted, not averaged
        QVERIFY(!ssan.regression);
        QVERIFY(std::abs(ssan.testAccuracyMean - 0.6) < 1e-12);
        QVERIFY(std::abs(ssan.testAccuracyStd - 0.1) < 1e-12);
        QVERIFY(std::abs(ssan.bestDevMean - 2.0 / 3.0) < 1e-12);
        QCOMPARE(ssan.groupKey, store.listRuns(RunFilter{"sst-binary", "ssan"}).front().groupKey);
    }

    void exportedJsonImportsIntoAnEmptyStoreUnchanged()
    {
        QTemporaryDir dir;
        RunStore source(dir.filePath("source.sqlite").toStdString());
        const auto ids = fillStore(source);
        const std::string exported = dir.filePath("runs.json").toStdString();
        RunExport(source).exportJson(exported);
        const json document = json::parse(fileContent(exported));
        QCOMPARE(document.at("format").get<std::string>(), std::string("attnlab-runs"));
        QCOMPARE(document.at("runs").size(), std::size_t(2));
        QCOMPARE(document.at("runs")[0].at("metrics").size(), std::size_t(3));

        RunStore target(dir.filePath("target.sqlite").toStdString());
        const auto first = RunExport(target).importFrom(exported);
        QCOMPARE(first.added, 2);
        QCOMPARE(first.skipped, 0);
        RunFilter oldestFirst;
        oldestFirst.descending = false;
        const auto imported = target.listRuns(oldestFirst);
        QCOMPARE(imported.size(), std::size_t(2));
        for (std::size_t i = 0; i < ids.size(); ++i) {
            const RunBundle a = source.bundle(ids[i]), b = target.bundle(imported[i].id);
            compareRecords(a.record, b.record);
            compareMetrics(a.metrics, b.metrics);
            QCOMPARE(a.attentionJson, b.attentionJson);
            QCOMPARE(a.characteristics.size(), b.characteristics.size());
            for (std::size_t k = 0; k < a.characteristics.size(); ++k) {
                QCOMPARE(a.characteristics[k].name, b.characteristics[k].name);
                QCOMPARE(a.characteristics[k].value, b.characteristics[k].value);
                QCOMPARE(a.characteristics[k].unit, b.characteristics[k].unit);
            }
            QCOMPARE(a.checkpoints.size(), b.checkpoints.size());
            for (std::size_t k = 0; k < a.checkpoints.size(); ++k) {
                QCOMPARE(a.checkpoints[k].step, b.checkpoints[k].step);
                QCOMPARE(a.checkpoints[k].path, b.checkpoints[k].path);
                QCOMPARE(a.checkpoints[k].sha256, b.checkpoints[k].sha256);
            }
        }
        QCOMPARE(target.latestAttention(imported[0].id)->maps[0].weights, (std::vector<float>{0.1f, 0.9f, 0.3f, 0.7f}));
        QCOMPARE(RunSummary::fromJson(imported[0].summaryJson).testConfusion,
                 (std::vector<std::vector<std::int64_t>>{{40, 10}, {3, 47}}));

        // Importing the same runs again adds nothing.
        const auto second = RunExport(target).importFrom(exported);
        QCOMPARE(second.added, 0);
        QCOMPARE(second.skipped, 2);
        QCOMPARE(target.listRuns().size(), std::size_t(2));
        // Only some runs; a run still running arrives as interrupted, since nothing will finish it here.
        const auto running = source.beginRun(sampleInfo());
        RunExport(source).exportJson(exported, {running});
        QCOMPARE(json::parse(fileContent(exported)).at("runs").size(), std::size_t(1));
        QCOMPARE(RunExport(target).importFrom(exported).added, 1);
        QCOMPARE(toString(target.listRuns().front().status), std::string("interrupted"));
    }

    void anotherDatabaseIsMergedAndLeftUnchanged()
    {
        QTemporaryDir dir;
        const std::string otherPath = dir.filePath("laptop.sqlite").toStdString();
        std::vector<std::int64_t> otherIds;
        {
            RunStore other(otherPath);
            otherIds = fillStore(other);
        }
        const std::string before = fileContent(otherPath);
        RunStore mine(dir.filePath("mine.sqlite").toStdString());
        const auto own = mine.beginRun(infoFor("sst-fine", "cnn", "none", 3));
        mine.finishRun(own, completed(0.45, 0.46));

        const auto first = RunExport(mine).importFrom(otherPath);
        QCOMPARE(first.added, 2);
        QCOMPARE(first.skipped, 0);
        QCOMPARE(mine.listRuns().size(), std::size_t(3));
        const auto second = RunExport(mine).importFrom(otherPath);
        QCOMPARE(second.added, 0);
        QCOMPARE(second.skipped, 2);
        QCOMPARE(fileContent(otherPath), before); // the other store was only read

        RunStore other(otherPath);
        RunFilter oldestFirst;
        oldestFirst.descending = false;
        const auto merged = mine.listRuns(oldestFirst);
        QCOMPARE(merged[0].id, own);
        for (std::size_t i = 0; i < otherIds.size(); ++i) {
            compareRecords(other.run(otherIds[i]).value(), merged[i + 1]);
            compareMetrics(other.metrics(otherIds[i]), mine.metrics(merged[i + 1].id));
            QCOMPARE(mine.characteristics(merged[i + 1].id).size(), other.characteristics(otherIds[i]).size());
        }
        QCOMPARE(merged[1].id, own + 1); // new ids here

        const std::string garbage = dir.filePath("garbage.bin").toStdString();
        std::ofstream(garbage) << "neither a database nor JSON";
        expectError([&] { RunExport(mine).importFrom(garbage); }, garbage, "neither");
        QCOMPARE(mine.listRuns().size(), std::size_t(3));
    }

    void csvHasOneQuotedRowPerRun()
    {
        QTemporaryDir dir;
        RunStore store(dir.filePath("runs.sqlite").toStdString());
        const auto ids = fillStore(store);
        const std::string path = dir.filePath("runs.csv").toStdString();
        RunExport(store).exportCsv(path);
        const std::string csv = fileContent(path);
        const std::string header =
            "id,uuid,name,status,started_at,finished_at,dataset,model,position,seed,tags,notes,parameters,steps,"
            "seconds,best_dev_accuracy,best_step,test_accuracy,test_macro_f1,regression,best_dev_rmse,test_mae,"
            "test_rmse,test_mape,stopped_early,device,app_version,git_hash,torch_version,message\r\n";
        QCOMPARE(csv.substr(0, header.size()), header);
        const auto first = store.run(ids[0]).value();
        const std::string firstRow = std::to_string(first.id) + "," + first.uuid + ",ssan+rpr on sst-binary,completed," +
                                     first.startedAt + "," + first.finishedAt + ",sst-binary,ssan,rpr,1,"
                                     "baseline;thesis 5.3,\"said \"\"fine\"\", then\nstopped\",465605,100,2.5,0.8125,50,"
                                     "0.8375,0.83,false,0,0,0,0,false,cpu (2 threads)," +
                                     first.appVersion + "," + first.gitHash + ",1.13.1,\r\n";
        QCOMPARE(csv.substr(header.size(), firstRow.size()), firstRow);
        const auto second = store.run(ids[1]).value();
        QVERIFY(csv.find("," + second.uuid + ",essan+rpr on sml2010,completed,") != std::string::npos);
        QVERIFY(csv.find(",true,0.125,0.15,0.1875,1.5,true,") != std::string::npos);
        QCOMPARE(std::count(csv.begin(), csv.end(), '\n'), 4L); // header, two rows, one line break in a note
    }

    void writerStoresMetricsWithinASecondWithoutAFlush()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("runs.sqlite").toStdString();
        RunStore store(path);
        StoreObserver observer(store);
        observer.onStarted(sampleInfo());
        RunStore reader(path);
        for (int round = 1; round <= 2; ++round) {
            observer.onMetric({round * 10, "train", "loss", 0.5});
            QElapsedTimer timer;
            timer.start();
            while (reader.metrics(observer.runId()).size() < std::size_t(round) && timer.elapsed() < 5000)
                QTest::qWait(20);
            QCOMPARE(reader.metrics(observer.runId()).size(), std::size_t(round));
            QVERIFY2(timer.elapsed() < 1500, qPrintable(QString("stored after %1 ms").arg(timer.elapsed())));
        }
    }

    void observerDoesNotBlockTrainingWhileTheDatabaseIsLocked()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("runs.sqlite").toStdString();
        RunStore store(path);
        StoreObserver observer(store);
        observer.onStarted(sampleInfo());
        RawDb other(path);
        other.exec("BEGIN EXCLUSIVE"); // another process writing; RunStore waits up to 5 s for it
        QElapsedTimer timer;
        timer.start();
        for (int step = 1; step <= 2000; ++step)
            observer.onMetric({step, step % 100 == 0 ? "dev" : "train", "loss", 1.0 / step});
        const qint64 queueing = timer.elapsed();
        QVERIFY2(queueing < 500, qPrintable(QString("2000 metrics took %1 ms to queue").arg(queueing)));
        QTest::qWait(300);
        other.exec("COMMIT");
        RunSummary summary = completed(0.5, 0.5);
        observer.onFinished(summary); // waits for the writer
        QCOMPARE(store.metrics(observer.runId()).size(), std::size_t(2000));
        QCOMPARE(store.metrics(observer.runId()).back().value, 1.0 / 2000);
        QCOMPARE(toString(store.run(observer.runId())->status), std::string("completed"));
    }

    void oneObserverStoresRepeatsAsSeparateRuns()
    {
        QTemporaryDir dir;
        RunStore store(dir.filePath("runs.sqlite").toStdString());
        StoreObserver observer(store);
        std::vector<std::int64_t> ids;
        for (int repeat = 0; repeat < 3; ++repeat) {
            observer.onStarted(infoFor("sst-binary", "ssan", "rpr", static_cast<std::uint64_t>(repeat)));
            ids.push_back(observer.runId());
            for (int step = 1; step <= repeat + 1; ++step)
                observer.onMetric({step, "train", "loss", static_cast<double>(repeat)});
            observer.onFinished(completed(0.5 + 0.1 * repeat, 0.5));
        }
        QCOMPARE(ids, (std::vector<std::int64_t>{1, 2, 3}));
        for (int repeat = 0; repeat < 3; ++repeat) {
            const auto metrics = store.metrics(ids[repeat]);
            QCOMPARE(metrics.size(), std::size_t(repeat + 1));
            QCOMPARE(metrics.back().value, static_cast<double>(repeat));
        }
        const auto groups = store.aggregates();
        QCOMPARE(groups.size(), std::size_t(1));
        QCOMPARE(groups[0].completed, 3);
    }

    void runOfALiveProcessIsNotMarkedInterrupted()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("runs.sqlite").toStdString();
        RunStore writer(path);
        const auto id = writer.beginRun(sampleInfo());
        RunStore reader(path); // opening marks only dead owners' runs
        QCOMPARE(QString::fromStdString(toString(reader.run(id)->status)), QString("running"));
    }

    // A real `attnlab-cli train` killed with SIGKILL at ten points of its run: each time the file passes
    // integrity_check, the run reads as interrupted, its metrics run contiguously from the start, and
    // the store was never more than about a second behind the training when the kill came. No dev
    // evaluation happens in the run, so only the writer's once-a-second commits are at work.
    void killedTrainingProcessLeavesAnInterruptedRun()
    {
        std::mt19937 random(20240607);
        std::uniform_int_distribution<int> delayMs(300, 2500);
        for (int round = 0; round < 10; ++round) {
            QTemporaryDir dir;
            const QString path = dir.filePath("runs.sqlite");
            QProcess child;
            child.start(ATTNLAB_CLI_PATH, {"train", "--dataset", "synthetic-sentiment", "--model", "ssan", "--position",
                                           "rpr", "--steps", "1000000", "--eval-every", "1000000", "--db", path,
                                           "--threads", "1"});
            QVERIFY(child.waitForStarted());
            // Watch what the child has committed: when its latest step changes, and the longest wait.
            auto committedStep = [&]() -> int {
                if (!QFile::exists(path))
                    return 0;
                RawDb db(path.toStdString(), SQLITE_OPEN_READONLY);
                return std::atoi(db.scalar("SELECT COALESCE(MAX(step), 0) FROM metrics").c_str());
            };
            QElapsedTimer timer;
            timer.start();
            int seen = 0;
            while (seen == 0 && timer.elapsed() < 60000) {
                QTest::qWait(50);
                seen = committedStep();
            }
            QVERIFY2(seen > 0, "the child never flushed a metric");
            const int delay = delayMs(random);
            QElapsedTimer sinceChange;
            sinceChange.start();
            qint64 longestWait = 0;
            const qint64 until = timer.elapsed() + delay;
            while (timer.elapsed() < until) {
                QTest::qWait(25);
                if (const int step = committedStep(); step != seen) {
                    seen = step;
                    longestWait = std::max(longestWait, sinceChange.restart());
                }
            }
            longestWait = std::max(longestWait, sinceChange.elapsed());
            ::kill(static_cast<pid_t>(child.processId()), SIGKILL);
            QVERIFY(child.waitForFinished(10000));
            QCOMPARE(child.exitStatus(), QProcess::CrashExit);

            QCOMPARE(integrityCheck(path.toStdString()), std::string("ok"));
            RunStore store(path.toStdString());
            const auto runs = store.listRuns();
            QCOMPARE(runs.size(), std::size_t(1));
            QCOMPARE(QString::fromStdString(toString(runs[0].status)), QString("interrupted"));
            const auto losses = store.metricSeries(runs[0].id, "train", "loss");
            QVERIFY(!losses.empty());
            const int every = losses[0].first; // the log interval: every, 2 every, ... with no gap
            QVERIFY(every > 0);
            for (std::size_t i = 0; i < losses.size(); ++i)
                QCOMPARE(losses[i].first, every * static_cast<int>(i + 1));
            const int last = store.metrics(runs[0].id).back().step;
            QVERIFY(last > 0);
            QVERIFY(last >= seen); // what was committed survived the kill
            QCOMPARE(runs[0].steps, last);
            qInfo("round %d: killed %d ms after the first commit at step %d; %zu train-loss points; longest wait "
                  "for a commit %lld ms", round, delay, last, losses.size(), static_cast<long long>(longestWait));
            // The commits came at least about once a second (slack for a busy 2-core machine).
            QVERIFY2(longestWait < 1800, qPrintable(QString("round %1: %2 ms without a commit before the kill")
                                                         .arg(round).arg(longestWait)));
        }
    }

    void lockedDatabaseGivesAClearError()
    {
        QTemporaryDir dir;
        // A store another process is writing to: opening works (WAL readers do not wait), writing says why not.
        const std::string path = dir.filePath("runs.sqlite").toStdString();
        { RunStore create(path); }
        {
            RawDb other(path);
            other.exec("BEGIN EXCLUSIVE");
            RunStore store(path, 200);
            expectError([&] { store.beginRun(sampleInfo()); }, path, "the database is locked by another process");
            other.exec("COMMIT");
            QCOMPARE(store.beginRun(sampleInfo()), 1LL); // and works once the lock is gone
        }
        // A file held exclusively in rollback-journal mode cannot even be opened.
        const std::string held = dir.filePath("held.sqlite").toStdString();
        RawDb other(held);
        other.exec("BEGIN EXCLUSIVE; CREATE TABLE t (x); INSERT INTO t VALUES (1);");
        QElapsedTimer timer;
        timer.start();
        expectError([&] { RunStore store(held, 200); }, held, "the database is locked by another process");
        QVERIFY(timer.elapsed() >= 150); // it waited for the busy timeout
    }

    void notADatabaseGivesAClearError()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("garbage.sqlite").toStdString();
        std::ofstream(path) << std::string(4096, 'x');
        try {
            RunStore store(path);
            QFAIL("opening garbage should throw");
        } catch (const std::runtime_error& e) {
            const QString message = QString::fromUtf8(e.what());
            QVERIFY2(message.contains(QString::fromStdString(path)), qPrintable(message));
            QVERIFY2(message.contains("not a database"), qPrintable(message));
        }
        // The file is left as it was: nothing is lost.
        std::ifstream in(path);
        std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        QCOMPARE(content, std::string(4096, 'x'));
    }

    void corruptFilesGiveAClearError()
    {
        QTemporaryDir dir;
        const std::string good = dir.filePath("good.sqlite").toStdString();
        {
            RunStore store(good);
            fillStore(store);
        } // closing the last connection checkpoints the WAL into the file
        const std::string bytes = fileContent(good);
        QVERIFY(bytes.size() > 8192);

        // Random bytes.
        const std::string random = dir.filePath("random.sqlite").toStdString();
        {
            std::mt19937 generator(7);
            std::string noise(8192, '\0');
            for (auto& ch : noise)
                ch = static_cast<char>(generator() & 0xff);
            std::ofstream(random, std::ios::binary) << noise;
        }
        expectError([&] { RunStore store(random); }, random, "not an Attention Lab run database (file is not a database)");

        // A header cut short.
        const std::string truncated = dir.filePath("truncated.sqlite").toStdString();
        std::ofstream(truncated, std::ios::binary) << bytes.substr(0, 60);
        expectDamaged(truncated); // SQLite reads it as a database whose pages are missing
        QCOMPARE(fileContent(truncated), bytes.substr(0, 60)); // left as it was

        // A valid header over damaged pages.
        const std::string damaged = dir.filePath("damaged.sqlite").toStdString();
        {
            std::string broken = bytes;
            std::fill(broken.begin() + 100, broken.begin() + 4096, '\x5a');
            std::ofstream(damaged, std::ios::binary) << broken;
        }
        expectDamaged(damaged);
    }

private:
    static void expectDamaged(const std::string& path)
    {
        try {
            RunStore store(path);
            store.listRuns();
            QFAIL("a damaged file should throw");
        } catch (const std::runtime_error& e) {
            const QString message = QString::fromUtf8(e.what());
            QVERIFY2(message.contains(QString::fromStdString(path)), qPrintable(message));
            QVERIFY2(message.contains("the run database is damaged") || message.contains("not an Attention Lab run database"),
                     qPrintable(message));
        }
    }

    static std::string summaryOf(double testAccuracy)
    {
        RunSummary summary;
        summary.status = RunStatus::Completed;
        summary.steps = 123;
        summary.seconds = 4.5;
        summary.bestDevAccuracy = 0.875;
        summary.bestStep = 50;
        summary.testAccuracy = testAccuracy;
        summary.parameters = 465605;
        summary.device = "cpu (2 threads)";
        return summary.toJson();
    }
};

QTEST_GUILESS_MAIN(TestStore)
#include "test_store.moc"
