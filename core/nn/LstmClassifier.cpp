#include "core/nn/LstmClassifier.h"

#include <sstream>

namespace attnlab {

LstmClassifier::LstmClassifier(const ModelConfig& config) : config_(config)
{
    const int d = config.dModel;
    embedding_ = register_module("embedding",
                                 torch::nn::Embedding(torch::nn::EmbeddingOptions(config.vocabularySize, d).padding_idx(0)));
    lstm_ = register_module("lstm", torch::nn::LSTM(torch::nn::LSTMOptions(d, d).num_layers(config.layers).batch_first(true)));
    hidden_ = register_module("hidden", torch::nn::Linear(d, config.ffHidden));
    output_ = register_module("output", torch::nn::Linear(config.ffHidden, config.numClasses));
    dropout_ = register_module("dropout", torch::nn::Dropout(1.0 - config.dropoutKeep));
}

torch::Tensor LstmClassifier::forward(const torch::Tensor& ids, const torch::Tensor& mask)
{
    auto x = dropout_(embedding_(ids));
    auto states = std::get<0>(lstm_->forward(x)); // [B, T, d]
    auto last = mask.to(torch::kLong).sum(1).clamp_min(1) - 1;
    auto index = last.view({-1, 1, 1}).expand({states.size(0), 1, states.size(2)});
    auto final = states.gather(1, index).squeeze(1);
    return output_(torch::relu(hidden_(final)));
}

std::string LstmClassifier::summary() const
{
    std::ostringstream s;
    s << config_.layers << "-layer LSTM, hidden " << config_.dModel << ", ReLU layer " << config_.ffHidden << ", "
      << config_.numClasses << " classes, input dropout keep " << config_.dropoutKeep;
    return s.str();
}

} // namespace attnlab
