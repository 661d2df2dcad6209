#pragma once
#include "core/results/AttentionSnapshot.h"

#include <vector>

namespace attnlab {

// The one matrix read as a translation's alignment: the mean over the last layer's heads of its cross-attention
// (what AER, `translate`'s table and the window's "mean of heads" view read; TranslationTask takes the same mean
// on tensors). Maps of another shape than the last one are left out.
class AttentionAverage {
public:
    // The last layer's maps averaged, as one map of their shape (layer = the last layer, head 0); empty maps: an
    // empty map (size 0).
    static AttentionMap ofLastLayer(const std::vector<AttentionMap>& maps);
};

} // namespace attnlab
