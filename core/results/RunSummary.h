#pragma once
#include "core/results/RunStatus.h"
#include "core/results/SeriesForecast.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace attnlab {

// How a run ended.
struct RunSummary {
    RunStatus status = RunStatus::Completed;
    int steps = 0;
    double seconds = 0.0;
    double bestDevAccuracy = 0.0;
    int bestStep = 0;
    double testAccuracy = 0.0;  // measured with the best-dev weights
    // Regression runs (time series): errors in the target's own units, de-normalised (thesis Table 6.2);
    // the best dev step is the one with the lowest dev RMSE.
    bool regression = false;
    double bestDevRmse = 0.0;
    double testMae = 0.0, testRmse = 0.0, testMape = 0.0; // MAPE in percent
    // Every test window's prediction: the store keeps it as the run's analysis "forecast"/"test" (not in toJson).
    std::optional<SeriesForecast> testForecast;
    // Classification, on test with the best-dev weights: macro-F1 and the confusion matrix
    // [true class][predicted class] (per-class precision/recall/F1 follow from it: ClassificationMetrics).
    double testMacroF1 = 0.0;
    std::vector<std::vector<std::int64_t>> testConfusion;
    // Translation, on test with the best-dev weights (the best dev step has the highest BLEU):
    // sacreBLEU's BLEU and chrF on detokenised text (0-100, signatures below), BLEU on the run's lowercased tokens
    // (as bentrevett/pytorch-seq2seq counts it), perplexity; on the synthetic tasks exact match (0-1) and the
    // attention's alignment error rate (0-1), -1 where not measured. bestDevAccuracy / testAccuracy then hold
    // BLEU / 100, so lists that rank runs by their score rank translation runs by BLEU.
    bool translation = false;
    double bestDevBleu = 0.0, testBleu = 0.0, testChrf = 0.0, testBleuTokenized = 0.0, testPerplexity = 0.0;
    double testExactMatch = -1.0, testAer = -1.0;
    std::string bleuSignature, chrfSignature;
    // Language models, on dev at the best step and on test with its weights: cross-entropy in nats per token, bits per
    // token (per character for a character model), perplexity (testPerplexity above). bestDevAccuracy / testAccuracy
    // then hold the next-token accuracy; the best dev step is the one of lowest loss.
    bool languageModel = false;
    double bestDevLoss = 0.0, testLoss = 0.0, testBitsPerToken = 0.0;
    bool stoppedEarly = false;  // early stopping ended the run before its budget (patience)
    std::int64_t parameters = 0;
    std::string device;
    std::string message;        // why it failed or diverged
    // What the trainer decided on its own while it ran, for the user (threads reduced while the cores were
    // busy elsewhere, steps capped by ATTNLAB_MAX_STEPS): the store appends them to the run's notes, the CLI
    // prints them. Not in toJson: the notes column is where they are read.
    std::vector<std::string> notes;

    // Every field as one JSON object (the run store's summary_json); fromJson takes missing keys as
    // their defaults, so older summaries still load, and throws std::invalid_argument on bad JSON.
    std::string toJson() const;
    static RunSummary fromJson(const std::string& json);
};

} // namespace attnlab
