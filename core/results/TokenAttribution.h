#pragma once
#include <limits>
#include <string>
#include <vector>

namespace attnlab {

// One explanation method's score per token of one sentence, for one class (ModelExplainer::attribute; the
// methods are AttributionOptions::methods()). Higher = more for the class; gradient x input, integrated
// gradients and occlusion are signed (a token can speak against the class).
struct TokenAttribution {
    std::string method;
    std::vector<std::string> tokens;
    std::vector<double> scores;     // one per token; empty when the method does not apply (see note)
    int targetClass = -1;
    double probability = 0;         // p(targetClass | sentence)
    std::string note;               // what was read (e.g. "AttnSeqRep pooling weights"), or why nothing
    double seconds = 0;             // wall time of this method on this sentence
    // Integrated gradients only (NaN otherwise): p(baseline), and the completeness gap
    // |sum of scores - (p(x) - p(baseline))|, the check of the path integral's accuracy.
    double baselineProbability = std::numeric_limits<double>::quiet_NaN();
    double completenessGap = std::numeric_limits<double>::quiet_NaN();
    int steps = 0;
    std::string baseline;

    bool available() const { return !scores.empty(); }
    std::string toJson() const; // one object: method, tokens, scores, target_class, probability, ...
};

} // namespace attnlab
