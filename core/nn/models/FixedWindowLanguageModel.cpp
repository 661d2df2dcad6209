#include "core/nn/models/FixedWindowLanguageModel.h"

#include "core/nn/layers/DropoutMask.h"

namespace attnlab {

FixedWindowLanguageModel::FixedWindowLanguageModel(const ModelConfig& config)
    : config_(config), window_(config.order - 1), inputDrop_(1.0 - config.keepAt("input")),
      hiddenDrop_(1.0 - config.keepAt("hidden"))
{
    const int d = config.dModel, h = config.ffnHidden > 0 ? config.ffnHidden : 4 * config.dModel;
    tokens_ = register_module("tokens", torch::nn::Embedding(config.vocabularySize, d));
    hidden_ = register_module("hidden", torch::nn::Linear(window_ * d, h)); // H and d
    output_ = register_module("output", torch::nn::Linear(h, config.vocabularySize)); // U and b
}

torch::Tensor FixedWindowLanguageModel::predict(const torch::Tensor& embedded)
{
    const std::int64_t batch = embedded.size(0), length = embedded.size(1) - window_, d = embedded.size(2);
    auto x = DropoutMask::apply(embedded, inputDrop_, is_training());
    // Window j covers rows j .. j + k - 1; the token at row k + t (t = 0 .. T-1) is read by window t + 1.
    x = x.unfold(1, window_, 1).narrow(1, 1, length); // [B, T, d, k]
    x = x.transpose(2, 3).reshape({batch, length, window_ * d}); // [B, T, k d], oldest first
    auto hiddenState = torch::tanh(hidden_(x)); // tanh(d + H x)   [B, T, h]
    hiddenState = DropoutMask::apply(hiddenState, hiddenDrop_, is_training());
    return output_(hiddenState); // b + U tanh(...) [B, T, V]
}

torch::Tensor FixedWindowLanguageModel::forward(const torch::Tensor& ids,
                                                std::vector<torch::Tensor>* /*attention: none*/)
{
    const auto embedded = tokens_(ids); // [B, T, d]
    const auto before = torch::zeros({ids.size(0), window_, embedded.size(2)}, embedded.options());
    return predict(torch::cat({before, embedded}, 1));
}

LanguageModel::State FixedWindowLanguageModel::start(std::int64_t rows)
{
    State state;
    state.tensors.push_back(torch::zeros({rows, window_, config_.dModel}, tokens_->weight.options()));
    return state;
}

torch::Tensor FixedWindowLanguageModel::step(State& state, const torch::Tensor& ids,
                                             std::vector<torch::Tensor>* /*attention*/)
{
    auto& last = state.tensors.front();
    const auto embedded = torch::cat({last, tokens_(ids)}, 1); // [N, k + T, d]
    last = embedded.narrow(1, embedded.size(1) - window_, window_).contiguous();
    state.position += ids.size(1);
    const auto logits = predict(embedded);
    return logits.select(1, logits.size(1) - 1);
}

std::string FixedWindowLanguageModel::summary() const
{
    const int h = config_.ffnHidden > 0 ? config_.ffnHidden : 4 * config_.dModel;
    const std::string read = window_ == 1 ? "the token before" : "the last " + std::to_string(window_) + " tokens";
    return "fixed-window LM: the embeddings (" + std::to_string(config_.dModel) + ") of " + read +
        " concatenated, a tanh layer of " + std::to_string(h) + ", " + std::to_string(config_.vocabularySize) +
        " tokens";
}

} // namespace attnlab
