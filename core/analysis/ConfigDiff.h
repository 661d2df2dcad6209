#pragma once
#include "core/results/RunRecord.h"

#include <string>
#include <vector>

namespace attnlab {

// A key whose value is not the same in every compared run: values[i] belongs to runs[i] ("" = the run
// has no such key, which differs from any value).
struct FieldDiff {
    std::string key;
    std::vector<std::string> values;
};

// What differs between runs: their configurations (what was asked for) or their environments (versions,
// device, host, CPU, dataset and embeddings hashes: what it ran on). Only the differing keys, sorted.
class ConfigDiff {
public:
    enum class Source { Config, Environment };
    static std::vector<FieldDiff> of(const std::vector<RunRecord>& runs, Source source = Source::Config);
    static std::size_t keyCount(const std::vector<RunRecord>& runs, Source source); // all keys, shared or not
};

} // namespace attnlab
