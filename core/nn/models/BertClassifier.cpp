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
}

void BertClassifier::train(bool on)
{
    torch::nn::Module::train(on);
    if (config_.frozenEncoder)
        encoder_->eval();
}

torch::Tensor BertClassifier::embed(const torch::Tensor& ids)
{
    return encoder_->embed(ids);
}

torch::Tensor BertClassifier::forwardEmbedded(const torch::Tensor& embedded, const torch::Tensor& mask)
{
    auto out = encoder_->forwardEmbedded(embedded, mask); // [B, T, H], pooled [B, H], per layer [B, heads, T, T]
    if (record_)
        recorded_ = out.attentions;
    torch::Tensor sentence = out.pooled;
    if (!cls_) {
        const auto m = mask.defined() ? mask.to(out.lastHidden.dtype()).unsqueeze(-1)                     // [B, T, 1]
                                      : torch::ones({embedded.size(0), embedded.size(1), 1}, out.lastHidden.options());
        sentence = (out.lastHidden * m).sum(1) / m.sum(1).clamp_min(1.0); // [B, H]
    }
    return output_(dropout_(sentence)); // [B, C]
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
