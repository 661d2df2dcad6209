#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/config/ModelConfig.h"
#include "core/nn/layers/AbsolutePositions.h"
#include "core/nn/layers/DropoutPoints.h"
#include "core/nn/layers/TransformerBlock.h"
#include "core/nn/models/RecurrentEncoder.h"
#include "core/nn/models/Seq2SeqModel.h"

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
// Both sides' layers are TransformerBlocks, the GPT's layer module: the encoder's without cross-attention, the
// decoder's causal with it, decoded over a whole target by forward() and a token at a time by step().
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
    // Reads this layout's checkpoints and those written before its layers were TransformerBlocks (flat names such
    // as decoder_attention0, cross_attention0, decoder_ffn_in0), which map one to one onto the blocks' parameters.
    void load(torch::serialize::InputArchive& archive) override;

private:
    torch::Tensor encodeStates(const torch::Tensor& source, const torch::Tensor& sourceMask, std::vector<torch::Tensor>* selfAttention);
    // Decoder states [N, T, d] for target ids [N, T] (mask [N, T]); the attentions when asked for.
    torch::Tensor decode(const torch::Tensor& target, const torch::Tensor& targetMask, const Encoded& encoded,
                         std::vector<torch::Tensor>* selfAttention, std::vector<torch::Tensor>* crossAttention);
    // Each decoder layer's view of the encoder's states: from Encoded::extra (keys, values per layer).
    std::vector<AttentionMemory> memories(const Encoded& encoded) const;
    void addMemories(Encoded& encoded);

    ModelConfig config_;
    double scale_;
    std::string layerNorm_; // pre (default), post or none (ModelConfig::layerNorm); residuals: config_.residual
    torch::nn::Embedding sourceEmbedding_{nullptr}, targetEmbedding_{nullptr};
    AbsolutePositions sourcePositions_{nullptr}, targetPositions_{nullptr};
    std::vector<TransformerBlock> encoderLayers_, decoderLayers_;
    torch::nn::LayerNorm encoderFinal_{nullptr}, decoderFinal_{nullptr}; // pre-LN only
    RecurrentEncoder recurrentEncoder_{nullptr}; // birnn-transformer's encoder, with its projection 2d -> d
    torch::nn::Linear encoderProjection_{nullptr};
    torch::nn::Linear output_{nullptr};
    DropoutPoints dropout_{nullptr};
};

} // namespace attnlab
