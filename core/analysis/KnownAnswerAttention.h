#pragma once
#include "core/results/AttentionSnapshot.h"

#include <optional>
#include <string>

namespace attnlab {

// On synthetic-lag the answer is known (y_t depends on driver k at lag L): how much of a snapshot's
// attention lands on it, next to what uniform attention would give. Input attention (DA-RNN) is averaged
// over the window's time steps; temporal attention (or AttnSeqRep) is read at the time step named t-L.
struct KnownAnswerAttention {
    std::string driver;         // the true driver's name
    int lag = -1;
    double driverShare = -1.0;  // mean input-attention weight on the true driver; -1 without input attention
    double driverUniform = 0.0; // 1 / drivers
    double lagShare = -1.0;     // temporal weight at t-L; -1 without temporal attention or no such step
    double lagUniform = 0.0;    // 1 / time steps

    // Nothing for snapshots without a known answer (real data, text).
    static std::optional<KnownAnswerAttention> of(const AttentionSnapshot& snapshot);
};

} // namespace attnlab
