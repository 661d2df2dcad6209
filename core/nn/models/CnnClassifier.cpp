#include "core/nn/models/CnnClassifier.h"

#include "core/nn/layers/EmbeddingLookup.h"

#include <sstream>

namespace attnlab {

int CnnClassifier::pooledFeatures(int length, int filters)
{
    int steps = 0;
    for (int width : kWidths)
        steps += (length - width + 1) / kPool;
    return filters * steps;
}

CnnClassifier::CnnClassifier(const ModelConfig& config) : config_(config), length_(config.paddedLength())
{
    embedding_ = register_module(
        "embedding", torch::nn::Embedding(torch::nn::EmbeddingOptions(config.vocabularySize, config.inputDim()).padding_idx(0)));
    for (int width : kWidths)
        convolutions_.push_back(register_module("conv" + std::to_string(width),
                                                torch::nn::Conv1d(torch::nn::Conv1dOptions(config.inputDim(), config.filters, width))));
    hidden_ = register_module("hidden", torch::nn::Linear(pooledFeatures(length_, config.filters), config.ffHidden));
    output_ = register_module("output", torch::nn::Linear(config.ffHidden, config.numClasses));
    dropout_ = register_module("dropout", DropoutPoints(config));
}

torch::Tensor CnnClassifier::embed(const torch::Tensor& ids)
{
    return EmbeddingLookup::apply(embedding_, ids);
}

torch::Tensor CnnClassifier::forwardEmbedded(const torch::Tensor& embedded, const torch::Tensor& mask)
{
    const int64_t batch = embedded.size(0), steps = embedded.size(1), width = embedded.size(2);
    auto x = dropout_->input(embedded) * mask.unsqueeze(-1).to(embedded.scalar_type());
    // M: position p of n reads token p + len - n, as Keras' pad_sequences does (zeros in front, a longer
    // sentence keeps its last n tokens).
    auto lengths = mask.sum(1, /*keepdim=*/true); // [B, 1]
    auto source = torch::arange(length_, lengths.options()).unsqueeze(0) + lengths - length_; // [B, n]
    auto present = (source >= 0).unsqueeze(-1).to(x.scalar_type()); // [B, n, 1]
    auto index = source.clamp(0, std::max<int64_t>(steps - 1, 0)).unsqueeze(-1).expand({batch, length_, width});
    auto m = (x.gather(1, index) * present).transpose(1, 2); // [B, R, n]
    std::vector<torch::Tensor> pooled;
    for (auto& convolution : convolutions_) {
        auto maps = torch::relu(convolution(m)); // [B, F, n - w + 1]
        pooled.push_back(torch::max_pool1d(maps, kPool).flatten(1)); // [B, F x floor((n - w + 1) / 2)]
    }
    auto features = dropout_->hidden(torch::cat(pooled, 1));
    return output_(dropout_->output(torch::relu(hidden_(features))));
}

std::string CnnClassifier::summary() const
{
    std::ostringstream s;
    s << "CNN (thesis 5.1.4), " << length_ << " tokens padded in front, filters 2/3/4 x " << config_.filters
      << ", max pooling of 2, ReLU layer " << config_.ffHidden << ", " << config_.numClasses << " classes";
    return s.str();
}

} // namespace attnlab
