#pragma once
#include <vector>

namespace attnlab {

// What a model made of one labelled example (the explorer's dataset browser): its gold class, the class
// it predicted and the probability of every class.
struct ExamplePrediction {
    int gold = 0;
    int predicted = 0;
    std::vector<float> probabilities;

    bool correct() const { return gold == predicted; }
    float confidence() const { return probabilities.empty() ? 0.0f : probabilities[static_cast<std::size_t>(predicted)]; }
};

} // namespace attnlab
