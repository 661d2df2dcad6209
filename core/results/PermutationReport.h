#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace attnlab {

// Jain & Wallace's (2019) permutation test on one run's model over a split (AttentionPermutationTest): for
// each sentence, every attention distribution of the model is permuted over the tokens, many times, and
// the output compared with the unpermuted one by total variation distance (TVD = half the L1 distance of
// the class distributions, 0..1). If attention explained the prediction, moving the weights to other
// tokens should change it; a median TVD near 0 says the model barely cares which token got which weight.
struct PermutationReport {
    std::string split;
    int permutations = 0;          // per sentence
    std::uint64_t seed = 0;
    int examples = 0;              // sentences read
    int tested = 0;                // of them with 2 or more tokens (one token has nothing to permute)
    bool complete = true;          // false when cancelled
    double seconds = 0;
    // Over the tested sentences, of each sentence's median TVD over its permutations:
    double medianTvd = 0, lowerQuartileTvd = 0, upperQuartileTvd = 0, meanTvd = 0;
    double shareBelow005 = 0;      // sentences whose median TVD < 0.05 (Jain & Wallace's "little change")
    double shareFlipped = 0;       // sentences whose predicted class changed under half the permutations or more
    // The same median TVD split by how peaked the sentence's attention is (its largest "attention" score,
    // the weights the Explorer shows): below 0.25, 0.25 to 0.5, 0.5 and above; sentences in each.
    std::vector<double> medianTvdByPeak = std::vector<double>(3, 0.0);
    std::vector<int> sentencesByPeak = std::vector<int>(3, 0);
    std::string note;              // why nothing was tested (a model without attention)

    std::string toJson() const;
};

} // namespace attnlab
