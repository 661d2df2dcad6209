#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/config/ModelConfig.h"
#include "core/nn/layers/AbsolutePositions.h"
#include "core/nn/layers/CrossAttention.h"
#include "core/nn/layers/DropoutPoints.h"
#include "core/nn/layers/SelfAttention.h"
#include "core/nn/models/RecurrentEncoder.h"
#include "core/nn/models/Seq2SeqModel.h"

#include <functional>
#include <string>
#include <vector>

namespace attnlab {

// The Transformer encoder-decoder (Vaswani et al. 2017) as The Annotated Transformer writes it, pre-LN
// (each sub-layer reads LayerNorm(x) and adds its output to x; a final LayerNorm on each side), which trains
// without the post-LN's sensitivity to warm-up at laptop sizes (ModelConfig::layerNorm switches it to post-LN or none,
// ::residual leaves out the "+=", as for the Transformer classifier and the GPT):
//   encoder layer: x += SelfAttention(LN(x));                 x += FFN(LN(x))
//   decoder layer: y += causal SelfAttention(LN(y));          y += CrossAttention(LN(y), memory);  y += FFN(LN(y))
// Word vectors are scaled by sqrt(d_model) (3.4). The lab's position techniques act on both sides'
// self-attention as in its classifiers (sinusoidal / learned added to the embeddings; RPR, RoPE, ALiBi inside
// attention); cross-attention has none. ModelConfig::layers layers on each side.
// birnn-transformer (Domhan 2018's other mixed model) keeps the decoder and reads the source with a bidirectional
// GRU of ModelConfig::layers layers instead (RecurrentEncoder): memory = LN(W [->h_j; <-h_j]), no source positions
// (the recurrence orders the words), no encoder self-attention.
class TransformerSeq2Seq : public Seq2SeqModel {
public:
    explicit TransformerSeq2Seq(const ModelConfig& config);

    Encoded encode(const torch::Tensor& source, const torch::Tensor& sourceMask) override;
    DecoderState start(const Encoded& encoded) override;
    // The newest position only, over a cache in the state (per decoder layer its self-attention's keys and
    // values so far, SelfAttention::step) and the source's cross-attention keys and values made once by encode()
    // (Encoded::extra): every tensor's rows are hypotheses, so a beam's reorder is Seq2SeqModel::select.
    StepFeatures advance(const Encoded& encoded, DecoderState& state, const torch::Tensor& previous, int64_t step) override;
    torch::Tensor project(const torch::Tensor& features) override; // W_o after the output dropout
    using Seq2SeqModel::features; // the overload with the host lengths, which this model does not need
    torch::Tensor features(const torch::Tensor& source, const torch::Tensor& sourceMask, const torch::Tensor& targetIn,
                           double teacherForcing = 1.0) override;
    Forced forced(const torch::Tensor& source, const torch::Tensor& sourceMask, const torch::Tensor& targetIn) override;
    int attentionLayers() const override { return config_.layers; }
    int attentionHeads() const override { return config_.heads; }
    bool hasSelfAttention() const override { return true; } // the decoder's, at least
    std::string summary() const override;

private:
    torch::Tensor encodeStates(const torch::Tensor& source, const torch::Tensor& sourceMask, std::vector<torch::Tensor>* selfAttention);
    // Decoder states [N, T, d] for target ids [N, T] (mask [N, T]); the attentions when asked for.
    torch::Tensor decode(const torch::Tensor& target, const torch::Tensor& targetMask, const Encoded& encoded,
                         std::vector<torch::Tensor>* selfAttention, std::vector<torch::Tensor>* crossAttention);
    torch::Tensor feedForward(size_t layer, bool decoder, const torch::Tensor& x);
    // f inside its residual and LayerNorm (norms[index]; none when the model has no LayerNorm): ResidualSublayer.
    torch::Tensor sublayer(const torch::Tensor& x, std::vector<torch::nn::LayerNorm>& norms, std::size_t index,
                           const std::function<torch::Tensor(const torch::Tensor&)>& f);

    ModelConfig config_;
    double scale_;
    std::string layerNorm_; // pre (default), post or none (ModelConfig::layerNorm); residuals: config_.residual
    torch::nn::Embedding sourceEmbedding_{nullptr}, targetEmbedding_{nullptr};
    AbsolutePositions sourcePositions_{nullptr}, targetPositions_{nullptr};
    std::vector<SelfAttention> encoderAttention_, decoderAttention_;
    std::vector<CrossAttention> crossAttention_;
    std::vector<torch::nn::LayerNorm> encoderNorms_, decoderNorms_; // 2 per encoder layer, 3 per decoder layer
    std::vector<torch::nn::Linear> encoderFfn_, decoderFfn_;        // in, out per layer
    torch::nn::LayerNorm encoderFinal_{nullptr}, decoderFinal_{nullptr}; // pre-LN only
    torch::nn::LayerNorm noNorm_{nullptr};                                 // where there is none
    RecurrentEncoder recurrentEncoder_{nullptr}; // birnn-transformer's encoder, with its projection 2d -> d
    torch::nn::Linear encoderProjection_{nullptr};
    torch::nn::Linear output_{nullptr};
    DropoutPoints dropout_{nullptr};
};

} // namespace attnlab
