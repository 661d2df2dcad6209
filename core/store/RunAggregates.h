#pragma once
#include "core/results/RunRecord.h"

#include <vector>

namespace attnlab {

class SqliteConnection;

// RunStore::aggregates (private to core/store): the runs grouped by group key, the repeats of one
// configuration, with the mean and sample std of their test and best-dev results over the completed
// ones, as the thesis reports them. Takes no lock: RunStore holds its own around the call.
class RunAggregates {
public:
    explicit RunAggregates(const SqliteConnection& connection);

    std::vector<RunAggregate> perGroup() const; // by dataset, model, position, group key
    // The same from runs already read (RunStore::aggregatesOf): no second pass over the table.
    static std::vector<RunAggregate> of(const std::vector<RunRecord>& runs);

private:
    const SqliteConnection& connection_;
};

} // namespace attnlab
