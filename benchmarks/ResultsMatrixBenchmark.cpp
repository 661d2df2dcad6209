// The analyst's results matrix over a large store (all 10,000 runs in <= 300 ms). Measures the
// engine's part, ResultsMatrix::build + table(), over every run, and — given --db — reading the runs
// from SQLite first (RunStore::listRuns), as the window does. Without --db it makes the records in
// memory: 5 datasets x 8 models x 250 seeds = 10,000 completed runs with real configurations.
//
//   attnlab-bench-matrix [--db FILE] [--runs-per-config 250] [--rounds 7]
#include "core/analysis/ResultsMatrix.h"
#include "core/config/TrainConfig.h"
#include "core/store/RunStore.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

using namespace attnlab;

namespace {

double millisecondsOf(const std::function<void()>& work)
{
    const auto start = std::chrono::steady_clock::now();
    work();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

void report(const char* what, std::vector<double> ms)
{
    std::sort(ms.begin(), ms.end());
    std::printf("%-52s median %8.1f ms   max %8.1f ms   (%zu rounds)\n", what, ms[ms.size() / 2], ms.back(), ms.size());
}

std::vector<RunRecord> inMemory(int perConfig)
{
    const char* datasets[] = {"sst-fine", "sst-binary", "opener", "sentube-auto", "semeval2013"};
    const char* models[][2] = {{"ssan", "rpr"}, {"ssan", "sinusoidal"}, {"ssan", "none"}, {"transformer", "rpr"},
                               {"lstm", "none"}, {"bilstm", "none"}, {"cnn", "none"}, {"essan", "rpr"}};
    std::vector<RunRecord> runs;
    std::int64_t id = 0;
    for (const char* dataset : datasets)
        for (const auto& model : models)
            for (int seed = 0; seed < perConfig; ++seed) {
                TrainConfig c;
                c.dataset = dataset;
                c.model.model = model[0];
                c.model.position = model[1];
                c.model.dModel = 300;
                c.seed = static_cast<std::uint64_t>(seed);
                RunRecord r;
                r.id = ++id;
                r.dataset = dataset;
                r.model = model[0];
                r.position = model[1];
                r.seed = c.seed;
                r.configJson = c.toJson();
                r.groupKey = RunStore::groupKeyOf(r.configJson);
                r.status = RunStatus::Completed;
                r.bestStep = 1000;
                r.testAccuracy = 0.4 + 0.001 * (seed % 50) + 0.01 * (id % 7);
                r.bestDevAccuracy = r.testAccuracy + 0.01;
                runs.push_back(std::move(r));
            }
    return runs;
}

} // namespace

int main(int argc, char** argv)
{
    std::string db;
    int perConfig = 250, rounds = 7;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--db")) db = argv[i + 1];
        else if (!std::strcmp(argv[i], "--runs-per-config")) perConfig = std::atoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--rounds")) rounds = std::atoi(argv[i + 1]);
        else {
            std::fprintf(stderr, "usage: %s [--db FILE] [--runs-per-config N] [--rounds N]\n", argv[0]);
            return 2;
        }
    }
    std::vector<RunRecord> runs;
    std::vector<double> listing;
    if (!db.empty()) {
        RunStore store(db);
        for (int r = 0; r < rounds; ++r)
            listing.push_back(millisecondsOf([&] { runs = store.listRuns(); }));
    } else {
        runs = inMemory(perConfig);
    }
    std::printf("%zu runs%s\n", runs.size(), db.empty() ? " (in memory)" : (" from " + db).c_str());
    if (!listing.empty())
        report("RunStore::listRuns (all runs)", listing);

    std::vector<double> byModel, byModelPosition, withTable;
    std::size_t cells = 0;
    for (int r = 0; r < rounds; ++r) {
        byModel.push_back(millisecondsOf([&] { cells += ResultsMatrix::build(runs, {}).rowLabels().size(); }));
        byModelPosition.push_back(millisecondsOf(
            [&] { cells += ResultsMatrix::build(runs, {"model,position", "dataset", "test", true}).rowLabels().size(); }));
        withTable.push_back(millisecondsOf([&] {
            const auto m = ResultsMatrix::build(runs, {"model,position,d_model", "dataset", "test", true});
            cells += m.table(1, true).rows.size();
        }));
    }
    report("matrix model x dataset", byModel);
    report("matrix model,position x dataset", byModelPosition);
    report("matrix model,position,d_model x dataset + thesis table", withTable);
    std::printf("(%zu rows built in all)\n", cells);
    return 0;
}
