#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/config/ModelConfig.h"
#include "core/nn/layers/DropoutPoints.h"
#include "core/nn/models/RecurrentEncoder.h"
#include "core/nn/models/SequenceClassifier.h"

namespace attnlab {

// The recurrent baselines of Barnes et al. (2017), thesis 5.1.4: embeddings (dropout) -> RNN / LSTM / GRU,
// or a bidirectional LSTM -> final state(s) -> ReLU layer of ffHidden units -> softmax layer.
// With attention pooling ("rnn-attention") the states are pooled by additive attention instead:
//   e_t = v^T tanh(W h_t + b),  a = softmax(e) over real steps,  s = sum_t a_t h_t.
class RecurrentClassifier : public SequenceClassifier {
public:
    explicit RecurrentClassifier(const ModelConfig& config);
    torch::Tensor embed(const torch::Tensor& ids) override;
    torch::Tensor forwardEmbedded(const torch::Tensor& embedded, const torch::Tensor& mask) override;
    void setRecordAttention(bool on) override { record_ = on; }
    torch::Tensor recordedPooling() const override { return record_ ? lastPooling_ : torch::Tensor(); }
    std::string summary() const override;
    GateValues gates(const torch::Tensor& ids) override;
    // Without host lengths on a GPU, the encoder runs padded from the mask (RecurrentEncoder::forwardPadded).
    bool capturable() const override { return encoder_->runsPadded(); }

private:
    ModelConfig config_;
    bool attentionPooling_;
    torch::nn::Embedding embedding_{nullptr};
    RecurrentEncoder encoder_{nullptr};
    torch::nn::Linear attentionHidden_{nullptr}, attentionScore_{nullptr};
    torch::nn::Linear hidden_{nullptr}, output_{nullptr};
    DropoutPoints dropout_{nullptr};
    bool record_ = false;
    torch::Tensor lastPooling_;
};

} // namespace attnlab
