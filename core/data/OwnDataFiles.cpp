#include "core/data/OwnDataFiles.h"

#include "core/data/install/Sha256.h"

#include <nlohmann/json.hpp>

#include <filesystem>

namespace attnlab {
namespace {

std::string* field(DatasetOptions& o, const std::string& key)
{
    if (key == "file")
        return &o.file;
    if (key == "train_file")
        return &o.trainFile;
    if (key == "dev_file")
        return &o.devFile;
    if (key == "test_file")
        return &o.testFile;
    // csv-pairs' parallel line files.
    if (key == "source_file") return &o.sourceFile;
    if (key == "target_file") return &o.targetFile;
    if (key == "dev_source_file") return &o.devSourceFile;
    if (key == "dev_target_file") return &o.devTargetFile;
    if (key == "test_source_file") return &o.testSourceFile;
    if (key == "test_target_file") return &o.testTargetFile;
    return nullptr;
}

} // namespace

std::vector<OwnDataFiles::File> OwnDataFiles::of(const DatasetOptions& options)
{
    std::vector<File> files;
    DatasetOptions o = options;
    for (const char* key : {"file", "train_file", "dev_file", "test_file", "source_file", "target_file", "dev_source_file",
                            "dev_target_file", "test_source_file", "test_target_file"})
        if (const std::string* path = field(o, key); !path->empty())
            files.push_back({key, *path});
    return files;
}

std::string OwnDataFiles::environmentKey(const std::string& key)
{
    return "data_sha256." + key;
}

std::map<std::string, std::string> OwnDataFiles::fingerprints(const DatasetOptions& options)
{
    std::map<std::string, std::string> entries;
    for (const File& f : of(options))
        entries[environmentKey(f.key)] = Sha256::ofFile(f.path);
    return entries;
}

std::map<std::string, std::string> OwnDataFiles::recorded(const std::string& environmentJson)
{
    std::map<std::string, std::string> entries;
    const auto json = nlohmann::json::parse(environmentJson, nullptr, false);
    if (!json.is_object())
        return entries;
    for (const auto& [key, value] : json.items())
        if (key.rfind("data_sha256.", 0) == 0 && value.is_string())
            entries[key] = value.get<std::string>();
    return entries;
}

std::vector<OwnDataFiles::Check> OwnDataFiles::check(const DatasetOptions& options,
                                                    const std::map<std::string, std::string>& recorded)
{
    std::vector<Check> checks;
    for (const File& f : of(options)) {
        Check c{f.key, f.path};
        if (const auto it = recorded.find(environmentKey(f.key)); it != recorded.end())
            c.recordedSha256 = it->second;
        std::error_code error;
        if (!std::filesystem::is_regular_file(f.path, error)) {
            c.state = State::Missing;
        } else {
            c.currentSha256 = Sha256::ofFile(f.path);
            c.state = c.recordedSha256.empty()                 ? State::NotRecorded
                      : c.recordedSha256 == c.currentSha256 ? State::Unchanged
                                                             : State::Changed;
        }
        checks.push_back(std::move(c));
    }
    return checks;
}

std::string OwnDataFiles::problem(const std::vector<Check>& checks)
{
    for (const Check& c : checks) {
        if (c.state == State::Missing)
            return "the run's data file " + c.path + " (setting " + c.key +
                   ") is no longer there: moved or deleted since the run";
        if (c.state == State::Changed)
            return "the run's data file " + c.path + " (setting " + c.key + ") has changed since the run (sha256 " +
                   c.recordedSha256.substr(0, 12) + "… then, " + c.currentSha256.substr(0, 12) +
                   "… now): its examples are not the ones the run was trained and tested on";
    }
    return {};
}

bool OwnDataFiles::relocate(DatasetOptions& options, const std::string& key, const std::string& path)
{
    std::string* target = field(options, key);
    if (!target)
        return false;
    *target = path;
    return true;
}

} // namespace attnlab
