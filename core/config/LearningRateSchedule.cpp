#include "core/config/LearningRateSchedule.h"

#include <algorithm>
#include <cmath>

namespace attnlab {

double LearningRateSchedule::factor(int step) const
{
    if (o_.warmupSteps > 0 && step <= o_.warmupSteps)
        return static_cast<double>(step) / o_.warmupSteps;
    if (o_.kind == "step")
        return std::pow(o_.gamma, (step - 1) / o_.decayEvery); // steps 1..N at 1, N+1..2N at gamma, ...
    if (o_.kind == "cosine") {
        const int span = std::max(1, o_.totalSteps - o_.warmupSteps);
        const double progress = std::clamp(static_cast<double>(step - o_.warmupSteps) / span, 0.0, 1.0);
        return o_.floor + (1.0 - o_.floor) * 0.5 * (1.0 + std::cos(M_PI * progress)); // nanoGPT's get_lr
    }
    return 1.0;
}

std::string LearningRateSchedule::validate(const Options& o)
{
    if (o.kind != "constant" && o.kind != "step" && o.kind != "cosine")
        return "lr_schedule: unknown '" + o.kind + "' (known: constant, step, cosine)";
    if (o.kind == "step" && o.decayEvery < 1)
        return "lr_decay_every: must be at least 1 step (got " + std::to_string(o.decayEvery) + ")";
    if (o.kind == "step" && !(o.gamma > 0.0 && o.gamma <= 1.0))
        return "lr_decay_gamma: must be in (0, 1] (got " + std::to_string(o.gamma) + ")";
    if (o.warmupSteps < 0)
        return "warmup_steps: must be 0 or more (got " + std::to_string(o.warmupSteps) + ")";
    return {};
}

} // namespace attnlab
