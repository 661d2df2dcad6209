#pragma once
// PRIVATE engine header: includes LibTorch.
#include <torch/torch.h>

namespace attnlab {

// The position techniques that are plain functions of positions (no parameters):
// sinusoidal encodings (Vaswani et al. 2017, thesis section 3.3), rotary embeddings (RoPE, Su et al.
// 2021) and ALiBi biases (Press et al. 2022, symmetric |j - i| for an encoder).
class PositionEncoding {
public:
    // PE(pos, 2i) = sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(pos / 10000^(2i/d)); [length, d].
    static torch::Tensor sinusoidal(int64_t length, int64_t d, const torch::TensorOptions& options);
    // Rotates consecutive pairs (x_2i, x_2i+1) of the last dimension by angle pos * base^(-2i/dh);
    // x: [B, H, T, dh] with dh even. Norms are preserved and q.k depends only on the offset. Positions offset ..
    // offset + T - 1 (a decoder's step). The base is 10000 in Su et al. and the lab's models, 100000 in SmolLM2;
    // pairs of neighbours are GPT-J's and ggml's layout (HF's LLaMA rotates halves: its rows permuted).
    static torch::Tensor rotary(const torch::Tensor& x, int64_t offset = 0, double base = 10000.0);
    // Head slopes m_h = 2^(-8 h / H), h = 1..H.
    static torch::Tensor alibiSlopes(int64_t heads, const torch::TensorOptions& options);
    // Additive attention bias -m_h * |j - i|: [H, T, T].
    static torch::Tensor alibiBias(int64_t heads, int64_t length, const torch::TensorOptions& options);
};

} // namespace attnlab
