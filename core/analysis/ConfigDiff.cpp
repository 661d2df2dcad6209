#include "core/analysis/ConfigDiff.h"

#include "core/analysis/RunField.h"

#include <map>
#include <set>

namespace attnlab {
namespace {

std::vector<std::map<std::string, std::string>> flatOf(const std::vector<RunRecord>& runs, ConfigDiff::Source source)
{
    std::vector<std::map<std::string, std::string>> flat;
    flat.reserve(runs.size());
    for (const RunRecord& r : runs)
        flat.push_back(RunField::flatten(source == ConfigDiff::Source::Config ? r.configJson : r.environmentJson));
    return flat;
}

std::set<std::string> keysOf(const std::vector<std::map<std::string, std::string>>& flat)
{
    std::set<std::string> keys;
    for (const auto& one : flat)
        for (const auto& [key, value] : one)
            keys.insert(key);
    return keys;
}

} // namespace

std::vector<FieldDiff> ConfigDiff::of(const std::vector<RunRecord>& runs, Source source)
{
    const auto flat = flatOf(runs, source);
    std::vector<FieldDiff> diffs;
    for (const std::string& key : keysOf(flat)) {
        FieldDiff diff{key, {}};
        bool differs = false;
        for (const auto& one : flat) {
            const auto found = one.find(key);
            diff.values.push_back(found == one.end() ? std::string() : found->second);
            differs = differs || found == one.end() || diff.values.back() != diff.values.front() ||
                      flat.front().find(key) == flat.front().end();
        }
        if (differs)
            diffs.push_back(std::move(diff));
    }
    return diffs;
}

std::size_t ConfigDiff::keyCount(const std::vector<RunRecord>& runs, Source source)
{
    return keysOf(flatOf(runs, source)).size();
}

} // namespace attnlab
