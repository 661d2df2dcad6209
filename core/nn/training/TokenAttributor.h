#pragma once
// PRIVATE engine header: includes LibTorch. Only core/*.cpp and core tests may include it.
#include "core/config/AttributionOptions.h"
#include "core/nn/models/SequenceClassifier.h"
#include "core/results/TokenAttribution.h"

#include <string>
#include <vector>

namespace attnlab {

// The explanation methods on one sentence of a loaded classifier (eval mode, CPU or GPU): each
// scores every token for one class, the function explained being that class's softmax probability p. The
// gradient methods differentiate through SequenceClassifier::forwardEmbedded with respect to the word
// vectors e = embed(ids) [1,T,E]; integrated gradients and occlusion batch their T or m inputs in one
// forward. Not thread-safe: the model records attention as state (the explainer holds its lock).
class TokenAttributor {
public:
    // ids and mask [1,T], every token real.
    TokenAttributor(SequenceClassifier& model, torch::Tensor ids, torch::Tensor mask, std::int64_t unknownId);

    torch::Tensor probabilities();           // [C] of the sentence, double
    TokenAttribution run(const std::string& method, const AttributionOptions& options);

    // The methods by name; each fills scores (and note, and IG's completeness), for class c.
    void attention(TokenAttribution& out);
    void rollout(TokenAttribution& out);
    void attentionGradient(TokenAttribution& out, std::int64_t c);
    void gradient(TokenAttribution& out, std::int64_t c, bool timesInput);
    void integratedGradients(TokenAttribution& out, std::int64_t c, int steps, const std::string& baseline);
    void occlusion(TokenAttribution& out, std::int64_t c, const std::string& mode);

private:
    torch::Tensor probability(const torch::Tensor& embedded, const torch::Tensor& mask, std::int64_t c); // [B]
    // [T] the weights by which the sentence vector reads its positions, from pooling weights already read
    // (empty: none); *name says which readout it is.
    torch::Tensor readoutOf(const std::vector<float>& pooling, std::string* name) const;
    static std::vector<double> values(const torch::Tensor& scores);

    SequenceClassifier& model_;
    torch::Tensor ids_, mask_;
    std::int64_t unknownId_;
    std::int64_t length_;
};

} // namespace attnlab
