#pragma once
// PRIVATE engine header: includes LibTorch.
#include <torch/torch.h>

#include <functional>
#include <string>

namespace attnlab {

// One Transformer sub-layer f inside its residual connection and LayerNorm, wired as ModelConfig::layerNorm and
// ::residual say, with drop the dropout on its branch:
//   pre  (Xiong et al. 2020; GPT-2):       x + drop(f(LN(x)))
//   post (Vaswani et al. 2017):            LN(x + drop(f(x)))
//   none:                                  x + drop(f(x))
// and without the residual the same without "x +" (the lesson on what residuals and LayerNorm buy). norm is unused
// (may be empty) for "none". The one place the Transformer classifier, the GPT block and the translation
// Transformer wire their sub-layers.
class ResidualSublayer {
public:
    using Function = std::function<torch::Tensor(const torch::Tensor&)>;
    static torch::Tensor apply(const torch::Tensor& x, torch::nn::LayerNorm& norm, const std::string& layerNorm, bool residual,
                               const Function& f, const Function& drop);
};

} // namespace attnlab
