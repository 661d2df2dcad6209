#include "core/nn/models/LinearClassifier.h"

#include "core/nn/layers/EmbeddingLookup.h"
#include "core/nn/layers/SequencePooling.h"

#include <sstream>

namespace attnlab {

LinearClassifier::LinearClassifier(const ModelConfig& config) : config_(config), bagOfWords_(config.model == "bow")
{
    if (bagOfWords_) {
        wordWeights_ = register_module(
            "word_weights", torch::nn::Embedding(torch::nn::EmbeddingOptions(config.vocabularySize, config.numClasses).padding_idx(0)));
        bias_ = register_parameter("bias", torch::zeros({config.numClasses}));
    } else {
        embedding_ = register_module(
            "embedding", torch::nn::Embedding(torch::nn::EmbeddingOptions(config.vocabularySize, config.inputDim()).padding_idx(0)));
        output_ = register_module("output", torch::nn::Linear(config.inputDim(), config.numClasses));
        dropout_ = register_module("dropout", DropoutPoints(config));
    }
}

torch::Tensor LinearClassifier::embed(const torch::Tensor& ids)
{
    return EmbeddingLookup::apply(bagOfWords_ ? wordWeights_ : embedding_, ids); // Bow: each word's row of W is its "embedding"
}

torch::Tensor LinearClassifier::forwardEmbedded(const torch::Tensor& embedded, const torch::Tensor& mask)
{
    if (bagOfWords_) // sum of per-word rows = W times the count vector
        return (embedded * mask.unsqueeze(-1).to(torch::kFloat)).sum(1) + bias_;
    return output_(SequencePoolingImpl::maskedMean(dropout_->input(embedded), mask));
}

std::string LinearClassifier::summary() const
{
    std::ostringstream s;
    s << (bagOfWords_ ? "Bow: logistic regression on " + std::to_string(config_.vocabularySize) + " word counts"
                      : "Ave: logistic regression on averaged " + std::to_string(config_.inputDim()) + "-d embeddings")
      << ", " << config_.numClasses << " classes";
    return s.str();
}

} // namespace attnlab
