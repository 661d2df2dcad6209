#pragma once
#include "core/config/AttributionOptions.h"
#include "core/data/TextExample.h"
#include "core/platform/CancelToken.h"
#include "core/results/SeedAgreementReport.h"

#include <functional>
#include <string>
#include <vector>

namespace attnlab {

class ModelExplainer;

// Do runs that differ only in their seed attend alike, and is one run's attention any closer to its own
// attributions than the runs' attention maps are to each other (Jain & Wallace 2019)? For each sentence,
// every run scores its tokens with every method for the class it predicts; the scores become
// distributions over the tokens and are compared by Jensen-Shannon distance (SeedAgreementReport).
class SeedAgreement {
public:
    struct Options {
        std::vector<std::string> methods; // besides attention, which is always scored; empty: every method
        AttributionOptions attribution;
    };
    using Progress = std::function<void(int done, int total)>;

    // At least two runs of one dataset and vocabulary (their sentences must tokenise alike; one that does
    // not is skipped). Throws std::invalid_argument for fewer than two explainers.
    static SeedAgreementReport measure(const std::vector<const ModelExplainer*>& explainers,
                                       const std::vector<TextExample>& examples, const std::string& split,
                                       const Options& options, const CancelToken& cancel, const Progress& progress = {});

    // |s| / sum |s|; the uniform distribution when every score is 0.
    static std::vector<double> distributionOf(const std::vector<double>& scores);
    // sqrt(JSD(p, q)) with base-2 logarithms: in [0, 1]. p and q of one length, each summing to 1.
    static double jensenShannonDistance(const std::vector<double>& p, const std::vector<double>& q);
};

} // namespace attnlab
