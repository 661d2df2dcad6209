#pragma once
#include "core/config/DatasetOptions.h"

#include <map>
#include <string>
#include <vector>

namespace attnlab {

// The user's own data files of a run (csv-text, csv-series, csv-pairs: `file`, or `train_file`/`dev_file`/`test_file`;
// csv-pairs' parallel lines: `source_file`/`target_file`, `dev_source_file`, ..., `test_target_file`),
// fingerprinted into the run's environment when it starts (data_sha256.<key>: sha256 and size), and checked
// when a view reads the run's data again, so the examples and confusion it lists are the run's own: a file
// moved or deleted since, or changed since, is said with its path and can be located elsewhere.
class OwnDataFiles {
public:
    enum class State { Unchanged, Missing, Changed, NotRecorded };
    struct File {
        std::string key;  // the configuration key: file, train_file, dev_file, test_file, source_file, target_file, ...
        std::string path; // as the configuration names it
    };
    struct Check {
        std::string key, path;
        State state = State::Unchanged;
        std::string recordedSha256, currentSha256; // "" when unknown (not recorded; missing)
    };

    static std::vector<File> of(const DatasetOptions& options); // in configuration order; none for other datasets
    static std::string environmentKey(const std::string& key);  // "data_sha256." + key
    // The environment entries a run records (sha256 of each file; throws DataError naming an unreadable file).
    static std::map<std::string, std::string> fingerprints(const DatasetOptions& options);
    static std::map<std::string, std::string> recorded(const std::string& environmentJson); // the entries back
    // Each file against the run's record; reads (hashes) every file that is there.
    static std::vector<Check> check(const DatasetOptions& options, const std::map<std::string, std::string>& recorded);
    // One line for the first moved or changed file, naming it; "" when every recorded file is as it was.
    static std::string problem(const std::vector<Check>& checks);
    // Reads the run's `key` file from `path` instead (a located file); false when the key is not one of these.
    static bool relocate(DatasetOptions& options, const std::string& key, const std::string& path);
};

} // namespace attnlab
