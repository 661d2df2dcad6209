#include "core/data/pretrained/BertConfig.h"

#include "core/data/DataError.h"
#include "core/data/pretrained/PretrainedJson.h"
#include "core/platform/JsonInteger.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <sstream>

namespace attnlab {

BertConfig BertConfig::fromFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw DataError(path, 0, "cannot read the model's configuration");
    std::stringstream text;
    text << in.rdbuf();
    return fromJson(text.str(), path);
}

BertConfig BertConfig::fromJson(const std::string& json, const std::string& source)
{
    const nlohmann::json j = PretrainedJson::parse(json, source);
    if (!j.is_object())
        throw DataError(source, 0, "not a JSON object");
    BertConfig c;
    auto size = [&](const char* key, int& field, int most) {
        if (!j.contains(key))
            throw DataError(source, 0, std::string("no \"") + key + "\"");
        const auto v = JsonInteger::of<int>(j[key]);
        if (!v || *v < 1 || *v > most)
            throw DataError(source, 0, std::string("\"") + key + "\" is " + j[key].dump() + ", not a size from 1 to " + std::to_string(most));
        field = *v;
    };
    auto text = [&](const char* key, std::string& field) {
        if (!j.contains(key))
            return;
        if (!j[key].is_string())
            throw DataError(source, 0, std::string("\"") + key + "\" is " + j[key].dump() + ", not a string");
        field = j[key].get<std::string>();
    };
    size("vocab_size", c.vocabSize, 1 << 22);
    size("hidden_size", c.hiddenSize, 1 << 14);
    size("num_hidden_layers", c.layers, 256);
    size("num_attention_heads", c.heads, 256);
    size("intermediate_size", c.intermediateSize, 1 << 16);
    size("max_position_embeddings", c.maxPositions, 1 << 16);
    if (j.contains("type_vocab_size"))
        size("type_vocab_size", c.typeVocabSize, 1 << 10);
    if (j.contains("layer_norm_eps")) {
        if (!j["layer_norm_eps"].is_number() || !std::isfinite(j["layer_norm_eps"].get<double>()) || j["layer_norm_eps"].get<double>() <= 0)
            throw DataError(source, 0, "\"layer_norm_eps\" is " + j["layer_norm_eps"].dump() + ", not a small positive number");
        c.layerNormEps = j["layer_norm_eps"].get<double>();
    }
    text("hidden_act", c.hiddenAct);
    text("model_type", c.modelType);
    text("_name_or_path", c.nameOrPath);
    std::string position = "absolute";
    text("position_embedding_type", position);
    if (c.hiddenSize % c.heads != 0)
        throw DataError(source, 0, "\"num_attention_heads\" (" + std::to_string(c.heads) + ") does not divide \"hidden_size\" (" +
                                       std::to_string(c.hiddenSize) + ")");
    if (c.hiddenAct != "gelu")
        throw DataError(source, 0, "\"hidden_act\" is \"" + c.hiddenAct + "\": this encoder has the exact GELU (\"gelu\") only");
    if (position != "absolute")
        throw DataError(source, 0, "\"position_embedding_type\" is \"" + position + "\": this encoder has learned absolute positions only");
    if (c.modelType != "bert")
        throw DataError(source, 0, "\"model_type\" is \"" + c.modelType + "\": only BERT-style encoders (\"bert\") load here");
    return c;
}

} // namespace attnlab
