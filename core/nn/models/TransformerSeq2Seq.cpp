#include "core/nn/models/TransformerSeq2Seq.h"

#include "core/nn/layers/Activation.h"
#include "core/nn/layers/EmbeddingLookup.h"
#include "core/nn/layers/ResidualSublayer.h"
#include "core/nn/models/SelfAttentionEncoder.h"

#include <cmath>
#include <sstream>

namespace attnlab {

TransformerSeq2Seq::TransformerSeq2Seq(const ModelConfig& config)
    : config_(config), scale_(std::sqrt(static_cast<double>(config.dModel))), layerNorm_(config.layerNormOr("pre"))
{
    const int d = config.dModel;
    TORCH_CHECK(config.inputDim() == d, "the Transformer encoder-decoder needs embedding_dim = d_model (got ", config.inputDim(), ")");
    const int ffn = config.ffnHidden > 0 ? config.ffnHidden : 4 * d;
    sourceEmbedding_ = register_module(
        "source_embedding", torch::nn::Embedding(torch::nn::EmbeddingOptions(config.vocabularySize, d).padding_idx(0)));
    targetEmbedding_ = register_module(
        "target_embedding", torch::nn::Embedding(torch::nn::EmbeddingOptions(config.targetVocabularySize, d).padding_idx(0)));
    // Word vectors start near N(0, 1/d): scaled by sqrt(d) they are then as loud as a sinusoid (LibTorch's N(0, 1)
    // made every word sqrt(d) times louder than its position, 11x at d 128: measured, word order was then learnt
    // far more slowly, docs/RESULTS.md).
    SelfAttentionEncoderImpl::initialiseWordTable(sourceEmbedding_, d);
    SelfAttentionEncoderImpl::initialiseWordTable(targetEmbedding_, d);
    const bool recurrent = config.model == "birnn-transformer";
    if (recurrent) {
        recurrentEncoder_ = register_module("recurrent_encoder", RecurrentEncoder("gru", d, d, config.layers, /*bidirectional=*/true));
        encoderProjection_ = register_module("encoder_projection", torch::nn::Linear(2 * d, d));
    } else {
        sourcePositions_ = register_module("source_positions", AbsolutePositions(config.position, d, config.maxLength));
    }
    targetPositions_ = register_module("target_positions", AbsolutePositions(config.position, d, config.maxLength));
    auto norm = [&](const std::string& name, std::vector<torch::nn::LayerNorm>& into) { // none: no LayerNorm at all
        if (layerNorm_ != "none")
            into.push_back(register_module(name, torch::nn::LayerNorm(torch::nn::LayerNormOptions({d}))));
    };
    for (int l = 0; l < config.layers; ++l) {
        auto o = SelfAttentionOptions::transformer(d, config.heads, config.position, config.rprClip);
        const auto n = std::to_string(l);
        if (!recurrent) {
            encoderAttention_.push_back(register_module("encoder_attention" + n, SelfAttention(o)));
            norm("encoder_attention_norm" + n, encoderNorms_);
            norm("encoder_ffn_norm" + n, encoderNorms_);
            encoderFfn_.push_back(register_module("encoder_ffn_in" + n, torch::nn::Linear(d, ffn)));
            encoderFfn_.push_back(register_module("encoder_ffn_out" + n, torch::nn::Linear(ffn, d)));
        }
        o.causal = true;
        decoderAttention_.push_back(register_module("decoder_attention" + n, SelfAttention(o)));
        crossAttention_.push_back(register_module("cross_attention" + n, CrossAttention(d, config.heads)));
        norm("decoder_attention_norm" + n, decoderNorms_);
        norm("decoder_cross_norm" + n, decoderNorms_);
        norm("decoder_ffn_norm" + n, decoderNorms_);
        decoderFfn_.push_back(register_module("decoder_ffn_in" + n, torch::nn::Linear(d, ffn)));
        decoderFfn_.push_back(register_module("decoder_ffn_out" + n, torch::nn::Linear(ffn, d)));
    }
    if (layerNorm_ == "pre") { // post-LN's last sub-layer already ends in one; none has none
        encoderFinal_ = register_module("encoder_final_norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({d})));
        decoderFinal_ = register_module("decoder_final_norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({d})));
    }
    output_ = register_module("output", torch::nn::Linear(d, config.targetVocabularySize));
    dropout_ = register_module("dropout", DropoutPoints(config));
}

torch::Tensor TransformerSeq2Seq::feedForward(size_t layer, bool decoder, const torch::Tensor& x)
{
    auto& ffn = decoder ? decoderFfn_ : encoderFfn_;
    return ffn[2 * layer + 1](dropout_->hidden(Activation::apply(config_.activationOr("relu"), ffn[2 * layer](x))));
}

torch::Tensor TransformerSeq2Seq::sublayer(const torch::Tensor& x, std::vector<torch::nn::LayerNorm>& norms, std::size_t index,
                                           const std::function<torch::Tensor(const torch::Tensor&)>& f)
{
    return ResidualSublayer::apply(x, norms.empty() ? noNorm_ : norms[index], layerNorm_, config_.residual, f,
                                   [this](const torch::Tensor& b) { return dropout_->hidden(b); });
}

torch::Tensor TransformerSeq2Seq::encodeStates(const torch::Tensor& source, const torch::Tensor& sourceMask,
                                               std::vector<torch::Tensor>* selfAttention)
{
    if (recurrentEncoder_) { // [->h_j; <-h_j] [N, S, 2d] -> [N, S, d]
        const auto words = dropout_->input(EmbeddingLookup::apply(sourceEmbedding_, source) * scale_);
        const auto states = recurrentEncoder_->forward(words, sourceMask, /*withStates=*/true, hostSourceLengths()).states;
        return encoderFinal_(encoderProjection_(states)); // birnn-transformer is always pre-LN (ModelConfig::validate)
    }
    auto x = dropout_->input(sourcePositions_(EmbeddingLookup::apply(sourceEmbedding_, source) * scale_)); // [N, S, d]
    for (size_t l = 0; l < encoderAttention_.size(); ++l) {
        x = sublayer(x, encoderNorms_, 2 * l, [&](const torch::Tensor& h) {
            auto attended = encoderAttention_[l]->forward(h, sourceMask);
            if (selfAttention)
                selfAttention->push_back(attended.weights);
            return attended.output;
        });
        x = sublayer(x, encoderNorms_, 2 * l + 1, [&](const torch::Tensor& h) { return feedForward(l, false, h); });
    }
    return encoderFinal_ ? encoderFinal_(x) : x;
}

torch::Tensor TransformerSeq2Seq::decode(const torch::Tensor& target, const torch::Tensor& targetMask, const Encoded& encoded,
                                         std::vector<torch::Tensor>* selfAttention, std::vector<torch::Tensor>* crossAttention)
{
    auto y = dropout_->input(targetPositions_(EmbeddingLookup::apply(targetEmbedding_, target) * scale_)); // [N, T, d]
    for (size_t l = 0; l < decoderAttention_.size(); ++l) {
        y = sublayer(y, decoderNorms_, 3 * l, [&](const torch::Tensor& h) {
            auto attended = decoderAttention_[l]->forward(h, targetMask); // masked: j <= i
            if (selfAttention)
                selfAttention->push_back(attended.weights);
            return attended.output;
        });
        y = sublayer(y, decoderNorms_, 3 * l + 1, [&](const torch::Tensor& h) {
            auto crossed = crossAttention_[l]->forward(h, encoded.memory, encoded.mask);
            if (crossAttention)
                crossAttention->push_back(crossed.weights);
            return crossed.output;
        });
        y = sublayer(y, decoderNorms_, 3 * l + 2, [&](const torch::Tensor& h) { return feedForward(l, true, h); });
    }
    return decoderFinal_ ? decoderFinal_(y) : y;
}

Seq2SeqModel::Encoded TransformerSeq2Seq::encode(const torch::Tensor& source, const torch::Tensor& sourceMask)
{
    Encoded encoded;
    encoded.memory = encodeStates(source, sourceMask, nullptr);
    encoded.mask = sourceMask;
    encoded.lengths = sourceMask.sum(1).to(encoded.memory.dtype());
    for (auto& cross : crossAttention_) { // per layer: keys, values [N, H, S, dh]
        auto [keys, values] = cross->keysValues(encoded.memory);
        encoded.extra.push_back(keys);
        encoded.extra.push_back(values);
    }
    return encoded;
}

Seq2SeqModel::DecoderState TransformerSeq2Seq::start(const Encoded& encoded)
{
    const int64_t n = encoded.memory.size(0), headSize = config_.dModel / config_.heads;
    DecoderState state; // the prefix's length, then per layer the self-attention's keys and values [N, H, t, dh]
    state.tensors.push_back(torch::empty({n, 0}, encoded.mask.options().dtype(torch::kLong)));
    for (size_t l = 0; l < decoderAttention_.size(); ++l)
        for (int kv = 0; kv < 2; ++kv)
            state.tensors.push_back(torch::empty({n, config_.heads, 0, headSize}, encoded.memory.options()));
    return state;
}

Seq2SeqModel::StepFeatures TransformerSeq2Seq::advance(const Encoded& encoded, DecoderState& state, const torch::Tensor& previous,
                                                       int64_t /*step: the prefix's length*/)
{
    auto& prefix = state.tensors[0];
    const int64_t t = prefix.size(1); // the newest token's position
    prefix = torch::cat({prefix, previous.unsqueeze(1)}, 1);
    auto y = dropout_->input(targetPositions_->forward(EmbeddingLookup::apply(targetEmbedding_, previous.unsqueeze(1)) * scale_, t)); // [N, 1, d]
    std::vector<torch::Tensor> cross; // each layer's [N, H, S] at position t
    for (size_t l = 0; l < decoderAttention_.size(); ++l) {
        y = sublayer(y, decoderNorms_, 3 * l, [&](const torch::Tensor& h) {
            return decoderAttention_[l]->step(h, state.tensors[1 + 2 * l], state.tensors[2 + 2 * l]).output;
        });
        y = sublayer(y, decoderNorms_, 3 * l + 1, [&](const torch::Tensor& h) {
            auto crossed = crossAttention_[l]->attend(h, encoded.extra[2 * l], encoded.extra[2 * l + 1], encoded.mask);
            cross.push_back(crossed.weights.select(2, 0));
            return crossed.output;
        });
        y = sublayer(y, decoderNorms_, 3 * l + 2, [&](const torch::Tensor& h) { return feedForward(l, true, h); });
    }
    StepFeatures out;
    out.features = (decoderFinal_ ? decoderFinal_(y) : y).select(1, 0);
    out.attention = torch::cat(cross, 1); // [N, L * H, S]
    return out;
}

torch::Tensor TransformerSeq2Seq::features(const torch::Tensor& source, const torch::Tensor& sourceMask, const torch::Tensor& targetIn,
                                           double /*teacherForcing: every position is decoded at once, from the gold prefix*/)
{
    const auto encoded = encode(source, sourceMask);
    return decode(targetIn, targetIn.ne(0), encoded, nullptr, nullptr);
}

torch::Tensor TransformerSeq2Seq::project(const torch::Tensor& features)
{
    return output_(dropout_->output(features));
}

Seq2SeqModel::Forced TransformerSeq2Seq::forced(const torch::Tensor& source, const torch::Tensor& sourceMask,
                                                const torch::Tensor& targetIn)
{
    Forced forced;
    Encoded encoded;
    encoded.memory = encodeStates(source, sourceMask, &forced.encoderSelf);
    encoded.mask = sourceMask;
    forced.logits = project(decode(targetIn, targetIn.ne(0), encoded, &forced.decoderSelf, &forced.cross));
    return forced;
}

std::string TransformerSeq2Seq::summary() const
{
    std::ostringstream s;
    if (recurrentEncoder_)
        s << config_.layers << "-layer bidirectional GRU encoder, " << config_.layers << "-layer Transformer decoder (pre-LN; Domhan 2018), d_model ";
    else
        s << config_.layers << "+" << config_.layers << "-layer Transformer encoder-decoder ("
          << (layerNorm_ == "none" ? "no LayerNorm" : layerNorm_ + "-LN") << (config_.residual ? "" : ", no residuals") << "), d_model " << config_.dModel << ", "
      << config_.heads << " heads, FFN " << (config_.ffnHidden > 0 ? config_.ffnHidden : 4 * config_.dModel) << ", "
      << (config_.position == "rpr" ? "RPR k=" + std::to_string(config_.rprClip) : "position " + config_.position)
      << ", vocabularies " << config_.vocabularySize << " / " << config_.targetVocabularySize;
    return s.str();
}

} // namespace attnlab
