#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/nn/layers/GroupedQueryAttention.h"
#include "core/nn/layers/RmsNorm.h"
#include "core/nn/layers/SwiGlu.h"

namespace attnlab {

// One decoder layer of the LLaMA family, pre-norm with RMSNorm:
//   h = x + Attention(RMSNorm(x)),   y = h + SwiGLU(RMSNorm(h))
// (GGUF's blk.N: attn_norm, attn_q/k/v/output, ffn_norm, ffn_gate/up/down).
class LlamaBlockImpl : public torch::nn::Module {
public:
    LlamaBlockImpl(int64_t width, int64_t heads, int64_t kvHeads, int64_t headSize, int64_t ffnHidden, double ropeBase,
                   double eps);
    // x [B, T, d]; keys/values the layer's cache or nullptr; weights [B, H, T, S] when asked for.
    torch::Tensor forward(const torch::Tensor& x, torch::Tensor* keys = nullptr, torch::Tensor* values = nullptr,
                          torch::Tensor* weights = nullptr, const HeadAblation& ablation = {});

    RmsNorm attentionNorm {nullptr}, ffnNorm {nullptr};
    GroupedQueryAttention attention {nullptr};
    SwiGlu ffn {nullptr};
};
TORCH_MODULE(LlamaBlock);

} // namespace attnlab
