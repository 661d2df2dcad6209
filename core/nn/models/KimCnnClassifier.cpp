#include "core/nn/models/KimCnnClassifier.h"

#include "core/nn/layers/EmbeddingLookup.h"

#include <sstream>

namespace attnlab {

KimCnnClassifier::KimCnnClassifier(const ModelConfig& config, Variant variant)
    : variant_(variant), widths_(variant == Variant::Kim ? std::vector<int> {3, 4, 5} : std::vector<int> {2, 3, 4}),
      config_(config)
{
    embedding_ = register_module(
        "embedding",
        torch::nn::Embedding(torch::nn::EmbeddingOptions(config.vocabularySize, config.inputDim()).padding_idx(0)));
    for (int width : widths_)
        convolutions_.push_back(
            register_module("conv" + std::to_string(width),
                            torch::nn::Conv1d(torch::nn::Conv1dOptions(config.inputDim(), config.filters, width))));
    const int features = static_cast<int>(widths_.size()) * config.filters;
    if (variant_ == Variant::EarlierLabCnn) {
        hidden_ = register_module("hidden", torch::nn::Linear(features, config.ffHidden));
        output_ = register_module("output", torch::nn::Linear(config.ffHidden, config.numClasses));
    } else {
        output_ = register_module("output", torch::nn::Linear(features, config.numClasses));
    }
    dropout_ = register_module("dropout", DropoutPoints(config));
}

torch::Tensor KimCnnClassifier::embed(const torch::Tensor& ids)
{
    return EmbeddingLookup::apply(embedding_, ids);
}

torch::Tensor KimCnnClassifier::forwardEmbedded(const torch::Tensor& embedded, const torch::Tensor& mask)
{
    const int64_t length = embedded.size(1);
    const int widest = widths_.back();
    auto x = dropout_->input(embedded) * mask.unsqueeze(-1).to(torch::kFloat); // zeros after the real tokens
    x = torch::constant_pad_nd(x.transpose(1, 2), {0, widest - 1}); // [B, E, T + widest - 1]
    auto lengths = mask.sum(1, /*keepdim=*/true); // [B, 1]
    auto starts = torch::arange(length, lengths.options()).unsqueeze(0); // [1, T]
    std::vector<torch::Tensor> pooled;
    for (std::size_t i = 0; i < convolutions_.size(); ++i) {
        auto maps = torch::relu(convolutions_[i](x)).slice(2, 0, length); // window starting at t, [B, F, T]
        // Windows that start on a real token; the first window always counts (short sentences).
        auto valid = (starts < torch::clamp_min(lengths - widths_[i] + 1, 1)).unsqueeze(1);
        pooled.push_back(maps.masked_fill(valid.logical_not(), -1e9).amax(2));
    }
    auto features = dropout_->hidden(torch::cat(pooled, 1)); // [B, widths x F]
    if (variant_ == Variant::EarlierLabCnn)
        return output_(dropout_->output(torch::relu(hidden_(features))));
    {
        torch::NoGradGuard noGrad; // Kim's max-norm: each class's weight row back to ||w|| <= s
        output_->weight.renorm_(2, 0, kMaxNorm);
    }
    return output_(dropout_->output(features));
}

std::string KimCnnClassifier::summary() const
{
    std::ostringstream s;
    if (variant_ == Variant::Kim)
        s << "Kim's CNN, filters 3/4/5 x " << config_.filters << ", max-over-time pooling, softmax layer (max-norm "
          << kMaxNorm << "), " << config_.numClasses << " classes";
    else
        s << "CNN (the lab's earlier cnn), filters 2/3/4 x " << config_.filters
          << ", max-over-time pooling, ReLU layer " << config_.ffHidden << ", " << config_.numClasses << " classes";
    return s.str();
}

} // namespace attnlab
