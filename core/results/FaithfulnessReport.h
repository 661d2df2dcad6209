#pragma once
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace attnlab {

// How faithful each explanation method is to one run's model on one split (FaithfulnessEvaluator).
// Per sentence, the predicted class's probability as tokens are taken away in the method's order of
// importance (deletion: the most important first, each replaced by <unk>) and as they are given back to a
// sentence of <unk> (insertion); the curves are sampled at 0%, 10%, ..., 100% of the sentence's tokens and
// averaged over sentences. AOPC (Samek et al. 2017) = mean over those points of p(0%) - p(f%): the higher,
// the more the method's top tokens carry the prediction. "random" is a random order, the floor to beat.
struct FaithfulnessReport {
    static constexpr int kPoints = 11;

    struct Method {
        std::string method;
        int sentences = 0;                   // sentences the method scored (0: it does not apply to the model)
        std::vector<double> deletion;        // kPoints: mean p(target) with 0%, 10%, ... of the tokens deleted
        std::vector<double> insertion;       // kPoints: mean p(target) with 0%, 10%, ... of the tokens given back
        double deletionAopc = 0;             // mean of p(0%) - p(f%) over the deletion points
        double insertionArea = 0;            // mean of the insertion points
        // Kendall's tau-b between this method's and the attention method's scores, per sentence, averaged
        // (NaN where the model has no attention, or for attention itself).
        double tauWithAttention = std::numeric_limits<double>::quiet_NaN();
        double seconds = 0;                  // computing its scores, over all sentences
        std::string note;
        // Data with a known answer (the built-in grammar, where the clause after the last "but" decides):
        // of the contrastSentences, how many had this method's top token inside that clause.
        int clauseHits = 0;
    };

    std::string split;                       // dev | test
    int examples = 0;                        // sentences evaluated
    double seconds = 0;                      // the whole evaluation
    std::uint64_t seed = 0;                  // of the random order
    int igSteps = 0;
    std::string igBaseline, occlusion;
    bool complete = true;                    // false when cancelled: the means are over `examples` so far
    std::vector<Method> methods;             // the requested methods in order, then "random"
    // The known answer, on synthetic-sentiment only (0 and NaN elsewhere): sentences with a contrast, and
    // the share of them a top token drawn at random would put in the deciding clause (its mean length share).
    int contrastSentences = 0;
    double clauseChance = std::numeric_limits<double>::quiet_NaN();

    const Method* find(const std::string& method) const;
    std::string toJson() const;
    static FaithfulnessReport fromJson(const std::string& json); // throws std::runtime_error when unreadable
};

} // namespace attnlab
