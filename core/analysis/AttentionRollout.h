#pragma once
#include "core/results/AttentionSnapshot.h"

#include <optional>
#include <vector>

namespace attnlab {

// Attention rollout (Abnar & Zuidema 2020, "Quantifying Attention Flow in Transformers", eq. 1): how much
// each output position draws on each input token through all layers, with the residual connection
// counted as half of every layer's mixing. Per layer l, A_l is the mean of its heads' maps,
// Â_l = 0.5 A_l + 0.5 I with each row renormalised to sum to 1, and the rollout is Â_L · ... · Â_1.
// Rows of the result are distributions over the input tokens.
class AttentionRollout {
public:
    // From the maps of one input (all the same size, layers numbered from 0); nothing when there are no
    // maps. The result is an AttentionMap with layer = -1 and head = -1 (no single layer or head).
    static std::optional<AttentionMap> of(const std::vector<AttentionMap>& maps);
};

} // namespace attnlab
