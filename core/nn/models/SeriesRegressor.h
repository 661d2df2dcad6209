#pragma once
// PRIVATE engine header: includes LibTorch.
#include <torch/torch.h>

#include <cstdint>
#include <string>
#include <vector>

namespace attnlab {

// Base of every time-series regressor: drivers [B, T, F] and the target's history [B, T] (its last,
// unknown step filled with the previous value, thesis 6.3) -> the predictions of y_T .. y_{T+H-1}, [B, H], all at once
// from the same past (H = ModelConfig::horizon; 1 is the thesis' one-step task).
// Attention is kept only while recording is on: self-attention per layer [B, H, T, T], DA-RNN's input
// attention over the driving series [B, T, F], temporal attention over encoder steps [B, T].
class SeriesRegressor : public torch::nn::Module {
public:
    virtual torch::Tensor forward(const torch::Tensor& drivers, const torch::Tensor& history) = 0;
    virtual std::string summary() const = 0;
    virtual void setRecordAttention(bool on) { record_ = on; }
    virtual std::vector<torch::Tensor> recordedAttention() const { return {}; }
    torch::Tensor recordedInputAttention() const { return inputAttention_; }
    torch::Tensor recordedTemporalAttention() const { return temporalAttention_; }

    std::int64_t trainableParameters() const;
    // Windows of one split: drivers [N, T, F], the target's history [N, T], the targets [N, H]; in time order.
    struct Windows {
        torch::Tensor drivers, history, target;
    };
    // A baseline fitted in closed form from the training windows (least squares) instead of by gradient steps:
    // RegressionTask calls fit once, before training; having no trainable parameters, it is then measured as is.
    // `dev` is for a baseline that chooses its own settings (ARIMA's orders); the others ignore it.
    virtual bool fitsInClosedForm() const { return false; }
    virtual void fit(const Windows& /*train*/, const Windows& /*dev*/) {}
    // What fitting chose that the run's notes should say ("ARIMA(2,1,0) chosen on dev ..."), or "".
    virtual std::string fitNote() const { return {}; }

protected:
    bool record_ = false;
    torch::Tensor inputAttention_, temporalAttention_;
};

} // namespace attnlab
