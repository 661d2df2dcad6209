#pragma once
#include "core/results/RunSummary.h"

#include <string>

namespace attnlab {

// A run's result in words and numbers, written once: attnlab-cli train and runs, the run list and the
// window all read a result through this class, so a time-series run reads as RMSE (never as an
// accuracy of 0%) wherever it is shown. Classification: accuracy in percent, macro-F1; regression: RMSE,
// MAE, MAPE in the target's own units (the best dev step is the one with the lowest dev RMSE).
class RunResult {
public:
    explicit RunResult(RunSummary summary);

    const RunSummary& summary() const { return summary_; }
    bool regression() const { return summary_.regression; }
    // A result exists once a dev evaluation chose a best step and the run is no longer running (bench
    // runs and runs cancelled before their first evaluation have none).
    bool hasResults() const;
    // Test figures exist only for a completed run: it is measured once, with the best-dev weights, at
    // the end (a cancelled or diverged run has a best dev step but no test).
    bool hasTest() const;

    // The headline figures as numbers: dev/test accuracy in percent, or dev/test RMSE.
    double devValue() const;
    double testValue() const;
    // ... as text with the given decimals: "85.20%" or "0.0834"; "-" where there is none.
    std::string devText(int decimals) const;
    std::string testText(int decimals) const;
    // Every test figure: "test accuracy 84.10%, macro-F1 83.00%" or "test RMSE 0.0834, MAE 0.0701, MAPE 7.03%".
    std::string testDetail() const;
    // "best dev 85.20% at step 300; test 84.10%, macro-F1 83.00%" or
    // "best dev RMSE 0.0834 at step 300; test MAE 0.0701, RMSE 0.0834, MAPE 7.03%"; "" without results.
    std::string headline() const;
    // A finished run in one sentence: "completed after 600 steps in 2.5 s: <headline> (message)".
    std::string sentence() const;
    // One short line for a plot's subtitle, which does not wrap:
    // "completed · best dev 85.2% (step 300) · test 84.1% · 23,813 params · 2.5 s".
    std::string brief() const;

    // The result's fields as one JSON object (the same keys in train --json and runs list --json):
    // status, steps, seconds, best_step, params, device, message, stopped_early, regression, and
    // best_dev_accuracy, test_accuracy, test_macro_f1[, test_confusion] or best_dev_rmse, test_mae,
    // test_rmse, test_mape.
    std::string toJson(bool withConfusion = false) const;

private:
    RunSummary summary_;
};

} // namespace attnlab
