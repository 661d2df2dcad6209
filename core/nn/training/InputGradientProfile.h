#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/nn/layers/TensorConversions.h"
#include "core/nn/models/SequenceClassifier.h"

#include <vector>

namespace attnlab {

// How far back a classifier's training signal reaches: for each example, the norm of the loss's gradient with
// respect to each word vector, ||dL/de_t|| (L the example's cross-entropy, e_t = embed(ids)[t]), averaged by
// the word's distance from the sentence's last word, d = length - 1 - t. A recurrent network reads its last
// state, so d counts the steps the gradient travels back through; a plain RNN's falls with d, a gate's less,
// self-attention's not at all (Bengio et al. 1994; Pascanu et al. 2013).
class InputGradientProfile {
public:
    // Mean ||dL/de_t|| by distance d = 0, 1, ... (the longest sentence's length - 1) over the batches' examples: of
    // each batch, its first ceil(rows x share) rows, so a subsample keeps the batches' spread of lengths. The
    // model is put in eval mode (no dropout) and left so; on a GPU cuDNN is off for the pass (its RNN backward
    // needs training mode). Parameters' gradients are not touched.
    static std::vector<double> measure(SequenceClassifier& model, const std::vector<TensorBatch>& batches,
                                       double share = 1.0);
    // The share of `total` examples that measures about `wanted` of them (1 when there are fewer).
    static double shareFor(std::int64_t total, std::int64_t wanted);
};

} // namespace attnlab
