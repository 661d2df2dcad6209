#pragma once
#include "core/results/AttentionSnapshot.h"

#include <string>

namespace attnlab {

// The numbers behind an attention picture as long-format CSV, one weight per row:
//   view,layer,head,query,key,weight
// "map" rows for every self-attention map (layer and head from 1), "rollout" for the rollout (layer 0),
// "pooling" rows (key = the token), "input_attention" rows (query = the time step, key = the driver);
// a translation's "cross" rows (query = the target word, key = the source word; "map" is then the encoder's
// self-attention), "decoder" rows (its causal self-attention) and "gold" rows (a gold link, weight 1).
// Tokens are quoted, with inner quotes doubled (RFC 4180).
class AttentionCsv {
public:
    static std::string of(const AttentionSnapshot& snapshot);
};

} // namespace attnlab
