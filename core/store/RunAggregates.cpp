#include "core/store/RunAggregates.h"

#include "core/results/RepeatStatistics.h"
#include "core/store/SqliteStatement.h"

#include <map>
#include <stdexcept>
#include <string>
#include <utility>

namespace attnlab {

RunAggregates::RunAggregates(const SqliteConnection& connection) : connection_(connection) {}

std::vector<RunAggregate> RunAggregates::perGroup() const
{
    struct Group {
        RunAggregate aggregate;
        std::vector<double> testAccuracy, testRmse, bestDevAccuracy, bestDevRmse;
    };
    std::vector<Group> groups;
    std::map<std::string, std::size_t> index; // group key -> position in groups
    SqliteStatement s(connection_, "SELECT group_key, dataset, model, position, status, summary_json FROM runs"
                                   " ORDER BY dataset, model, position, group_key, id");
    while (s.step()) {
        const std::string key = s.text(0);
        auto [it, added] = index.emplace(key, groups.size());
        if (added) {
            groups.emplace_back();
            auto& a = groups.back().aggregate;
            a.groupKey = key;
            a.dataset = s.text(1);
            a.model = s.text(2);
            a.position = s.text(3);
        }
        Group& g = groups[it->second];
        ++g.aggregate.runs;
        if (s.text(4) != toString(RunStatus::Completed) || s.text(5).empty())
            continue;
        RunSummary summary;
        try {
            summary = RunSummary::fromJson(s.text(5));
        } catch (const std::invalid_argument&) {
            continue; // a summary this build cannot read: counted among the runs, not averaged
        }
        ++g.aggregate.completed;
        g.aggregate.regression = g.aggregate.regression || summary.regression;
        g.testAccuracy.push_back(summary.testAccuracy);
        g.bestDevAccuracy.push_back(summary.bestDevAccuracy);
        g.testRmse.push_back(summary.testRmse);
        g.bestDevRmse.push_back(summary.bestDevRmse);
    }
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

} // namespace attnlab
