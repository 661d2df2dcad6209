#include "core/store/RunAggregates.h"

#include "core/results/RepeatStatistics.h"
#include "core/store/SqliteStatement.h"

#include <algorithm>
#include <unordered_map>
#include <tuple>
#include <stdexcept>
#include <string>
#include <utility>

namespace attnlab {

RunAggregates::RunAggregates(const SqliteConnection& connection) : connection_(connection) {}

namespace {

// One run as the statistics need it.
struct Sample {
    std::string groupKey, dataset, model, position;
    bool completed = false; // completed, with a summary (a schema-1 run that never ended has none)
    bool regression = false;
    double testAccuracy = 0.0, bestDevAccuracy = 0.0, testRmse = 0.0, bestDevRmse = 0.0;
};

// Samples in id order, so each group's values come in the order the runs were added.
std::vector<RunAggregate> aggregate(const std::vector<Sample>& samples)
{
    struct Group {
        RunAggregate aggregate;
        std::vector<double> testAccuracy, testRmse, bestDevAccuracy, bestDevRmse;
    };
    std::vector<Group> groups;
    std::unordered_map<std::string, std::size_t> index; // group key -> position in groups
    for (const Sample& s : samples) {
        auto [it, added] = index.emplace(s.groupKey, groups.size());
        if (added) {
            groups.emplace_back();
            auto& a = groups.back().aggregate;
            a.groupKey = s.groupKey;
            a.dataset = s.dataset;
            a.model = s.model;
            a.position = s.position;
        }
        Group& g = groups[it->second];
        ++g.aggregate.runs;
        if (!s.completed)
            continue;
        ++g.aggregate.completed;
        g.aggregate.regression = g.aggregate.regression || s.regression;
        g.testAccuracy.push_back(s.testAccuracy);
        g.bestDevAccuracy.push_back(s.bestDevAccuracy);
        g.testRmse.push_back(s.testRmse);
        g.bestDevRmse.push_back(s.bestDevRmse);
    }
    std::sort(groups.begin(), groups.end(), [](const Group& x, const Group& y) {
        const RunAggregate& a = x.aggregate;
        const RunAggregate& b = y.aggregate;
        return std::tie(a.dataset, a.model, a.position, a.groupKey) < std::tie(b.dataset, b.model, b.position, b.groupKey);
    });
    std::vector<RunAggregate> result;
    for (auto& g : groups) {
        auto& a = g.aggregate;
        // Mean and sample std (n - 1), as the thesis reports repeats; std is 0 for one run.
        if (a.regression) {
            const RepeatStatistics test(std::move(g.testRmse));
            a.testRmseMean = test.mean();
            a.testRmseStd = test.sampleStd();
            a.bestDevMean = RepeatStatistics(std::move(g.bestDevRmse)).mean();
        } else {
            const RepeatStatistics test(std::move(g.testAccuracy));
            a.testAccuracyMean = test.mean();
            a.testAccuracyStd = test.sampleStd();
            a.bestDevMean = RepeatStatistics(std::move(g.bestDevAccuracy)).mean();
        }
        result.push_back(a);
    }
    return result;
}

} // namespace

std::vector<RunAggregate> RunAggregates::perGroup() const
{
    // In id order (no sort over every row with its long key) and from the result columns (no JSON).
    SqliteStatement s(connection_, "SELECT group_key, dataset, model, position, status, summary_json <> '', regression,"
                                   " test_accuracy, best_dev, test_rmse, best_dev_rmse FROM runs ORDER BY id");
    const std::string completed = toString(RunStatus::Completed);
    std::vector<Sample> samples;
    while (s.step())
        samples.push_back({s.text(0), s.text(1), s.text(2), s.text(3), s.text(4) == completed && s.integer(5) != 0,
                           s.integer(6) != 0, s.real(7), s.real(8), s.real(9), s.real(10)});
    return aggregate(samples);
}

std::vector<RunAggregate> RunAggregates::of(const std::vector<RunRecord>& runs)
{
    std::vector<const RunRecord*> byId;
    byId.reserve(runs.size());
    for (const auto& r : runs)
        byId.push_back(&r);
    std::sort(byId.begin(), byId.end(), [](const RunRecord* a, const RunRecord* b) { return a->id < b->id; });
    std::vector<Sample> samples;
    samples.reserve(runs.size());
    for (const RunRecord* r : byId)
        samples.push_back({r->groupKey, r->dataset, r->model, r->position,
                           r->status == RunStatus::Completed && !r->summaryJson.empty(), r->regression, r->testAccuracy,
                           r->bestDevAccuracy, r->testRmse, r->bestDevRmse});
    return aggregate(samples);
}

} // namespace attnlab
