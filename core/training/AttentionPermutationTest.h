#pragma once
#include "core/data/TextExample.h"
#include "core/platform/CancelToken.h"
#include "core/results/PermutationReport.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace attnlab {

class ModelExplainer;

// Jain & Wallace's (2019) attention permutation test on a run's model (PermutationReport): per sentence,
// `permutations` random orders of its tokens, each applied to every attention distribution of the model in
// one batch (ModelExplainer::probabilitiesWithAttentionPermuted), and the total variation distance of each
// output from the unpermuted one.
class AttentionPermutationTest {
public:
    struct Options {
        int permutations = 20;  // Jain & Wallace used 100; 20 gives the median within a few thousandths here
        std::uint64_t seed = 1;
    };
    using Progress = std::function<void(int done, int total)>;

    static PermutationReport measure(const ModelExplainer& explainer, const std::vector<TextExample>& examples,
                                     const std::string& split, const Options& options, const CancelToken& cancel,
                                     const Progress& progress = {});
    // Half the L1 distance between two distributions of one length.
    static double totalVariation(const std::vector<double>& p, const std::vector<double>& q);
    // The q-quantile (0..1) of values by linear interpolation between order statistics; 0 for none.
    static double quantile(std::vector<double> values, double q);
};

} // namespace attnlab
