#pragma once
// PRIVATE engine header: includes LibTorch.
#include <torch/torch.h>

#include <string>

namespace attnlab {

// Reduces [B, T, d] to [B, d] over the real positions only: mean (SSAN), max, or ESSAN's
// attention-based sequence representation (thesis 4.2, AttnSeqRep without its final FF_sr, which the
// classifier applies as it applies SSAN's sentence FF):
//   q = mean_t FF_q(x_t);  keys = values = x;  result = sum_t softmax_t(q . x_t / sqrt(d)) x_t.
class SequencePoolingImpl : public torch::nn::Module {
public:
    SequencePoolingImpl(const std::string& kind, int width, const std::string& activation, bool maskProjections);
    torch::Tensor forward(const torch::Tensor& x, const torch::Tensor& mask);
    // [B, T] weights of the last attention pooling; undefined for mean and max.
    torch::Tensor lastWeights() const { return lastWeights_; }

    static torch::Tensor maskedMean(const torch::Tensor& x, const torch::Tensor& mask);

private:
    std::string kind_, activation_;
    bool maskProjections_;
    torch::nn::Linear query_{nullptr};
    torch::Tensor lastWeights_;
};
TORCH_MODULE(SequencePooling);

} // namespace attnlab
