#pragma once
#include <string>
#include <vector>

namespace attnlab {

// A time-series run's forecast on its test split, kept with the run (the store's analysis "forecast", key "test")
// so Compare draws it against the real series without loading the model again: for every test window, the real
// value and the prediction in the target's own units (with the best-dev weights, as the test errors), and, where
// the model has it, the attention that prediction paid to each step of its window.
struct SeriesForecast {
    std::string target;        // the predicted series' name
    int firstRow = 0;          // the test split's first row in the series: the x axis is the row
    // With a horizon H > 1, actual and predicted are each test window's first step ahead (one prediction a row);
    // the errors H steps ahead are the run's test metrics ("rmse.H").
    int window = 0;            // T, the steps each prediction saw
    std::vector<double> actual, predicted;
    // Per prediction, T weights (the oldest step first, summing to 1): DA-RNN's temporal attention, ESSAN's
    // attention pooling; empty for a model without attention over its window (RNNs, the baselines).
    std::string attentionName; // "temporal attention", "attention pooling"
    std::vector<std::vector<float>> attention;

    int size() const { return static_cast<int>(actual.size()); }
    // Values at 7 significant digits (a float's precision, which the predictions have), so 500 test rows
    // stay a few tens of kilobytes.
    std::string toJson() const;
    // Throws std::invalid_argument naming what is wrong (not JSON, lengths that differ, a row of attention of
    // another length than the window).
    static SeriesForecast fromJson(const std::string& json);
};

} // namespace attnlab
