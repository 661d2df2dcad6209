// The SQLite run store's own round trips: what is written reads back whole, tags/notes/environment/
// characteristics/checkpoints and analyses kept with a run, and the schema: migrating version-1 and
// version-2 files, refusing newer and foreign files, first opens from many threads at once.
// Queries (filters, sorting, metric series, aggregates over repeats), delete, rename: test_store_queries.
// Export/import: test_store_export. Writer thread, kills, locks, damaged files: test_store_durability.
#include "core/store/RunExport.h"
#include "core/store/RunStore.h"
#include "core/store/StoreObserver.h"
#include "tests/support/RawSqlite.h"
#include "tests/support/StoreFixtures.h"

#include <nlohmann/json.hpp>

#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>
#include <cctype>

using namespace attnlab;
using namespace attnlab::testing;
using nlohmann::json;

namespace {

// The schema version 1 exactly as the first release created it. This deliberately repeats the SQL of
// RunStoreSchema::migrateToVersion1 instead of calling it: the test must build an old file the way the
// old release did, whatever the store's code becomes.
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
            QCOMPARE(RawDb(path).scalar("PRAGMA user_version"), std::to_string(RunStore::kSchemaVersion)); // 1 -> 2 -> 3
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

    // Schema 3 makes the summary fields the run list shows into columns, filled from summary_json when a
    // version-2 file is opened, and indexes the list's order. The version-2 file is the store's own with
    // the version-3 additions taken away, which is what schema 2 was.
    void version2FileGetsSummaryColumns()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("v2.sqlite").toStdString();
        std::int64_t regression = 0, classification = 0, running = 0;
        {
            RunStore store(path);
            fillStore(store);
            classification = store.listRuns().back().id; // fillStore's first run: sst-binary, macro-F1 0.83
            regression = store.listRuns().front().id;    // its second: sml2010, RMSE 0.1875, stopped early
            running = store.beginRun(sampleInfo());
        }
        {
            RawDb raw(path);
            raw.exec("DROP INDEX runs_by_started; DROP INDEX runs_by_status;");
            for (const char* column : {"regression", "test_macro_f1", "test_rmse", "test_mae", "test_mape", "best_dev_rmse",
                                       "stopped_early"})
                raw.exec(std::string("ALTER TABLE runs DROP COLUMN ") + column);
            raw.exec("PRAGMA user_version = 2");
        }
        RunStore store(path);
        RawDb raw(path);
        QCOMPARE(raw.scalar("PRAGMA user_version"), std::to_string(RunStore::kSchemaVersion));
        auto column = [&](const char* name, std::int64_t id) {
            return raw.scalar(std::string("SELECT ") + name + " FROM runs WHERE id=" + std::to_string(id));
        };
        QCOMPARE(column("regression", regression), std::string("1"));
        QCOMPARE(std::stod(column("test_rmse", regression)), 0.1875);
        QCOMPARE(std::stod(column("test_mae", regression)), 0.15);
        QCOMPARE(std::stod(column("test_mape", regression)), 1.5);
        QCOMPARE(std::stod(column("best_dev_rmse", regression)), 0.125);
        QCOMPARE(column("stopped_early", regression), std::string("1"));
        QCOMPARE(column("regression", classification), std::string("0"));
        QCOMPARE(std::stod(column("test_macro_f1", classification)), 0.83);
        QCOMPARE(std::stod(column("test_rmse", running)), 0.0); // no summary yet: the defaults
        QCOMPARE(raw.scalar("SELECT COUNT(*) FROM sqlite_master WHERE name IN ('runs_by_started','runs_by_status')"),
                 std::string("2"));
        // The record reads the columns: the same figures without parsing the summary.
        raw.exec("UPDATE runs SET summary_json='{}' WHERE id=" + std::to_string(regression));
        const auto r = store.run(regression);
        QVERIFY(r->regression);
        QCOMPARE(r->testRmse, 0.1875);
        QCOMPARE(r->bestDevRmse, 0.125);
        QVERIFY(r->stoppedEarly);
        // A run finished after the migration writes them too.
        RunSummary s;
        s.status = RunStatus::Completed;
        s.regression = true;
        s.testRmse = 2.5;
        s.testMape = 7.25;
        store.finishRun(running, s);
        QCOMPARE(std::stod(column("test_rmse", running)), 2.5);
        QCOMPARE(std::stod(column("test_mape", running)), 7.25);
        QCOMPARE(column("regression", running), std::string("1"));
    }

    void newerSchemaAndForeignDatabasesAreRefused()
    {
        QTemporaryDir dir;
        const std::string newer = dir.filePath("newer.sqlite").toStdString();
        RawDb(newer).exec("PRAGMA user_version = " + std::to_string(RunStore::kSchemaVersion + 1));
        expectError([&] { RunStore store(newer); }, newer, "newer Attention Lab");

        const std::string foreign = dir.filePath("foreign.sqlite").toStdString();
        RawDb(foreign).exec("CREATE TABLE invoices (id INTEGER)");
        expectError([&] { RunStore store(foreign); }, foreign, "not an Attention Lab run database");
        QCOMPARE(RawDb(foreign).scalar("SELECT COUNT(*) FROM sqlite_master"), std::string("1")); // untouched
    }

    // Several processes opening a store that does not exist yet (a sweep's workers, a `runs list` beside
    // them) all migrate it: none may fail. One used to reset user_version to 1 after another had reached
    // 2, and then add schema 2's columns a second time ("duplicate column name: uuid").
    void concurrentFirstOpensAllSucceed()
    {
        QTemporaryDir dir;
        for (int round = 0; round < 10; ++round) {
            const std::string path = dir.filePath(QString("fresh-%1.sqlite").arg(round)).toStdString();
            std::atomic<int> failures{0};
            std::mutex mutex;
            std::string firstError;
            std::vector<std::thread> openers;
            for (int i = 0; i < 6; ++i)
                openers.emplace_back([&] {
                    try {
                        RunStore store(path);
                    } catch (const std::exception& e) {
                        ++failures;
                        const std::lock_guard lock(mutex);
                        if (firstError.empty())
                            firstError = e.what();
                    }
                });
            for (auto& t : openers)
                t.join();
            QVERIFY2(failures.load() == 0, firstError.c_str());
            QCOMPARE(RawDb(path).scalar("PRAGMA user_version"), std::to_string(RunStore::kSchemaVersion));
        }
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

    // Analyses kept with a run (faithfulness per split): replaced by key, listed by kind and key,
    // refused for an unknown run, carried by export and import, removed with the run.
    void analysesAreKeptWithTheRun()
    {
        QTemporaryDir dir;
        RunStore store(dir.filePath("runs.sqlite").toStdString());
        const auto id = store.beginRun(sampleInfo());
        store.putAnalysis(id, "faithfulness", "dev", R"({"examples":3})");
        store.putAnalysis(id, "faithfulness", "test", R"({"examples":4})");
        store.putAnalysis(id, "faithfulness", "dev", R"({"examples":5})"); // replaces
        QCOMPARE(store.analyses(id).size(), std::size_t(2));
        QCOMPARE(store.analysis(id, "faithfulness", "dev")->json, std::string(R"({"examples":5})"));
        QVERIFY(!store.analysis(id, "faithfulness", "train").has_value());
        QVERIFY(!store.analysis(id, "faithfulness", "dev")->createdAt.empty());
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, store.putAnalysis(id + 7, "faithfulness", "dev", "{}"));

        RunStore other(dir.filePath("other.sqlite").toStdString());
        const auto copy = other.importRun(store.bundle(id));
        QCOMPARE(other.analysis(copy, "faithfulness", "test")->json, std::string(R"({"examples":4})"));
        QCOMPARE(other.analysis(copy, "faithfulness", "test")->createdAt, store.analysis(id, "faithfulness", "test")->createdAt);

        RunSummary done;
        done.status = RunStatus::Completed;
        store.finishRun(id, done);
        const auto removed = store.deleteRuns({id});
        QCOMPARE(removed.analyses, 2);
        QVERIFY(store.analyses(id).empty());
    }

private:
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
