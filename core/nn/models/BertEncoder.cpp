#include "core/nn/models/BertEncoder.h"

#include "core/data/DataError.h"
#include "core/data/pretrained/SafetensorsFile.h"

#include <limits>

namespace attnlab {

namespace {
std::shared_ptr<torch::nn::Module> level(torch::nn::Module& parent, const std::string& name)
{
    return parent.register_module(name, std::make_shared<torch::nn::Module>());
}

std::string shapeText(const std::vector<int64_t>& shape)
{
    std::string s = "[";
    for (std::size_t i = 0; i < shape.size(); ++i)
        s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + "]";
}
} // namespace

BertEncoderImpl::BertEncoderImpl(const BertConfig& config, double dropout) : config_(config)
{
    const int64_t hidden = config.hiddenSize;
    auto embeddings = level(*this, "embeddings");
    words_ = embeddings->register_module("word_embeddings", torch::nn::Embedding(config.vocabSize, hidden));
    positions_ = embeddings->register_module("position_embeddings", torch::nn::Embedding(config.maxPositions, hidden));
    types_ = embeddings->register_module("token_type_embeddings", torch::nn::Embedding(config.typeVocabSize, hidden));
    embeddingNorm_ = embeddings->register_module(
        "LayerNorm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({hidden}).eps(config.layerNormEps)));
    dropout_ = register_module("dropout", torch::nn::Dropout(dropout));
    auto stack = level(*level(*this, "encoder"), "layer");
    for (int l = 0; l < config.layers; ++l)
        layers_.push_back(stack->register_module(
            std::to_string(l), BertLayer(hidden, config.heads, config.intermediateSize, config.layerNormEps, dropout)));
    pooler_ = level(*this, "pooler")->register_module("dense", torch::nn::Linear(hidden, hidden));
}

torch::Tensor BertEncoderImpl::embed(const torch::Tensor& ids) { return words_(ids); }

BertEncoderImpl::Output BertEncoderImpl::forward(const torch::Tensor& ids, const torch::Tensor& mask)
{
    const int64_t length = ids.size(1);
    TORCH_CHECK(length <= config_.maxPositions, "an input of ", length, " tokens is longer than the model's ",
                config_.maxPositions, " positions");
    const auto positions = torch::arange(length, torch::TensorOptions().dtype(torch::kLong).device(ids.device()));
    const auto types = torch::zeros_like(ids); // one segment: sentence A
    auto h = dropout_(embeddingNorm_(words_(ids) + positions_(positions).unsqueeze(0) + types_(types)));
    // Padding's keys get the dtype's lowest value before the softmax (Hugging Face's extended mask).
    torch::Tensor additive = torch::zeros({1, 1, 1, length}, h.options());
    if (mask.defined())
        additive = (1.0 - mask.to(h.dtype())).view({ids.size(0), 1, 1, length}) * std::numeric_limits<float>::lowest();
    Output out;
    for (auto& layer : layers_) {
        auto r = layer->forward(h, additive);
        h = r.hidden;
        out.attentions.push_back(r.attention);
    }
    out.lastHidden = h;
    out.pooled = torch::tanh(pooler_(h.select(1, 0)));
    return out;
}

int64_t BertEncoderImpl::load(const SafetensorsFile& file)
{
    torch::NoGradGuard noGrad;
    int64_t values = 0;
    for (auto& p : named_parameters()) {
        const SafetensorsEntry* e = file.find(p.key());
        // Some exporters prefix every name with the model's own ("bert.embeddings...").
        if (!e)
            e = file.find("bert." + p.key());
        if (!e)
            throw DataError(file.path(), 0, "no tensor \"" + p.key() + "\": not the weights of this BERT configuration");
        const auto expected = p.value().sizes().vec();
        if (e->shape != expected)
            throw DataError(file.path(), 0, "tensor \"" + e->name + "\" is " + shapeText(e->shape) + ", the model's " +
                                                p.key() + " is " + shapeText(expected) + " (config.json and the weights disagree)");
        const auto values32 = file.floats(e->name);
        p.value().copy_(torch::from_blob(const_cast<float*>(values32.data()), expected, torch::kFloat32));
        values += static_cast<int64_t>(values32.size());
    }
    return values;
}

} // namespace attnlab
