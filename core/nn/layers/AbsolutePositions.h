#pragma once
// PRIVATE engine header: includes LibTorch.
#include <torch/torch.h>

#include <string>

namespace attnlab {

// Position information added to the input embeddings: sinusoidal (fixed) or learned (one trained
// vector per position up to maxLength). Techniques that act inside attention pass through untouched.
class AbsolutePositionsImpl : public torch::nn::Module {
public:
    AbsolutePositionsImpl(const std::string& technique, int width, int maxLength);
    // [B, T, width] at positions offset .. offset + T - 1 (offset > 0: a decoder's newest token, step by step)
    torch::Tensor forward(const torch::Tensor& embeddings, int64_t offset = 0);

private:
    std::string technique_;
    int maxLength_;
    torch::nn::Embedding learned_{nullptr};
};
TORCH_MODULE(AbsolutePositions);

} // namespace attnlab
