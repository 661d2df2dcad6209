// The run store's queries and edits over many runs: the list filtered (dataset, model, position, status,
// tag, text) and sorted, one metric's series, aggregates over the repeats of a configuration, deleting runs
// with their rows and checkpoint files, renaming and tagging several runs at once.
// Round trips and the schema: test_store.
#include "core/store/RunStore.h"
#include "tests/support/RawSqlite.h"
#include "tests/support/StoreFixtures.h"

#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <cmath>
#include <fstream>

using namespace attnlab;
using namespace attnlab::testing;

namespace {

std::vector<std::int64_t> idsOf(const std::vector<RunRecord>& runs)
{
    std::vector<std::int64_t> ids;
    for (const auto& r : runs)
        ids.push_back(r.id);
    return ids;
}

} // namespace

class TestStoreQueries : public QObject {
    Q_OBJECT
private Q_SLOTS:
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

        // From the listed runs (what the window does, without a second query): the same groups and figures.
        const auto fromList = RunStore::aggregatesOf(store.listRuns());
        QCOMPARE(fromList.size(), groups.size());
        for (std::size_t i = 0; i < groups.size(); ++i) {
            QCOMPARE(fromList[i].groupKey, groups[i].groupKey);
            QCOMPARE(fromList[i].runs, groups[i].runs);
            QCOMPARE(fromList[i].completed, groups[i].completed);
            QCOMPARE(fromList[i].regression, groups[i].regression);
            QCOMPARE(fromList[i].testAccuracyMean, groups[i].testAccuracyMean);
            QCOMPARE(fromList[i].testAccuracyStd, groups[i].testAccuracyStd);
            QCOMPARE(fromList[i].testRmseMean, groups[i].testRmseMean);
            QCOMPARE(fromList[i].testRmseStd, groups[i].testRmseStd);
            QCOMPARE(fromList[i].bestDevMean, groups[i].bestDevMean);
        }
    }

    // A delete removes the runs' rows in every table and the checkpoint files recorded for them; the other
    // runs, their rows and their files stay.
    void deleteRemovesRowsAndCheckpointFiles()
    {
        QTemporaryDir dir;
        const std::string db = dir.filePath("runs.sqlite").toStdString();
        RunStore store(db);
        auto writeFile = [&](const char* name) {
            const std::string file = dir.filePath(name).toStdString();
            std::ofstream(file) << "weights";
            return file;
        };
        std::vector<std::int64_t> ids;
        std::vector<std::string> files;
        for (int i = 0; i < 3; ++i) {
            const auto id = store.beginRun(infoFor("sst-binary", "ssan", "rpr", static_cast<std::uint64_t>(i)));
            store.appendMetrics(id, {{10, "train", "loss", 0.5 + i}, {10, "dev", "accuracy", 0.5}, {20, "train", "loss", 0.25}});
            store.appendAttention(id, AttentionSnapshot{10, {"a", "b"}, {{0, 0, 2, {0.5f, 0.5f, 0.5f, 0.5f}}}});
            store.appendCharacteristics(id, {{"params", 100.0 + i, ""}});
            files.push_back(writeFile(("run" + std::to_string(i) + "-a.pt").c_str()));
            store.addCheckpoint(id, 10, files.back(), "aa");
            store.finishRun(id, completed(0.5, 0.5));
            ids.push_back(id);
        }
        // Run 1 has a second checkpoint whose file is already gone: reported, not an error.
        const std::string missing = dir.filePath("gone.pt").toStdString();
        store.addCheckpoint(ids[1], 20, missing, "bb");
        // Run 2 shares run 0's file (an imported copy would): deleting run 0 must keep it.
        store.addCheckpoint(ids[2], 30, files[0], "aa");
        const std::string unrelated = writeFile("not-a-checkpoint.pt");

        const RunDeletion removed = store.deleteRuns({ids[0], ids[1], 999, ids[1]});
        QCOMPARE(removed.runs, (std::vector<std::int64_t>{ids[0], ids[1]}));
        QCOMPARE(removed.metrics, 6);
        QCOMPARE(removed.attention, 2);
        QCOMPARE(removed.characteristics, 2);
        QCOMPARE(removed.checkpoints, 3);
        QCOMPARE(removed.filesRemoved, (std::vector<std::string>{files[1]}));
        QCOMPARE(removed.filesNotRemoved.size(), std::size_t(1));
        QVERIFY(QString::fromStdString(removed.filesNotRemoved[0]).startsWith(QString::fromStdString(missing + ": ")));
        QVERIFY(!QFile::exists(QString::fromStdString(files[1])));
        QVERIFY(QFile::exists(QString::fromStdString(files[0]))); // run 2 still names it
        QVERIFY(QFile::exists(QString::fromStdString(files[2])));
        QVERIFY(QFile::exists(QString::fromStdString(unrelated)));

        // Underneath: no row of the deleted runs in any table, every row of the other run.
        RawDb raw(db);
        for (const char* table : {"metrics", "attention", "characteristics", "checkpoints"}) {
            const std::string where = std::string(" FROM ") + table + " WHERE run_id IN (" + std::to_string(ids[0]) +
                                      "," + std::to_string(ids[1]) + ")";
            QCOMPARE(raw.scalar("SELECT COUNT(*)" + where), std::string("0"));
        }
        QCOMPARE(raw.scalar("SELECT COUNT(*) FROM runs"), std::string("1"));
        QCOMPARE(store.listRuns().size(), std::size_t(1));
        QCOMPARE(store.listRuns().front().id, ids[2]);
        QCOMPARE(store.metrics(ids[2]).size(), std::size_t(3));
        QVERIFY(store.latestAttention(ids[2]).has_value());
        QCOMPARE(store.characteristics(ids[2]).at(0).value, 102.0);
        QCOMPARE(store.checkpoints(ids[2]).size(), std::size_t(2));
        QVERIFY(!store.run(ids[0]).has_value());

        // Deleting the last run that names the shared file removes it too; nothing left to delete is a no-op.
        const RunDeletion last = store.deleteRuns({ids[2]});
        QCOMPARE(last.filesRemoved.size(), std::size_t(2));
        QVERIFY(!QFile::exists(QString::fromStdString(files[0])));
        QVERIFY(store.listRuns().empty());
        QVERIFY(store.deleteRuns({ids[2]}).runs.empty());
        QCOMPARE(raw.scalar("SELECT COUNT(*) FROM metrics"), std::string("0"));

        // A run still running is refused and nothing is removed.
        const auto running = store.beginRun(sampleInfo());
        const auto done = store.beginRun(sampleInfo());
        store.finishRun(done, completed(0.5, 0.5));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, store.deleteRuns({done, running}));
        QCOMPARE(store.listRuns().size(), std::size_t(2));
    }

    void renameAndTagsOfManyRuns()
    {
        QTemporaryDir dir;
        RunStore store(dir.filePath("runs.sqlite").toStdString());
        const auto a = store.beginRun(sampleInfo());
        const auto b = store.beginRun(sampleInfo());
        const auto c = store.beginRun(sampleInfo());
        store.renameRun(b, "the one with warm-up");
        QCOMPARE(store.run(b)->name, std::string("the one with warm-up"));
        QCOMPARE(store.run(a)->name, "ssan+rpr on " + sampleInfo().config.dataset); // the others keep theirs
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, store.renameRun(999, "x"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, store.renameRun(a, ""));

        store.setTags(a, {"keep"});
        store.addTags({a, b}, {"sweep", "keep"});
        QCOMPARE(store.run(a)->tags, (std::vector<std::string>{"keep", "sweep"})); // no duplicate
        QCOMPARE(store.run(b)->tags, (std::vector<std::string>{"sweep", "keep"}));
        QVERIFY(store.run(c)->tags.empty());
        store.setTags(std::vector<std::int64_t>{b, c}, {"x"});
        QCOMPARE(store.run(b)->tags, (std::vector<std::string>{"x"}));
        QCOMPARE(store.run(c)->tags, (std::vector<std::string>{"x"}));
        store.setNotes(std::vector<std::int64_t>{a, c}, "batch note");
        QCOMPARE(store.run(a)->notes, std::string("batch note"));
        QCOMPARE(store.run(b)->notes, std::string());
        QCOMPARE(store.run(c)->notes, std::string("batch note"));
    }
};

QTEST_GUILESS_MAIN(TestStoreQueries)
#include "test_store_queries.moc"
