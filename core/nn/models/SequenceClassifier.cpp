#include "core/nn/models/SequenceClassifier.h"

#include "core/nn/layers/TensorConversions.h"

namespace attnlab {

torch::Tensor SequenceClassifier::forward(const torch::Tensor& ids, const torch::Tensor& mask, const torch::Tensor& hostLengths)
{
    // Held for this call only (cleared however it ends), so a later forward(ids, mask) never sees stale lengths.
    struct Scope {
        torch::Tensor& slot;
        ~Scope() { slot = torch::Tensor(); }
    } scope{hostLengths_};
    hostLengths_ = hostLengths;
    return forwardEmbedded(embed(ids), mask);
}

std::int64_t SequenceClassifier::trainableParametersWithoutEmbedding() const
{
    std::int64_t count = 0;
    for (const auto& item : named_parameters(/*recurse=*/true)) {
        const auto& key = item.key();
        const bool wordTable = key.rfind("embedding.", 0) == 0 || key == "encoder.embeddings.word_embeddings.weight";
        if (wordTable || !item.value().requires_grad())
            continue;
        count += item.value().numel();
    }
    return count;
}

} // namespace attnlab

namespace attnlab {

std::vector<AttentionMap> SequenceClassifier::attentionOfFirst(const torch::Tensor& ids, const torch::Tensor& mask,
                                                               std::vector<float>* pooling)
{
    return attentionOfFirst(ids, mask, pooling, nullptr);
}

std::vector<AttentionMap> SequenceClassifier::attentionOfFirst(const torch::Tensor& ids, const torch::Tensor& mask,
                                                               std::vector<float>* pooling, torch::Tensor* logits)
{
    torch::NoGradGuard noGrad;
    const bool wasTraining = is_training();
    eval();
    setRecordAttention(true);
    auto output = forward(ids, mask);
    if (logits)
        *logits = output;
    auto layers = recordedAttention();
    auto poolingWeights = recordedPooling();
    setRecordAttention(false);
    train(wasTraining);
    std::vector<AttentionMap> maps;
    const int64_t n = mask[0].sum().item<int64_t>();
    if (pooling && poolingWeights.defined()) {
        auto w = poolingWeights[0].slice(0, 0, n).to(torch::kCPU, torch::kFloat).contiguous();
        *pooling = hostFloats(w);
    }
    for (std::size_t l = 0; l < layers.size(); ++l) {
        for (int64_t h = 0; h < layers[l].size(1); ++h) {
            auto w = layers[l][0][h].slice(0, 0, n).slice(1, 0, n).to(torch::kCPU, torch::kFloat).contiguous();
            AttentionMap map;
            map.layer = static_cast<int>(l);
            map.head = static_cast<int>(h);
            map.size = static_cast<int>(n);
            map.weights = hostFloats(w);
            maps.push_back(std::move(map));
        }
    }
    return maps;
}

} // namespace attnlab
