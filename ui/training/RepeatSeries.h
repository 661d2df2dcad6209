#pragma once
#include "core/results/RunSummary.h"

#include <QCoreApplication>
#include <QString>

#include <cstdint>
#include <vector>

namespace attnlab::ui {

// The designer's Repeats: the same configuration with seeds S, S+1, ..., S+R-1, one run after another,
// then mean ± sample std of dev and test over the completed runs, as the thesis reports (and as
// `attnlab-cli train --repeat` prints). A run that is stopped or fails ends the series.
class RepeatSeries {
    Q_DECLARE_TR_FUNCTIONS(RepeatSeries)
public:
    void begin(int repeats); // forgets the previous series
    void add(const RunSummary& summary);
    // After a run has ended: whether another seed follows (the last run completed and runs are left);
    // counts it as started.
    bool startNext();
    void stop() { left_ = 0; }
    std::size_t finished() const { return results_.size(); }
    // "3 runs (seeds 1…3): dev 48.1 ± 0.4, test 47.9 ± 0.6 %"; empty with fewer than two completed runs.
    QString summary(std::uint64_t lastSeed) const;

private:
    int left_ = 0;
    std::vector<RunSummary> results_;
};

} // namespace attnlab::ui
