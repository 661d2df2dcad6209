#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace attnlab {

class RunStore;

// Moving runs between stores and out to other tools: a JSON document with everything about each run
// (record, metrics, attention snapshots, characteristics, checkpoints), a CSV table with one row per run,
// and importing (merging) another store's runs, from its .sqlite file or an exported JSON document.
// Files are written whole or not at all; errors throw std::runtime_error naming the file.
class RunExport {
public:
    struct ImportResult {
        int added = 0;
        int skipped = 0; // runs whose uuid the store already had
    };

    explicit RunExport(RunStore& store);

    // runIds empty = every run, oldest first.
    std::string toJson(const std::vector<std::int64_t>& runIds = {}) const;
    void exportJson(const std::string& path, const std::vector<std::int64_t>& runIds = {}) const;
    std::string toCsv(const std::vector<std::int64_t>& runIds = {}) const; // RFC 4180: CRLF, quoted fields
    void exportCsv(const std::string& path, const std::vector<std::int64_t>& runIds = {}) const;

    // Adds the runs of another store (an SQLite run database, which is only read, or an exported JSON
    // document) under new ids; a run whose uuid is already here is skipped. Each run is added in one
    // transaction. A run that was still running there is stored as interrupted: nothing will finish it here.
    ImportResult importFrom(const std::string& path);

private:
    std::vector<std::int64_t> idsOrAll(const std::vector<std::int64_t>& runIds) const;
    ImportResult importDatabase(const std::string& path);
    ImportResult importJson(const std::string& path);

    RunStore& store_;
};

} // namespace attnlab
