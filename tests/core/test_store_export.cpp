// Moving runs between stores: an exported JSON document imports into an empty store unchanged, another
// store's .sqlite file merges without being written to, re-importing adds nothing, and the CSV export
// has one quoted RFC 4180 row per run.
#include "core/store/RunExport.h"
#include "core/store/RunStore.h"
#include "tests/support/StoreFixtures.h"

#include <nlohmann/json.hpp>

#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <algorithm>
#include <fstream>

using namespace attnlab;
using namespace attnlab::testing;
using nlohmann::json;

class TestStoreExport : public QObject {
    Q_OBJECT
private Q_SLOTS:
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
        // By id, the order they were added here: listing by start time put the imported runs first whenever filling
        // the other store and starting this one's run crossed a second (the times are to the second; once under ASan).
        auto merged = mine.listRuns();
        std::sort(merged.begin(), merged.end(), [](const RunRecord& a, const RunRecord& b) { return a.id < b.id; });
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
};

QTEST_GUILESS_MAIN(TestStoreExport)
#include "test_store_export.moc"
