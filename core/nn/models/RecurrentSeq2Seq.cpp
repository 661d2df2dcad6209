#include "core/nn/models/RecurrentSeq2Seq.h"

#include "core/nn/layers/EmbeddingLookup.h"

#include <sstream>

namespace attnlab {

RecurrentSeq2Seq::RecurrentSeq2Seq(const ModelConfig& config)
    : kind_(config.model == "bahdanau" || config.model == "transformer-bahdanau" ? Kind::Bahdanau
            : config.model == "luong" || config.model == "transformer-luong"    ? Kind::Luong
                                                                                : Kind::Plain),
      config_(config)
{
    const int d = config.dModel, e = config.inputDim();
    const bool selfAttention = config.model.rfind("transformer-", 0) == 0;
    const bool bidirectional = kind_ != Kind::Plain;
    const int encoded = selfAttention ? d : bidirectional ? 2 * d : d; // h_j's width
    sourceEmbedding_ = register_module(
        "source_embedding", torch::nn::Embedding(torch::nn::EmbeddingOptions(config.vocabularySize, e).padding_idx(0)));
    targetEmbedding_ = register_module(
        "target_embedding", torch::nn::Embedding(torch::nn::EmbeddingOptions(config.targetVocabularySize, e).padding_idx(0)));
    if (selfAttention) {
        TORCH_CHECK(e == d, "a self-attention encoder needs embedding_dim = d_model (got ", e, ")");
        selfAttentionEncoder_ = register_module("encoder", SelfAttentionEncoder(config));
        SelfAttentionEncoderImpl::initialiseWordTable(sourceEmbedding_, d); // it scales them by sqrt(d)
    } else {
        encoder_ = register_module("encoder", RecurrentEncoder("gru", e, d, config.layers, bidirectional));
    }
    bridge_ = register_module("bridge", torch::nn::Linear(encoded, d));
    int decoderInput = e, outputInput = d;
    if (kind_ == Kind::Plain) {
        decoderInput = e + d;                // [y; c]
        outputInput = e + d + d;             // [y; s; c]
    } else if (kind_ == Kind::Bahdanau) {
        RecurrentAttentionOptions a;
        a.score = config.attentionScore.empty() ? "additive" : config.attentionScore;
        a.queryDim = d;
        a.keyDim = encoded;
        a.attentionDim = d;
        attention_ = register_module("attention", RecurrentAttention(a));
        decoderInput = e + encoded;          // [y; c]
        outputInput = e + d + encoded;       // [y; s; c]
    } else {
        keys_ = register_module("keys", torch::nn::Linear(torch::nn::LinearOptions(encoded, d).bias(false)));
        RecurrentAttentionOptions a;
        a.score = config.attentionScore.empty() ? "general" : config.attentionScore;
        a.alignment = config.alignment;
        a.window = config.localWindow;
        a.queryDim = d;
        a.keyDim = d;
        a.attentionDim = d;
        attention_ = register_module("attention", RecurrentAttention(a));
        combine_ = register_module("combine", torch::nn::Linear(torch::nn::LinearOptions(2 * d, d).bias(false)));
        decoderInput = e + d;                // [y; h~] (input feeding)
        outputInput = d;                     // h~
    }
    decoder_ = register_module("decoder", torch::nn::GRUCell(decoderInput, d));
    output_ = register_module("output", torch::nn::Linear(outputInput, config.targetVocabularySize));
    dropout_ = register_module("dropout", DropoutPoints(config));
}

Seq2SeqModel::Encoded RecurrentSeq2Seq::encode(const torch::Tensor& source, const torch::Tensor& sourceMask, std::vector<torch::Tensor>* selfAttention)
{
    Encoded encoded;
    encoded.mask = sourceMask;
    const auto words = EmbeddingLookup::apply(sourceEmbedding_, source);
    encoded.lengths = sourceMask.sum(1).to(words.dtype());
    torch::Tensor states, final;
    if (selfAttentionEncoder_) {
        states = selfAttentionEncoder_(words, sourceMask, selfAttention); // [N, S, d]
        const auto m = sourceMask.unsqueeze(-1).to(states.dtype());
        final = (states * m).sum(1) / encoded.lengths.clamp_min(1.0).unsqueeze(-1); // mean_j h_j, [N, d]
    } else {
        auto result = encoder_->forward(dropout_->input(words), sourceMask, /*withStates=*/kind_ != Kind::Plain, hostSourceLengths());
        states = result.states;
        final = result.final;
    }
    const auto initial = torch::tanh(bridge_(final)); // s_0, [N, d]
    if (kind_ == Kind::Plain) {
        encoded.memory = final.unsqueeze(1); // c: all the decoder will ever see of the source
        encoded.extra = {initial};
    } else {
        encoded.memory = keys_ ? keys_(states) : states; // [N, S, 2d] or [N, S, d]
        encoded.extra = {initial, attention_->prepareKeys(encoded.memory)};
    }
    return encoded;
}

Seq2SeqModel::Encoded RecurrentSeq2Seq::encode(const torch::Tensor& source, const torch::Tensor& sourceMask)
{
    return encode(source, sourceMask, nullptr);
}

Seq2SeqModel::DecoderState RecurrentSeq2Seq::start(const Encoded& encoded)
{
    DecoderState state;
    state.tensors.push_back(encoded.extra[0]); // s_0
    if (kind_ == Kind::Luong)
        state.tensors.push_back(torch::zeros_like(encoded.extra[0])); // h~_0
    return state;
}

Seq2SeqModel::StepFeatures RecurrentSeq2Seq::advance(const Encoded& encoded, DecoderState& state, const torch::Tensor& previous,
                                                     int64_t t)
{
    const auto y = dropout_->input(EmbeddingLookup::apply(targetEmbedding_, previous)); // [N, e]
    auto& hidden = state.tensors[0];
    StepFeatures out;
    if (kind_ == Kind::Plain) {
        const auto c = encoded.memory.squeeze(1);
        hidden = decoder_(torch::cat({y, c}, 1), hidden);
        out.features = torch::cat({y, hidden, c}, 1);
    } else if (kind_ == Kind::Bahdanau) {
        auto a = attention_->forward(hidden, encoded.memory, encoded.extra[1], encoded.mask, t, encoded.lengths); // by s_{i-1}
        hidden = decoder_(torch::cat({y, a.context}, 1), hidden);
        out.features = torch::cat({y, hidden, a.context}, 1);
        out.attention = a.weights.unsqueeze(1);
    } else {
        auto& feed = state.tensors[1];
        hidden = decoder_(torch::cat({y, feed}, 1), hidden);
        auto a = attention_->forward(hidden, encoded.memory, encoded.extra[1], encoded.mask, t, encoded.lengths); // by h_t
        feed = torch::tanh(combine_(torch::cat({a.context, hidden}, 1)));
        out.features = feed;
        out.attention = a.weights.unsqueeze(1);
    }
    return out;
}

Seq2SeqModel::Forced RecurrentSeq2Seq::forced(const torch::Tensor& source, const torch::Tensor& sourceMask,
                                              const torch::Tensor& targetIn)
{
    Forced forced;
    const auto encoded = encode(source, sourceMask, &forced.encoderSelf); // the self-attention encoder's maps
    auto state = start(encoded);
    std::vector<torch::Tensor> features, attention;
    for (int64_t t = 0; t < targetIn.size(1); ++t) {
        auto out = advance(encoded, state, targetIn.select(1, t), t);
        features.push_back(out.features);
        if (out.attention.defined())
            attention.push_back(out.attention); // [B, 1, S]
    }
    forced.logits = project(torch::stack(features, 1)); // one product for every step
    if (!attention.empty())
        forced.cross.push_back(torch::stack(attention, 2)); // [B, 1, T, S]
    return forced;
}

torch::Tensor RecurrentSeq2Seq::project(const torch::Tensor& features)
{
    return output_(dropout_->output(features));
}

std::string RecurrentSeq2Seq::summary() const
{
    std::ostringstream s;
    const std::string encoder = selfAttentionEncoder_
                                    ? std::to_string(config_.layers) + "-layer self-attention encoder (" + std::to_string(config_.heads) +
                                          (config_.heads == 1 ? " head" : " heads") + ", position " + config_.position + ")"
                                    : "bidirectional GRU encoder";
    if (kind_ == Kind::Plain)
        s << "GRU encoder-decoder without attention (Cho et al. 2014)";
    else if (kind_ == Kind::Bahdanau)
        s << encoder << ", GRU decoder with " << attention_->options().score << " attention ("
          << (selfAttentionEncoder_ ? "Domhan 2018" : "Bahdanau et al. 2015") << ")";
    else
        s << encoder << ", GRU decoder with input feeding, " << attention_->options().alignment << " "
          << attention_->options().score << " attention" << (config_.alignment == "global" ? "" : ", D = " + std::to_string(config_.localWindow))
          << " (" << (selfAttentionEncoder_ ? "Domhan 2018" : "Luong et al. 2015") << ")";
    s << ", d_model " << config_.dModel;
    if (!selfAttentionEncoder_)
        s << ", " << config_.layers << " encoder layer" << (config_.layers == 1 ? "" : "s");
    s << ", vocabularies " << config_.vocabularySize << " / " << config_.targetVocabularySize;
    return s.str();
}

} // namespace attnlab
