#include "core/nn/models/BertEncoder.h"

#include "core/nn/layers/EmbeddingLookup.h"

#include "core/data/DataError.h"
#include "core/data/pretrained/SafetensorsFile.h"

#include <cstdint>
#include <limits>
#include <stdexcept>

namespace attnlab {

namespace {
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
    auto embeddings = bertLevel(*this, "embeddings");
    auto table = [&](const char* name, int64_t rows) {
        return bertLevel(*embeddings, name)->register_parameter("weight", torch::empty({rows, hidden}));
    };
    words_ = table("word_embeddings", config.vocabSize);
    positions_ = table("position_embeddings", config.maxPositions);
    types_ = table("token_type_embeddings", config.typeVocabSize);
    embeddingNorm_ = bertNorm(*embeddings, "LayerNorm", hidden, config.layerNormEps);
    dropout_ = register_module("dropout", torch::nn::Dropout(dropout));
    auto stack = bertLevel(*bertLevel(*this, "encoder"), "layer");
    for (int l = 0; l < config.layers; ++l)
        layers_.push_back(stack->register_module(
            std::to_string(l), BertLayer(hidden, config.heads, config.intermediateSize, config.layerNormEps, dropout)));
    pooler_ = bertDense(*bertLevel(*this, "pooler"), "dense", hidden, hidden);
}

torch::Tensor BertEncoderImpl::embed(const torch::Tensor& ids) { return EmbeddingLookup::apply(words_, ids, -1); }

BertEncoderImpl::Output BertEncoderImpl::forward(const torch::Tensor& ids, const torch::Tensor& mask)
{
    return forwardEmbedded(embed(ids), mask);
}

BertEncoderImpl::Output BertEncoderImpl::forwardEmbedded(const torch::Tensor& wordVectors, const torch::Tensor& mask)
{
    const int64_t batch = wordVectors.size(0), length = wordVectors.size(1);
    TORCH_CHECK(length <= config_.maxPositions, "an input of ", length, " tokens is longer than the model's ",
                config_.maxPositions, " positions");
    const auto positions = torch::arange(length, torch::TensorOptions().dtype(torch::kLong).device(wordVectors.device()));
    // One segment (sentence A): token type 0 everywhere, the same row added at every position.
    auto h = dropout_(embeddingNorm_(wordVectors + torch::embedding(positions_, positions).unsqueeze(0) + types_[0]));
    // Padding's keys get the dtype's lowest value before the softmax (Hugging Face's extended mask).
    torch::Tensor additive = torch::zeros({1, 1, 1, length}, h.options());
    if (mask.defined())
        additive = (1.0 - mask.to(h.dtype())).view({batch, 1, 1, length}) * std::numeric_limits<float>::lowest();
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

int64_t BertEncoderImpl::load(const SafetensorsFile& file, const std::vector<int64_t>& wordRows)
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
        auto expected = p.value().sizes().vec();
        const bool reordered = !wordRows.empty() && p.key() == "embeddings.word_embeddings.weight";
        if (reordered) {
            if (static_cast<int64_t>(wordRows.size()) != expected[0])
                throw std::invalid_argument("BertEncoder::load: " + std::to_string(wordRows.size()) + " word rows for a table of " +
                                            std::to_string(expected[0]));
            expected[0] = e->shape.empty() ? 0 : e->shape[0]; // the file's own rows, then picked
        }
        if (e->shape != expected)
            throw DataError(file.path(), 0, "tensor \"" + e->name + "\" is " + shapeText(e->shape) + ", the model's " +
                                                p.key() + " is " + shapeText(expected) + " (config.json and the weights disagree)");
        const auto* raw = file.data(*e);
        if (reordered) {
            const auto values32 = file.floats(e->name);
            const auto table = torch::from_blob(const_cast<float*>(values32.data()), expected, torch::kFloat32);
            const auto rows = torch::tensor(wordRows, torch::kLong);
            TORCH_CHECK(rows.min().item<int64_t>() >= 0 && rows.max().item<int64_t>() < expected[0],
                        "a word row outside the file's table");
            p.value().copy_(table.index_select(0, rows));
            values += p.value().numel();
            continue;
        }
        if (e->dtype == "F32" && reinterpret_cast<std::uintptr_t>(raw) % alignof(float) == 0) {
            // Straight from the mapped file (little-endian, as every machine we build for): one copy, not two.
            p.value().copy_(torch::from_blob(const_cast<unsigned char*>(raw), expected, torch::kFloat32));
        } else { // F16/BF16 widened, or an unaligned F32 tensor, through a float vector
            const auto values32 = file.floats(e->name);
            p.value().copy_(torch::from_blob(const_cast<float*>(values32.data()), expected, torch::kFloat32));
        }
        values += p.value().numel();
    }
    return values;
}

} // namespace attnlab
