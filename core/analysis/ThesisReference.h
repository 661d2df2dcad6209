#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace attnlab {

// A number the thesis reports (resources/thesis/references.json, compiled in): shown next to ours, always
// labelled as the thesis', never mixed into our statistics.
struct ThesisValue {
    std::string table;   // "5.3", "5.6", "6.4"
    std::string label;   // the thesis' row, e.g. "1-layer SSAN + RPR (100)"
    double value = 0.0;  // in our units: accuracy as a fraction; SML2010 errors x10^-2 as printed there
    double std = 0.0;
    bool hasStd = false;
    int runs = 1;
    std::optional<double> top; // the best of the runs, where the table prints it ("Top" of Table 5.6)
};

// The thesis' results, found by configuration: an entry applies to runs whose configuration has every
// key the entry names (dataset, model, position, layers, d_model, pooling, phrases) with the same value.
class ThesisReference {
public:
    static const ThesisReference& builtIn();
    static ThesisReference parse(const std::string& json, const std::string& source); // throws invalid_argument

    // The most specific entry for this flat configuration (RunField::flatConfig) and metric
    // (test_accuracy, test_rmse, test_mae, test_mape; "test" is accuracy or RMSE by task).
    std::optional<ThesisValue> find(const std::map<std::string, std::string>& config, const std::string& metric,
                                    bool regression) const;
    std::size_t size() const { return entries_.size(); }

private:
    struct Entry {
        ThesisValue value;
        std::string metric;
        std::map<std::string, std::string> match; // config key -> value as RunField writes it
    };
    std::vector<Entry> entries_;
};

} // namespace attnlab
