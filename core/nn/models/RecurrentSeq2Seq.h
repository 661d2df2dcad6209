#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/config/ModelConfig.h"
#include "core/nn/layers/DropoutPoints.h"
#include "core/nn/layers/RecurrentAttention.h"
#include "core/nn/models/RecurrentEncoder.h"
#include "core/nn/models/SelfAttentionEncoder.h"
#include "core/nn/models/Seq2SeqModel.h"

namespace attnlab {

// The recurrent encoder-decoders of the lecture decks, GRUs of d_model units (ModelConfig::model):
// - seq2seq (Cho et al. 2014): a GRU reads the source into its final state c; the decoder starts from
//   tanh(W c) and sees c at every step, s_i = GRU([y_{i-1}; c], s_{i-1}), p(y_i) = softmax(W_o [y_{i-1}; s_i; c]).
//   No attention: the whole sentence must fit into c, which is what fails on long inputs.
// - bahdanau (Bahdanau, Cho & Bengio 2015): a bidirectional GRU gives h_j = [->h_j; <-h_j]; before step i the
//   previous state s_{i-1} scores every h_j (additive: v^T tanh(W s_{i-1} + U h_j)), c_i = sum_j a_ij h_j, then
//   s_i = GRU([y_{i-1}; c_i], s_{i-1}) and p(y_i) = softmax(W_o [y_{i-1}; s_i; c_i]).
// - luong (Luong, Pham & Manning 2015): the same encoder, its states projected to d_model; the decoder's new
//   state h_t = GRU([y_{t-1}; h~_{t-1}], h_{t-1}) (input feeding) scores the source (dot, general or concat;
//   global, local-m or local-p), h~_t = tanh(W_c [c_t; h_t]), p(y_t) = softmax(W_s h~_t).
// The decoder starts from tanh(W_b [->h_S; <-h_1]) in all three. One layer each side (ModelConfig::layers
// stacks the encoder only).
// transformer-bahdanau and transformer-luong (Domhan 2018's mixed models) keep the decoder and replace the BiGRU
// with a self-attention encoder (SelfAttentionEncoder, ModelConfig::layers layers): h_j is its state, d_model wide,
// and the decoder starts from tanh(W_b mean_j h_j), the encoder having no final state.
class RecurrentSeq2Seq : public Seq2SeqModel {
public:
    explicit RecurrentSeq2Seq(const ModelConfig& config);

    Encoded encode(const torch::Tensor& source, const torch::Tensor& sourceMask) override;
    DecoderState start(const Encoded& encoded) override;
    StepFeatures advance(const Encoded& encoded, DecoderState& state, const torch::Tensor& previous, int64_t step) override;
    torch::Tensor project(const torch::Tensor& features) override; // W_o (Luong: W_s) after the output dropout
    Forced forced(const torch::Tensor& source, const torch::Tensor& sourceMask, const torch::Tensor& targetIn) override;
    int attentionLayers() const override { return attention_ ? 1 : 0; }
    int attentionHeads() const override { return attention_ ? 1 : 0; }
    bool hasSelfAttention() const override { return static_cast<bool>(selfAttentionEncoder_); }
    std::string summary() const override;

private:
    enum class Kind { Plain, Bahdanau, Luong };
    Kind kind_;
    ModelConfig config_;
    torch::nn::Embedding sourceEmbedding_{nullptr}, targetEmbedding_{nullptr};
    RecurrentEncoder encoder_{nullptr};
    SelfAttentionEncoder selfAttentionEncoder_{nullptr}; // the mixed models' encoder, instead of encoder_
    // encode(), keeping the self-attention encoder's weights per layer [N, H, S, S] when asked.
    Encoded encode(const torch::Tensor& source, const torch::Tensor& sourceMask, std::vector<torch::Tensor>* selfAttention);
    torch::nn::Linear bridge_{nullptr}, keys_{nullptr}, combine_{nullptr}, output_{nullptr};
    torch::nn::GRUCell decoder_{nullptr};
    RecurrentAttention attention_{nullptr};
    DropoutPoints dropout_{nullptr};
};

} // namespace attnlab
