#include "core/store/RunColumns.h"

#include "core/store/SqliteStatement.h"
#include "core/store/StoredJson.h"

#include <stdexcept>

namespace attnlab {

namespace {
constexpr int kFirstResultColumn = 19;  // where resultColumns() start in selectFromRuns()
constexpr int kFirstSummaryColumn = 28; // where summaryColumns() start
} // namespace

std::string RunColumns::selectFromRuns()
{
    return "SELECT id, name, started_at, finished_at, config_json, seed, dataset, model, position, app_version,"
           " git_hash, torch_version, host, uuid, group_key, tags, notes, environment_json, summary_json, " +
           resultColumns() + ", " + summaryColumns() + " FROM runs";
}

std::string RunColumns::summaryColumns()
{
    return "regression, test_macro_f1, test_rmse, test_mae, test_mape, best_dev_rmse, stopped_early";
}

void RunColumns::readSummaryFields(const std::string& summaryJson, RunRecord& r)
{
    if (summaryJson.empty())
        return;
    try {
        const RunSummary summary = RunSummary::fromJson(summaryJson);
        r.regression = summary.regression;
        r.testMacroF1 = summary.testMacroF1;
        r.bestDevRmse = summary.bestDevRmse;
        r.testMae = summary.testMae;
        r.testRmse = summary.testRmse;
        r.testMape = summary.testMape;
        r.stoppedEarly = summary.stoppedEarly;
    } catch (const std::invalid_argument&) {
        // A summary this build cannot read leaves the fields as they are; the result columns still hold.
    }
}

std::string RunColumns::resultColumns()
{
    return "status, steps, seconds, best_dev, best_step, test_accuracy, params, device, message";
}

void RunColumns::readResult(const SqliteStatement& row, int firstColumn, RunRecord& r)
{
    r.status = runStatusFromString(row.text(firstColumn));
    r.steps = static_cast<int>(row.integer(firstColumn + 1));
    r.seconds = row.real(firstColumn + 2);
    r.bestDevAccuracy = row.real(firstColumn + 3);
    r.bestStep = static_cast<int>(row.integer(firstColumn + 4));
    r.testAccuracy = row.real(firstColumn + 5);
    r.parameters = row.integer(firstColumn + 6);
    r.device = row.text(firstColumn + 7);
    r.message = row.text(firstColumn + 8);
}

RunRecord RunColumns::read(const SqliteStatement& row)
{
    using nlohmann::json;
    RunRecord r;
    r.id = row.integer(0);
    r.name = row.text(1);
    r.startedAt = row.text(2);
    r.finishedAt = row.text(3);
    r.configJson = row.text(4);
    r.seed = static_cast<std::uint64_t>(row.integer(5));
    r.dataset = row.text(6);
    r.model = row.text(7);
    r.position = row.text(8);
    r.appVersion = row.text(9);
    r.gitHash = row.text(10);
    r.torchVersion = row.text(11);
    r.host = row.text(12);
    r.uuid = row.text(13);
    r.groupKey = row.text(14);
    // Most runs have no tags: "[]" needs no parser (listing 10,000 runs parses no JSON at all).
    if (const std::string tagText = row.text(15); !tagText.empty() && tagText != "[]")
        if (const json tags = StoredJson::parseOr(tagText, json::array()); tags.is_array())
            for (const auto& t : tags)
                if (t.is_string())
                    r.tags.push_back(t.get<std::string>());
    r.notes = row.text(16);
    r.environmentJson = row.text(17);
    r.summaryJson = row.text(18);
    readResult(row, kFirstResultColumn, r);
    r.regression = row.integer(kFirstSummaryColumn) != 0;
    r.testMacroF1 = row.real(kFirstSummaryColumn + 1);
    r.testRmse = row.real(kFirstSummaryColumn + 2);
    r.testMae = row.real(kFirstSummaryColumn + 3);
    r.testMape = row.real(kFirstSummaryColumn + 4);
    r.bestDevRmse = row.real(kFirstSummaryColumn + 5);
    r.stoppedEarly = row.integer(kFirstSummaryColumn + 6) != 0;
    return r;
}

} // namespace attnlab
