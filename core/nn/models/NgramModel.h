#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/config/ModelConfig.h"
#include "core/nn/models/LanguageModel.h"

#include <memory>
#include <string>
#include <unordered_map>

namespace attnlab {

// A count-based n-gram model (Jurafsky & Martin ch. 3; Chen & Goodman 1999), the baseline of every
// language-model lesson. estimate() counts every k-gram of the training stream, k = 1 .. n, once; nothing is
// trained by gradient. A token is predicted from the m = min(n - 1, tokens before it in the window) before it, h:
//   add-k:       P(w | h) = (c(h w) + k) / (c(h .) + k V)      (c(h .) = sum over w of c(h w); m = 0: c(w), N)
//   Kneser-Ney:  P_top(w | h) = max(c(h w) - D, 0) / c(h .) + D T(h) / c(h .) P_cont(w | h')
//                the lower orders the same on continuation counts N1+(. g w) (distinct tokens seen before g w),
//                down to the uniform 1/V; T(h) = distinct w after h; a history never seen passes its whole mass
//                down; D = n1 / (n1 + 2 n2) per order from the counts of counts (Ney et al. 1994).
// The counts are buffers (every k-gram as its k ids and its count), so a checkpoint keeps them; the tables the
// probabilities are read from are built from them at the first use after estimate() or a load.
class NgramModel : public LanguageModel {
public:
    explicit NgramModel(const ModelConfig& config);
    ~NgramModel() override;
    void estimate(const std::vector<std::int32_t>& train);
    // Log-probabilities as the logits (their softmax is the distribution itself).
    torch::Tensor forward(const torch::Tensor& ids, std::vector<torch::Tensor>* attention = nullptr) override;
    State start(std::int64_t rows) override;
    torch::Tensor step(State& state, const torch::Tensor& ids, std::vector<torch::Tensor>* attention = nullptr) override;
    std::string summary() const override;
    // P(w | history) for every w (history: its last n - 1 tokens are used), for tests and views.
    std::vector<double> distribution(const std::vector<std::int32_t>& history);

private:
    struct Tables;
    const Tables& tables();
    ModelConfig config_;
    std::vector<torch::Tensor> counts_; // per order k = 1..n: [M_k, k + 1] long, the k ids then the count
    std::unique_ptr<Tables> tables_;
    const void* builtFrom_ = nullptr;   // the first buffer's storage the tables were built from
};

} // namespace attnlab
