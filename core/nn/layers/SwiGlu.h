#pragma once
// PRIVATE engine header: includes LibTorch.
#include <torch/torch.h>

namespace attnlab {

// The gated feed-forward layer of the LLaMA family (Shazeer 2020, "GLU variants improve Transformer"):
//   FFN(x) = W_down (SiLU(W_gate x) * W_up x),   SiLU(z) = z sigmoid(z)
// no biases; d -> hidden -> d. Parameters named as GGUF's ffn_gate, ffn_up and ffn_down are (HF's gate_proj, ...).
class SwiGluImpl : public torch::nn::Module {
public:
    SwiGluImpl(int64_t width, int64_t hidden);
    torch::Tensor forward(const torch::Tensor& x); // [..., d] -> [..., d]
    torch::nn::Linear gate {nullptr}, up {nullptr}, down {nullptr};
};
TORCH_MODULE(SwiGlu);

} // namespace attnlab
