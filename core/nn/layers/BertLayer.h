#pragma once
// PRIVATE engine header: includes LibTorch.
#include <torch/torch.h>

namespace attnlab {

// One layer of a BERT encoder (Devlin et al. 2019; Vaswani et al. 2017 with post-layer-norm and GELU):
//   A = softmax(Q K^T / sqrt(d_h) + mask) per head,   Q = X W^Q, K = X W^K, V = X W^V
//   X' = LayerNorm(X + (A V) W^O)
//   Y  = LayerNorm(X' + GELU(X' W_1) W_2)
// Its submodules are named as Hugging Face's BertLayer names them ("attention.self.query", "intermediate.dense",
// "output.LayerNorm", ...), so a pretrained file's tensors load by name.
class BertLayerImpl : public torch::nn::Module {
public:
    BertLayerImpl(int64_t hidden, int64_t heads, int64_t intermediate, double eps, double dropout);

    struct Output {
        torch::Tensor hidden;    // [batch, T, hidden]
        torch::Tensor attention; // [batch, heads, T, T], after softmax
    };
    // x: [batch, T, hidden]; additiveMask: [batch, 1, 1, T], 0 for tokens and a large negative for padding.
    Output forward(const torch::Tensor& x, const torch::Tensor& additiveMask);

private:
    int64_t heads_;
    torch::nn::Linear query_{nullptr}, key_{nullptr}, value_{nullptr}, attentionOut_{nullptr};
    torch::nn::LayerNorm attentionNorm_{nullptr};
    torch::nn::Linear intermediate_{nullptr}, output_{nullptr};
    torch::nn::LayerNorm outputNorm_{nullptr};
    torch::nn::Dropout dropout_{nullptr};
};
TORCH_MODULE(BertLayer);

} // namespace attnlab
