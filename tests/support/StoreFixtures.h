#pragma once
// What the run-store suites (tests/core/test_store*.cpp) share: runs to store, a filled store, and
// checks that compare what two stores hold or that an error names the file and says why.
#include "core/store/RunStore.h"
#include "tests/support/RawSqlite.h"

#include <QtCore/QString>
#include <QtTest/QtTest>

#include <fstream>
#include <functional>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

namespace attnlab::testing {

// A run as the trainer announces it (ssan+rpr, seed 42), and the same with another configuration.
inline RunInfo sampleInfo()
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

inline RunInfo infoFor(const std::string& dataset, const std::string& model, const std::string& position,
                       std::uint64_t seed)
{
    RunInfo info = sampleInfo();
    info.config.dataset = dataset;
    info.config.model.model = model;
    info.config.model.position = position;
    info.config.seed = seed;
    return info;
}

// A completed classification run's result.
inline RunSummary completed(double testAccuracy, double bestDev)
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

inline std::string fileContent(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// Every field of two records, except the id (which a store assigns).
inline void compareRecords(const RunRecord& a, const RunRecord& b)
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

inline void compareMetrics(const std::vector<MetricPoint>& a, const std::vector<MetricPoint>& b)
{
    QCOMPARE(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        QCOMPARE(a[i].step, b[i].step);
        QCOMPARE(a[i].split, b[i].split);
        QCOMPARE(a[i].name, b[i].name);
        QCOMPARE(a[i].value, b[i].value);
    }
}

inline void expectError(const std::function<void()>& action, const std::string& path, const QString& words)
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
inline std::vector<std::int64_t> fillStore(RunStore& store)
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

} // namespace attnlab::testing
