#pragma once
// PRIVATE engine header: includes LibTorch.
#include <torch/torch.h>

namespace attnlab {

// Root-mean-square layer normalisation (Zhang & Sennrich 2019), the LLaMA family's norm:
//   y = x / sqrt(mean_i x_i^2 + eps) * g
// over the last dimension, with a learned gain g (initialised to ones) and, unlike LayerNorm, no mean
// subtracted and no bias. Written here because LibTorch 1.13 (Debian's) has no RMSNorm module; 2.4+'s
// torch::nn::RMSNorm computes the same. The parameter is named "weight", as the GGUF and HF files name it.
class RmsNormImpl : public torch::nn::Module {
public:
    explicit RmsNormImpl(int64_t width, double eps = 1e-5);
    torch::Tensor forward(const torch::Tensor& x); // [..., width] -> [..., width]
    double eps() const { return eps_; }
    torch::Tensor weight;

private:
    double eps_;
};
TORCH_MODULE(RmsNorm);

} // namespace attnlab
