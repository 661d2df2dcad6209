#pragma once
#include <string>
#include <vector>

namespace attnlab {

// How much explanations agree across runs that differ only in their seed, and how far each run's attention
// is from its own attributions (SeedAgreement, the question of Jain & Wallace 2019). Every score
// list is read as a distribution over the sentence's tokens (|score| / sum |score|) and compared by the
// Jensen-Shannon distance (base 2: 0 = the same distribution, 1 = disjoint supports), averaged over sentences.
struct SeedAgreementReport {
    struct Method {
        std::string method;
        int sentences = 0;          // sentences every run scored with it
        double acrossSeeds = 0;     // mean over sentences of the mean JS distance over pairs of runs
        double toAttention = 0;     // mean over sentences and runs of JS(run's attention, run's method); NaN without attention
        double toUniform = 0;       // mean JS distance from the uniform distribution: how peaked the method is
        std::string note;           // why it has no sentences (the models have no attention, ...)
    };

    std::string split;
    std::vector<long long> runs;     // the run ids compared
    std::vector<double> accuracies;  // each run's accuracy on these sentences, in the runs' order
    int examples = 0;                // sentences compared
    bool complete = true;            // false when cancelled
    double seconds = 0;
    std::vector<Method> methods;     // attention first, then the others in the order asked

    const Method* find(const std::string& method) const;
    std::string toJson() const;
};

} // namespace attnlab
