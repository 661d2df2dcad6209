#include "core/nn/models/RecurrentClassifier.h"

#include "core/nn/layers/EmbeddingLookup.h"
#include "core/nn/layers/AttentionPermutation.h"

#include <sstream>

namespace attnlab {

RecurrentClassifier::RecurrentClassifier(const ModelConfig& config)
    : config_(config), attentionPooling_(config.model == "rnn-attention")
{
    const int d = config.dModel;
    const bool bidirectional = config.model == "bilstm" || config.model == "rnn-attention";
    const std::string cell = config.model == "gru" ? "gru" : config.model == "rnn" ? "rnn" : "lstm";
    embedding_ = register_module(
        "embedding", torch::nn::Embedding(torch::nn::EmbeddingOptions(config.vocabularySize, config.inputDim()).padding_idx(0)));
    encoder_ = register_module("encoder", RecurrentEncoder(cell, config.inputDim(), d, config.layers, bidirectional));
    const int width = bidirectional ? 2 * d : d;
    if (attentionPooling_) {
        attentionHidden_ = register_module("attention_hidden", torch::nn::Linear(width, d));
        attentionScore_ = register_module("attention_score", torch::nn::Linear(torch::nn::LinearOptions(d, 1).bias(false)));
    }
    hidden_ = register_module("hidden", torch::nn::Linear(width, config.ffHidden));
    output_ = register_module("output", torch::nn::Linear(config.ffHidden, config.numClasses));
    dropout_ = register_module("dropout", DropoutPoints(config));
}

torch::Tensor RecurrentClassifier::embed(const torch::Tensor& ids)
{
    return EmbeddingLookup::apply(embedding_, ids);
}

GateValues RecurrentClassifier::gates(const torch::Tensor& ids)
{
    torch::NoGradGuard noGrad;
    return encoder_->gates(embed(ids)[0]); // the encoder's input as forwardEmbedded's in evaluation (no dropout)
}

torch::Tensor RecurrentClassifier::forwardEmbedded(const torch::Tensor& embedded, const torch::Tensor& mask)
{
    auto encoded = encoder_(dropout_->input(embedded), mask, /*withStates=*/attentionPooling_, hostLengths());
    torch::Tensor sentence = encoded.final;
    if (attentionPooling_) {
        auto scores = attentionScore_(torch::tanh(attentionHidden_(encoded.states))).squeeze(-1); // [B, T]
        auto weights = AttentionPermutation::applyTo(torch::softmax(scores.masked_fill(mask.logical_not(), -1e9), -1));
        if (record_)
            lastPooling_ = weights.detach();
        sentence = torch::bmm(weights.unsqueeze(1), encoded.states).squeeze(1);
    }
    return output_(dropout_->output(torch::relu(hidden_(dropout_->hidden(sentence)))));
}

std::string RecurrentClassifier::summary() const
{
    std::ostringstream s;
    s << config_.layers << "-layer " << config_.model << ", hidden " << config_.dModel << ", ReLU layer " << config_.ffHidden
      << ", " << config_.numClasses << " classes, dropout keep " << dropout_->describe();
    return s.str();
}

} // namespace attnlab
