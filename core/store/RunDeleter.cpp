#include "core/store/RunDeleter.h"

#include "core/store/RunStoreSchema.h"
#include "core/store/SqliteConnection.h"
#include "core/store/SqliteStatement.h"

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>

namespace attnlab {

RunDeleter::RunDeleter(const SqliteConnection& connection) : connection_(connection) {}

RunDeletion RunDeleter::remove(const std::vector<std::int64_t>& runIds) const
{
    const SqliteConnection& c = connection_;
    RunDeletion removed;
    std::vector<std::string> files;
    c.transaction([&] {
        SqliteStatement status(c, "SELECT status FROM runs WHERE id=?");
        for (const auto id : runIds) {
            status.bind(1, id);
            if (status.step()) {
                if (runStatusFromString(status.text(0)) == RunStatus::Running)
                    throw std::invalid_argument("run store " + c.path() + ": run " + std::to_string(id) +
                                                " is still running; stop it before deleting it");
                if (std::find(removed.runs.begin(), removed.runs.end(), id) == removed.runs.end())
                    removed.runs.push_back(id);
            }
            status.reset();
        }
        SqliteStatement paths(c, "SELECT path FROM checkpoints WHERE run_id=?");
        for (const auto id : removed.runs) {
            paths.bind(1, id);
            while (paths.step())
                files.push_back(paths.text(0));
            paths.reset();
        }
        // Row by row and table by table rather than through ON DELETE CASCADE: the counts are what a user
        // is told, and a file opened without foreign keys would otherwise keep orphans.
        auto remove = [&](const char* sql, int& count) {
            SqliteStatement s(c, sql);
            for (const auto id : removed.runs) {
                s.bind(1, id);
                s.run();
                count += c.changes();
            }
        };
        remove("DELETE FROM metrics WHERE run_id=?", removed.metrics);
        remove("DELETE FROM attention WHERE run_id=?", removed.attention);
        remove("DELETE FROM characteristics WHERE run_id=?", removed.characteristics);
        remove("DELETE FROM checkpoints WHERE run_id=?", removed.checkpoints);
        if (RunStoreSchema::hasAnalysesTable(c))
            remove("DELETE FROM analyses WHERE run_id=?", removed.analyses);
        int runs = 0;
        remove("DELETE FROM runs WHERE id=?", runs);
    });
    // Files only after the rows are committed, so a failed transaction deletes nothing; a file another
    // remaining run still names (an imported copy of the run) is kept.
    std::sort(files.begin(), files.end());
    files.erase(std::unique(files.begin(), files.end()), files.end());
    SqliteStatement shared(c, "SELECT 1 FROM checkpoints WHERE path=? LIMIT 1");
    for (const auto& file : files) {
        shared.bind(1, file);
        const bool stillUsed = shared.step();
        shared.reset();
        if (stillUsed)
            continue;
        std::error_code error;
        if (std::filesystem::remove(file, error))
            removed.filesRemoved.push_back(file);
        else
            removed.filesNotRemoved.push_back(file + ": " + (error ? error.message() : std::string("not found")));
    }
    return removed;
}

} // namespace attnlab
