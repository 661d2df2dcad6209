#pragma once
#include "core/results/RunRecord.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace attnlab {

// One named property of a stored run, as the analyst's views group, tabulate and diff by it.
// Keys: the record's own ("dataset", "model", "position", "seed", "status", "device", "host", "name",
// "app_version", "git_hash", "torch_version", "tags"), any key of the run's configuration (nested objects as
// "a.b"), and several at once, comma-separated ("model,position" reads "ssan / rpr").
// Results ("metrics") are numbers: "test" and "dev" are the task's headline (accuracy, or RMSE for a
// regression run), the others name one figure.
class RunField {
public:
    static std::string text(const RunRecord& run, const std::string& key); // "" when the run has none
    // The same with the run's configuration already flattened (callers reading many runs parse each
    // configuration once: repeats share one).
    static std::string text(const RunRecord& run, const std::string& key,
                            const std::map<std::string, std::string>& flatConfig);
    static bool isRecordField(const std::string& key); // answered without parsing the configuration
    static std::vector<std::string> split(const std::string& keys);         // "model, position" -> 2 keys
    // The configuration as flat key -> text ("d_model" -> "100", "dropout_points" -> "[\"input\"]").
    static std::map<std::string, std::string> flatConfig(const RunRecord& run);
    static std::map<std::string, std::string> flatten(const std::string& json); // "" or not an object: empty

    static const std::vector<std::string>& metricNames();
    // The figure, for a completed run that has it (no accuracy for a regression run, no results for a run
    // never evaluated, such as a bench run); nullopt otherwise.
    static std::optional<double> metric(const RunRecord& run, const std::string& name);
    static void checkMetric(const std::string& name); // throws std::invalid_argument listing the names
    static bool higherIsBetter(const std::string& name, bool regression);
    // Accuracy-like figures are fractions shown as percentages; the rest are shown as they are.
    static bool isPercent(const std::string& name, bool regression);
};

} // namespace attnlab
