#include "core/nn/models/BertClassifier.h"

#include "core/data/pretrained/SafetensorsFile.h"

namespace attnlab {

BertConfig BertClassifier::encoderConfig(const ModelConfig& config)
{
    BertConfig b;
    b.vocabSize = config.vocabularySize;
    b.hiddenSize = config.dModel;
    b.layers = config.layers;
    b.heads = config.heads;
    b.intermediateSize = config.ffnHidden > 0 ? config.ffnHidden : 4 * config.dModel;
    b.maxPositions = config.maxLength;
    return b;
}

BertClassifier::BertClassifier(const ModelConfig& config) : config_(config), cls_(config.poolingOr("mean") == "cls")
{
    // BERT's own dropout (hidden_dropout_prob 0.1) in the encoder and before the head, as Devlin et al., not the
    // thesis' keep probabilities; dropout_points none (or keep 1) switches it off.
    const double drop = config.keepAt("output") < 1.0 ? 0.1 : 0.0;
    encoder_ = register_module("encoder", BertEncoder(encoderConfig(config), drop));
    dropout_ = register_module("dropout", torch::nn::Dropout(drop));
    output_ = register_module("output", torch::nn::Linear(config.dModel, config.numClasses));
    // BertEncoder allocates its parameters uninitialised (loading overwrites them); a classifier may train or
    // load a checkpoint without the pretrained file, so it starts as BERT does: N(0, 0.02), LayerNorm 1 and 0.
    {
        torch::NoGradGuard noGrad;
        for (auto& p : encoder_->named_parameters()) {
            const auto& name = p.key();
            if (name.size() >= 6 && name.compare(name.size() - 5, 5, ".bias") == 0)
                p.value().zero_();
            else if (name.find("LayerNorm") != std::string::npos)
                p.value().fill_(1.0);
            else
                p.value().normal_(0.0, 0.02);
        }
    }
    for (auto& p : encoder_->named_parameters())
        // Frozen: nothing of the encoder trains. Mean pooling: the pooler takes no part, so it trains neither.
        if (config.frozenEncoder || (!cls_ && p.key().rfind("pooler.", 0) == 0))
            p.value().set_requires_grad(false);
    if (config.frozenEncoder)
        encoder_->eval();
}

void BertClassifier::train(bool on)
{
    torch::nn::Module::train(on);
    if (config_.frozenEncoder)
        encoder_->eval();
}

torch::Tensor BertClassifier::embed(const torch::Tensor& ids)
{
    auto embedded = encoder_->embed(ids);
    if (config_.frozenEncoder) { // only the frozen encoder's cache keys by them; fine-tuning keeps no batch alive
        lastEmbedded_ = embedded;
        lastIds_ = ids;
    }
    return embedded;
}

torch::Tensor BertClassifier::sentenceOf(const BertEncoderImpl::Output& out, const torch::Tensor& mask) const
{
    if (cls_)
        return out.pooled;
    const auto m = mask.defined() ? mask.to(out.lastHidden.dtype()).unsqueeze(-1) // [B, T, 1]
                                  : torch::ones({out.lastHidden.size(0), out.lastHidden.size(1), 1}, out.lastHidden.options());
    return (out.lastHidden * m).sum(1) / m.sum(1).clamp_min(1.0); // [B, H]
}

torch::Tensor BertClassifier::cachedSentences(const torch::Tensor& embedded, const torch::Tensor& mask)
{
    // Key: the row's real pieces (ids up to its length). Rows not seen yet go through the encoder together.
    const auto ids = lastIds_.contiguous();
    const auto lengths = mask.sum(1).to(torch::kLong).contiguous();
    const int64_t batch = ids.size(0), width = ids.size(1);
    std::vector<std::string> keys(static_cast<std::size_t>(batch));
    std::vector<int64_t> missing, freshRow(static_cast<std::size_t>(batch), -1);
    for (int64_t b = 0; b < batch; ++b) {
        const auto* row = ids.data_ptr<int64_t>() + b * width;
        auto& key = keys[static_cast<std::size_t>(b)];
        key.assign(reinterpret_cast<const char*>(row), static_cast<std::size_t>(lengths.data_ptr<int64_t>()[b]) * sizeof(int64_t));
        if (!sentences_.count(key)) {
            freshRow[static_cast<std::size_t>(b)] = static_cast<int64_t>(missing.size());
            missing.push_back(b);
        }
    }
    torch::Tensor fresh;
    if (!missing.empty()) {
        torch::NoGradGuard noGrad;
        const auto rows = torch::tensor(missing, torch::kLong);
        const auto subMask = mask.index_select(0, rows);
        fresh = sentenceOf(encoder_->forwardEmbedded(embedded.index_select(0, rows), subMask), subMask); // [M, H]
        constexpr std::size_t kMaxSentences = 500000; // ~0.8 GB at hidden 384; past it, rows are computed each time
        for (std::size_t i = 0; i < missing.size() && sentences_.size() < kMaxSentences; ++i)
            sentences_.emplace(keys[static_cast<std::size_t>(missing[i])], fresh[static_cast<int64_t>(i)].clone());
    }
    std::vector<torch::Tensor> out;
    out.reserve(static_cast<std::size_t>(batch));
    for (int64_t b = 0; b < batch; ++b) {
        const int64_t f = freshRow[static_cast<std::size_t>(b)];
        out.push_back(f >= 0 ? fresh[f] : sentences_.at(keys[static_cast<std::size_t>(b)]));
    }
    return torch::stack(out); // [B, H]
}

torch::Tensor BertClassifier::forwardEmbedded(const torch::Tensor& embedded, const torch::Tensor& mask)
{
    // The cache serves only what the encoder would compute the same way again: frozen, on the CPU, no maps
    // asked for, and word vectors that are embed()'s own (attribution's changed or differentiated ones are not).
    const bool cacheable = config_.frozenEncoder && !record_ && mask.defined() && embedded.is_cpu() &&
                           !embedded.requires_grad() && lastEmbedded_.defined() && embedded.is_same(lastEmbedded_);
    if (cacheable)
        return output_(dropout_(cachedSentences(embedded, mask))); // [B, C]
    auto out = encoder_->forwardEmbedded(embedded, mask); // [B, T, H], pooled [B, H], per layer [B, heads, T, T]
    if (record_)
        recorded_ = out.attentions;
    return output_(dropout_(sentenceOf(out, mask))); // [B, C]
}

std::string BertClassifier::summary() const
{
    return "MiniLM-style BERT encoder (" + std::to_string(config_.layers) + " layers, " + std::to_string(config_.heads) +
           " heads, hidden " + std::to_string(config_.dModel) + ", learned positions), " +
           (cls_ ? "pooled [CLS]" : "mean of the last layer") + " -> " +
           std::to_string(config_.numClasses) + " classes" + (config_.frozenEncoder ? ", encoder frozen (head only)" : ", fine-tuned");
}

int64_t BertClassifier::loadPretrained(const SafetensorsFile& file, const std::vector<int64_t>& wordRows)
{
    return encoder_->load(file, wordRows);
}

} // namespace attnlab
