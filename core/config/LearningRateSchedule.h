#pragma once
#include <string>

namespace attnlab {

// The learning rate at a step, as a factor of the base rate: constant; step decay (x gamma every N
// steps, thesis 6.3: x0.1 every 25k for SML2010); or linear warm-up then cosine decay to zero over the
// run's steps. A pure function of the step, so it is exact, testable and the same on any device.
class LearningRateSchedule {
public:
    struct Options {
        std::string kind = "constant"; // constant | step | cosine
        int decayEvery = 25000;        // step: steps between decays
        double gamma = 0.1;            // step: factor per decay
        int warmupSteps = 0;           // linear ramp from 0 over these steps (any kind)
        int totalSteps = 1;            // cosine: the run's length
        double floor = 0.0;            // cosine: the factor it ends at (min_learning_rate / learning_rate)
    };
    explicit LearningRateSchedule(Options options) : o_(std::move(options)) {}

    // Factor for step s (1-based: the factor the update of step s uses).
    double factor(int step) const;
    // Empty when the options can work, else a message naming the setting.
    static std::string validate(const Options& options);

private:
    Options o_;
};

} // namespace attnlab
