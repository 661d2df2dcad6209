#include "core/data/pretrained/LlamaConfig.h"

#include "core/data/DataError.h"
#include "core/data/pretrained/GgufFile.h"

namespace attnlab {

namespace {

int positiveSize(const GgufFile& file, const std::string& key)
{
    const std::int64_t v = file.integer(key);
    if (v < 1 || v > (1 << 24))
        throw DataError(file.path(), 0,
                        "metadata '" + key + "' = " + std::to_string(v) + " is not a size (1 to 16777216)");
    return static_cast<int>(v);
}

} // namespace

LlamaConfig LlamaConfig::fromGguf(const GgufFile& file)
{
    const std::string& architecture = file.text("general.architecture");
    if (architecture != "llama")
        throw DataError(file.path(), 0, "architecture '" + architecture + "': the lab reads llama models only");
    LlamaConfig c;
    if (const GgufValue* name = file.find("general.name"); name && name->type == GgufValueType::String)
        c.name = name->text;
    c.layers = positiveSize(file, "llama.block_count");
    c.width = positiveSize(file, "llama.embedding_length");
    c.heads = positiveSize(file, "llama.attention.head_count");
    c.kvHeads =
        file.find("llama.attention.head_count_kv") ? positiveSize(file, "llama.attention.head_count_kv") : c.heads;
    c.ffnHidden = positiveSize(file, "llama.feed_forward_length");
    c.context = positiveSize(file, "llama.context_length");
    if (c.width % c.heads != 0)
        throw DataError(file.path(), 0,
                        "metadata 'llama.attention.head_count' = " + std::to_string(c.heads) +
                            " does not divide the width " + std::to_string(c.width));
    c.headSize =
        file.find("llama.attention.key_length") ? positiveSize(file, "llama.attention.key_length") : c.width / c.heads;
    if (c.heads % c.kvHeads != 0)
        throw DataError(file.path(), 0,
                        "metadata 'llama.attention.head_count_kv' = " + std::to_string(c.kvHeads) +
                            " does not divide the " + std::to_string(c.heads) + " query heads");
    c.ropeDimensions =
        file.find("llama.rope.dimension_count") ? positiveSize(file, "llama.rope.dimension_count") : c.headSize;
    if (c.ropeDimensions != c.headSize)
        throw DataError(file.path(), 0,
                        "metadata 'llama.rope.dimension_count' = " + std::to_string(c.ropeDimensions) +
                            ": rotary positions on part of a head (" + std::to_string(c.headSize) +
                            ") are not supported");
    if (file.find("llama.rope.freq_base"))
        c.ropeBase = file.real("llama.rope.freq_base");
    c.rmsEps = file.real("llama.attention.layer_norm_rms_epsilon");
    if (!(c.ropeBase > 1.0) || !(c.rmsEps > 0.0 && c.rmsEps < 1.0))
        throw DataError(file.path(), 0,
                        "metadata 'llama.rope.freq_base' or 'llama.attention.layer_norm_rms_epsilon' is out of range");
    c.vocabulary = file.find("llama.vocab_size") ? positiveSize(file, "llama.vocab_size")
                                                 : static_cast<int>(file.texts("tokenizer.ggml.tokens").size());
    c.tiedOutput = file.tensor("output.weight") == nullptr;
    return c;
}

std::int64_t LlamaConfig::parameters() const
{
    const std::int64_t d = width, kv = static_cast<std::int64_t>(kvHeads) * headSize,
                       q = static_cast<std::int64_t>(heads) * headSize;
    const std::int64_t perLayer = d * q + 2 * d * kv + q * d + 3 * d * ffnHidden + 2 * d;
    return static_cast<std::int64_t>(vocabulary) * d * (tiedOutput ? 1 : 2) + layers * perLayer + d;
}

} // namespace attnlab
