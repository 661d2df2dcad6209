#pragma once
#include "core/results/RunRecord.h"

#include <string>

namespace attnlab {

class SqliteStatement;

// How a row of the runs table maps to a RunRecord (private to core/store): the one column list that
// every query of whole runs selects, and the reading of such a row.
class RunColumns {
public:
    // "SELECT <every column a RunRecord holds> FROM runs"; append the WHERE and ORDER BY.
    static std::string selectFromRuns();
    static RunRecord read(const SqliteStatement& row); // a row of selectFromRuns()

    // The result columns that every schema since version 1 has (status, steps, seconds, best_dev,
    // best_step, test_accuracy, params, device, message), in that order: the migration to version 2
    // builds the summary of an old run from them, as read() does for the record.
    static std::string resultColumns();
    static void readResult(const SqliteStatement& row, int firstColumn, RunRecord& record);

    // Since schema 3, the summary's fields that the views need are columns too (regression, test_macro_f1,
    // test_rmse, test_mae, test_mape, best_dev_rmse, stopped_early, in that order), so listing runs parses
    // no JSON. Written by finishRun, importRun and the migration, from the summary.
    static std::string summaryColumns();
    // The record's fields of those columns from a stored summary_json ("" or unreadable: left as they are).
    static void readSummaryFields(const std::string& summaryJson, RunRecord& record);
};

} // namespace attnlab
