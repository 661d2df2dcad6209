#pragma once
#include <string>

namespace attnlab {

// What a preset is expected to reach, as measured and written down in docs/RESULTS.md: shown beside a
// lesson's live runs so that what a class sees can be checked against what was measured.
// JSON (a preset's "expected"): {"metric": "accuracy", "mean": 43.5, "std": 0.6, "runs": 3,
// "source": "docs/RESULTS.md, Table 5.3 at a laptop budget"}; metric is accuracy (test, in %), a translation's
// test bleu (sacreBLEU, 0-100) or a time series' test mae / rmse / mape.
struct PresetExpectation {
    std::string metric;   // accuracy | bleu | mae | rmse | mape
    double mean = 0.0;
    double stdDev = 0.0;  // sample std over the runs; 0 for one run
    int runs = 0;         // 0: no expectation
    std::string source;   // where the number was measured

    bool empty() const { return runs == 0; }
    // "43.5 ± 0.6% test accuracy (3 runs)"
    std::string text() const;
    // Throws std::invalid_argument naming `source` and the key.
    static PresetExpectation parse(const std::string& json, const std::string& where);
};

} // namespace attnlab
