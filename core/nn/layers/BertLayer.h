#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/results/AttentionStepByStep.h"

#include <torch/torch.h>

namespace attnlab {

// One layer of a BERT encoder (Devlin et al. 2019; Vaswani et al. 2017 with post-layer-norm and GELU):
//   A = softmax(Q K^T / sqrt(d_h) + mask) per head,   Q = X W^Q, K = X W^K, V = X W^V
//   X' = LayerNorm(X + (A V) W^O)
//   Y  = LayerNorm(X' + GELU(X' W_1) W_2)
// Its parameters are named as Hugging Face's BertLayer names them ("attention.self.query.weight",
// "intermediate.dense.bias", "output.LayerNorm.weight", ...), so a pretrained file's tensors load by name. They are
// allocated, not initialised (torch::empty): they always come from a file, and initialising 1.8 M values per layer
// at random only to overwrite them was most of the time opening a model took (perf).
struct BertDense {
    torch::Tensor weight, bias; // [out, in], [out]: y = x W^T + b
    torch::Tensor operator()(const torch::Tensor& x) const { return torch::linear(x, weight, bias); }
};
struct BertNorm {
    torch::Tensor weight, bias; // gamma, beta
    double eps = 1e-12;
    torch::Tensor operator()(const torch::Tensor& x) const { return torch::layer_norm(x, {weight.size(0)}, weight, bias, eps); }
};
// A plain module standing for one level of Hugging Face's names ("attention", "attention.self").
std::shared_ptr<torch::nn::Module> bertLevel(torch::nn::Module& parent, const std::string& name);
BertDense bertDense(torch::nn::Module& parent, const std::string& name, int64_t out, int64_t in);
BertNorm bertNorm(torch::nn::Module& parent, const std::string& name, int64_t size, double eps);

class BertLayerImpl : public torch::nn::Module {
public:
    BertLayerImpl(int64_t hidden, int64_t heads, int64_t intermediate, double eps, double dropout);

    struct Output {
        torch::Tensor hidden;    // [batch, T, hidden]
        torch::Tensor attention; // [batch, heads, T, T], after softmax
    };
    // x: [batch, T, hidden]; additiveMask: [batch, 1, 1, T], 0 for tokens and a large negative for padding.
    Output forward(const torch::Tensor& x, const torch::Tensor& additiveMask);
    // One head's attention for one query of the first sentence, step by step (AttentionStepByStep): q, k, v, each
    // q . k_j, the division by sqrt(d_h), the padding mask, the softmax and sum_j w_j v_j; beside it the row forward()
    // computes. The forward pass records its input for this while an AttentionInputRecorder is on.
    AttentionStepByStep stepByStep(const torch::Tensor& x, const torch::Tensor& additiveMask, int head, int query) const;

private:
    torch::Tensor heads(const BertDense& projection, const torch::Tensor& x) const; // [B, T, hidden] -> [B, heads, T, d_h]
    int64_t heads_;
    BertDense query_, key_, value_, attentionOut_, intermediate_, output_;
    BertNorm attentionNorm_, outputNorm_;
    torch::nn::Dropout dropout_{nullptr};
};
TORCH_MODULE(BertLayer);

} // namespace attnlab
