#include "core/nn/models/TransformerSeq2Seq.h"

#include "core/nn/layers/EmbeddingLookup.h"
#include "core/nn/models/SelfAttentionEncoder.h"

#include <cmath>
#include <memory>
#include <regex>
#include <sstream>
#include <stdexcept>

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
    // Each layer's sub-layers drop on their branches and between the FFN's two layers (DropoutPoints' hidden).
    TransformerBlockOptions o;
    o.attention = SelfAttentionOptions::transformer(d, config.heads, config.position, config.rprClip);
    o.ffnHidden = ffn;
    o.activation = config.activationOr("relu");
    o.residualDrop = o.ffnDrop = 1.0 - config.keepAt("hidden");
    o.layerNorm = layerNorm_;
    o.residual = config.residual;
    auto decoder = o;
    decoder.attention.causal = true;
    decoder.crossAttention = true;
    for (int l = 0; l < config.layers; ++l) { // encoder and decoder layer by layer: the initial draws' order
        const auto n = std::to_string(l);
        if (!recurrent)
            encoderLayers_.push_back(register_module("encoder_layer" + n, TransformerBlock(o)));
        decoderLayers_.push_back(register_module("decoder_layer" + n, TransformerBlock(decoder)));
    }
    if (layerNorm_ == "pre") { // post-LN's last sub-layer already ends in one; none has none
        encoderFinal_ = register_module("encoder_final_norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({d})));
        decoderFinal_ = register_module("decoder_final_norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({d})));
    }
    output_ = register_module("output", torch::nn::Linear(d, config.targetVocabularySize));
    dropout_ = register_module("dropout", DropoutPoints(config));
}

std::vector<AttentionMemory> TransformerSeq2Seq::memories(const Encoded& encoded) const
{
    std::vector<AttentionMemory> out;
    for (std::size_t l = 0; l < decoderLayers_.size(); ++l)
        out.push_back({encoded.extra[2 * l], encoded.extra[2 * l + 1], encoded.mask});
    return out;
}

void TransformerSeq2Seq::addMemories(Encoded& encoded)
{
    for (auto& layer : decoderLayers_) { // per layer: keys, values [N, H, S, dh]
        const auto memory = layer->memoryOf(encoded.memory, encoded.mask);
        encoded.extra.push_back(memory.keys);
        encoded.extra.push_back(memory.values);
    }
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
    for (auto& layer : encoderLayers_) {
        torch::Tensor weights;
        x = layer->forward(x, sourceMask, selfAttention ? &weights : nullptr);
        if (selfAttention)
            selfAttention->push_back(weights);
    }
    return encoderFinal_ ? encoderFinal_(x) : x;
}

torch::Tensor TransformerSeq2Seq::decode(const torch::Tensor& target, const torch::Tensor& targetMask, const Encoded& encoded,
                                         std::vector<torch::Tensor>* selfAttention, std::vector<torch::Tensor>* crossAttention)
{
    auto y = dropout_->input(targetPositions_(EmbeddingLookup::apply(targetEmbedding_, target) * scale_)); // [N, T, d]
    const auto memory = memories(encoded);
    for (std::size_t l = 0; l < decoderLayers_.size(); ++l) { // self-attention masked: j <= i
        torch::Tensor self, cross;
        y = decoderLayers_[l]->forward(y, targetMask, selfAttention ? &self : nullptr, &memory[l], crossAttention ? &cross : nullptr);
        if (selfAttention)
            selfAttention->push_back(self);
        if (crossAttention)
            crossAttention->push_back(cross);
    }
    return decoderFinal_ ? decoderFinal_(y) : y;
}

Seq2SeqModel::Encoded TransformerSeq2Seq::encode(const torch::Tensor& source, const torch::Tensor& sourceMask)
{
    Encoded encoded;
    encoded.memory = encodeStates(source, sourceMask, nullptr);
    encoded.mask = sourceMask;
    encoded.lengths = sourceMask.sum(1).to(encoded.memory.dtype());
    addMemories(encoded);
    return encoded;
}

Seq2SeqModel::DecoderState TransformerSeq2Seq::start(const Encoded& encoded)
{
    const int64_t n = encoded.memory.size(0), headSize = config_.dModel / config_.heads;
    DecoderState state; // the prefix's length, then per layer the self-attention's keys and values [N, H, t, dh]
    state.tensors.push_back(torch::empty({n, 0}, encoded.mask.options().dtype(torch::kLong)));
    for (std::size_t l = 0; l < decoderLayers_.size(); ++l)
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
    const auto memory = memories(encoded);
    for (std::size_t l = 0; l < decoderLayers_.size(); ++l) {
        torch::Tensor weights;
        y = decoderLayers_[l]->step(y, state.tensors[1 + 2 * l], state.tensors[2 + 2 * l], nullptr, &memory[l], &weights);
        cross.push_back(weights.select(2, 0));
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
    addMemories(encoded);
    forced.logits = project(decode(targetIn, targetIn.ne(0), encoded, &forced.decoderSelf, &forced.cross));
    return forced;
}

namespace {

// The name a parameter had before the layers were TransformerBlocks: encoder_layer0.norm1.weight was
// encoder_attention_norm0.weight, decoder_layer1.cross_attention.query.bias was cross_attention1.query.bias.
std::string flatName(const std::string& name)
{
    static const std::regex layered(R"(^(encoder|decoder)_layer(\d+)\.([a-z_0-9]+)\.(.*)$)");
    std::smatch m;
    if (!std::regex_match(name, m, layered))
        return name; // embeddings, positions, final norms, the output layer: unchanged
    const std::string side = m[1], layer = m[2], part = m[3], rest = m[4];
    const std::string renamed = part == "attention"         ? side + "_attention"
                                : part == "cross_attention" ? "cross_attention"
                                : part == "norm1"           ? side + "_attention_norm"
                                : part == "cross_norm"      ? "decoder_cross_norm"
                                : part == "norm2"           ? side + "_ffn_norm"
                                                            : side + "_" + part; // ffn_in, ffn_out
    return renamed + layer + "." + rest;
}

// One tensor of a nested archive by its dotted name, read into `into` (a parameter or buffer, in place).
bool readNested(torch::serialize::InputArchive& root, const std::string& dotted, torch::Tensor& into, bool buffer)
{
    torch::serialize::InputArchive* at = &root;
    std::vector<std::unique_ptr<torch::serialize::InputArchive>> path;
    std::size_t begin = 0;
    for (auto dot = dotted.find('.'); dot != std::string::npos; begin = dot + 1, dot = dotted.find('.', begin)) {
        path.push_back(std::make_unique<torch::serialize::InputArchive>());
        if (!at->try_read(dotted.substr(begin, dot - begin), *path.back()))
            return false;
        at = path.back().get();
    }
    return at->try_read(dotted.substr(begin), into, buffer);
}

} // namespace

void TransformerSeq2Seq::load(torch::serialize::InputArchive& archive)
{
    torch::serialize::InputArchive probe;
    if (archive.try_read("decoder_layer0", probe)) { // this layout
        Seq2SeqModel::load(archive);
        return;
    }
    torch::NoGradGuard noGrad;
    auto read = [&](const std::string& name, torch::Tensor& into, bool buffer) {
        const auto flat = flatName(name);
        torch::Tensor saved;
        if (!readNested(archive, flat, saved, buffer))
            throw std::runtime_error("no " + flat + " (for " + name + ") in the archive");
        if (saved.sizes() != into.sizes())
            throw std::runtime_error(flat + " is " + c10::str(saved.sizes()) + " in the archive, " + c10::str(into.sizes()) + " here");
        into.copy_(saved);
    };
    for (auto& p : named_parameters(/*recurse=*/true))
        read(p.key(), p.value(), false);
    for (auto& b : named_buffers(/*recurse=*/true))
        read(b.key(), b.value(), true);
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
