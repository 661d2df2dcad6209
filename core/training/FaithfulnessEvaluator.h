#pragma once
#include "core/config/AttributionOptions.h"
#include "core/data/TextExample.h"
#include "core/platform/CancelToken.h"
#include "core/results/FaithfulnessReport.h"
#include "core/results/SentenceDeletionCurve.h"
#include "core/results/TokenAttribution.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace attnlab {

class ModelExplainer;

// Measures how faithful each explanation method is to a run's model over a split's sentences:
// deletion and insertion curves of the predicted class's probability in each method's order, their AOPC and
// area, a random order as the floor, and rank agreement with attention (Kendall's tau-b). Tokens are
// deleted by replacing them with <unk> rather than removing them, so a sentence keeps its length and its
// positions (a position technique would otherwise see every later token move). All of one sentence's curve
// points go through the model in one batch with those of the next sentences, only those the 11 points sample.
// On the built-in grammar, whose label the clause after the last "but" decides, it also counts how often each
// method's top token falls in that clause (the known answer).
class FaithfulnessEvaluator {
public:
    struct Options {
        std::vector<std::string> methods; // empty: all of AttributionOptions::methods()
        AttributionOptions attribution;   // the predicted class is always the target
        std::uint64_t seed = 1;           // of the random order
        // Sentences whose curve points share one forward pass (padded to the longest). Measured on SST-fine
        // dev (1,101 sentences, ESSAN d_model 100, 2 cores): 8 per pass 107 s, 1 per pass 51 s: padding to the
        // longest of 8 and the larger allocations cost more than the per-operator overhead they save.
        std::size_t sentencesPerPass = 1;
    };
    using Progress = std::function<void(int done, int total)>;

    explicit FaithfulnessEvaluator(const ModelExplainer& explainer);

    // Stops early (complete = false) when cancelled; progress after every batch of sentences.
    FaithfulnessReport evaluate(const std::vector<TextExample>& examples, const std::string& split, const Options& options,
                                const CancelToken& cancel, const Progress& progress = {}) const;

    // One sentence's deletion curves, every k from 0 to T (not only the 11 points), for the methods that
    // scored it (attributions of one sentence and one target class, as ModelExplainer::attribute returns
    // them; methods without scores are left out). One forward pass for all of them.
    std::vector<SentenceDeletionCurve> deletionCurves(const std::vector<TokenAttribution>& attributions) const;

    // Token indices by decreasing score (ties: earlier first).
    static std::vector<int> orderOf(const std::vector<double>& scores);
    // A curve over 0..T tokens (T+1 values) sampled at 0%, 10%, ..., 100%: the value after round(f T) tokens.
    static std::vector<double> atPoints(const std::vector<double>& curve);
    // Kendall's tau-b of two score lists of one length (ties in either counted as neither concordant nor
    // discordant); NaN when either list is constant or shorter than 2.
    static double kendallTau(const std::vector<double>& a, const std::vector<double>& b);

private:
    const ModelExplainer& explainer_;
};

} // namespace attnlab
