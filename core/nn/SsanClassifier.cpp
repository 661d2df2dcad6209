#include "core/nn/SsanClassifier.h"

#include <sstream>

namespace attnlab {

SsanClassifier::SsanClassifier(const ModelConfig& config) : config_(config)
{
    const int d = config.dModel;
    embedding_ = register_module("embedding",
                                 torch::nn::Embedding(torch::nn::EmbeddingOptions(config.vocabularySize, d).padding_idx(0)));
    const int clip = config.position == "rpr" ? config.rprClip : 0;
    for (int l = 0; l < config.layers; ++l) {
        attention_.push_back(register_module("attention" + std::to_string(l), SelfAttention(d, 1, clip, true)));
        afterAttention_.push_back(register_module("ff" + std::to_string(l), torch::nn::Linear(d, d)));
    }
    sentence_ = register_module("sentence", torch::nn::Linear(d, d));
    output_ = register_module("output", torch::nn::Linear(d, config.numClasses));
    dropout_ = register_module("dropout", torch::nn::Dropout(1.0 - config.dropoutKeep));
}

torch::Tensor SsanClassifier::forward(const torch::Tensor& ids, const torch::Tensor& mask)
{
    if (record_)
        recorded_.clear();
    auto x = dropout_(embedding_(ids));
    for (std::size_t l = 0; l < attention_.size(); ++l) {
        auto attended = attention_[l]->forward(x, mask);
        if (record_)
            recorded_.push_back(attended.weights.detach());
        x = dropout_(torch::relu(afterAttention_[l](attended.output)));
    }
    // Mean over real positions only, so padding never changes the sentence vector.
    auto realPositions = mask.unsqueeze(-1).to(x.dtype());
    auto pooled = (x * realPositions).sum(1) / realPositions.sum(1).clamp_min(1.0);
    auto sentence = dropout_(torch::relu(sentence_(pooled)));
    return output_(sentence);
}

std::string SsanClassifier::summary() const
{
    std::ostringstream s;
    s << config_.layers << "-layer SSAN, d_model " << config_.dModel << ", "
      << (config_.position == "rpr" ? "RPR k=" + std::to_string(config_.rprClip) : std::string("no position information"))
      << ", " << config_.numClasses << " classes, dropout keep " << config_.dropoutKeep;
    return s.str();
}

} // namespace attnlab
