#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/config/ModelConfig.h"
#include "core/nn/layers/AbsolutePositions.h"
#include "core/nn/layers/DropoutPoints.h"
#include "core/nn/layers/SelfAttention.h"
#include "core/nn/layers/SequencePooling.h"
#include "core/nn/models/SeriesRegressor.h"

#include <vector>

namespace attnlab {

// ESSAN for time series (thesis chapter 6): each step's input is the F driving values and the target's
// history value together, [B, T, F + 1] (thesis: [128, 10, 17]); then ESSAN's layers (multi-head,
// Swish, RPR by default), AttnSeqRep pooling, FF_sr and a linear output giving y_T.
class EssanRegressor : public SeriesRegressor {
public:
    EssanRegressor(const ModelConfig& config, int drivers);
    torch::Tensor forward(const torch::Tensor& drivers, const torch::Tensor& history) override;
    std::vector<torch::Tensor> recordedAttention() const override { return recorded_; }
    void setRecordAttention(bool on) override { record_ = on; recorded_.clear(); }
    std::string summary() const override;

private:
    ModelConfig config_;
    std::string activation_;
    AbsolutePositions positions_{nullptr};
    std::vector<SelfAttention> attention_;
    std::vector<torch::nn::Linear> afterAttention_;
    SequencePooling pooling_{nullptr};
    torch::nn::Linear sentence_{nullptr}, output_{nullptr};
    DropoutPoints dropout_{nullptr};
    std::vector<torch::Tensor> recorded_;
};

} // namespace attnlab
