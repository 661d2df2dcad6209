#pragma once
#include <cstdint>
#include <string>

namespace attnlab {

class GgufFile;

// A LLaMA-architecture decoder's sizes as a GGUF file's metadata gives them (llama.cpp's keys, `llama.*`), checked:
// the architecture is llama, every size positive, the heads dividing the width and the key/value heads the heads.
struct LlamaConfig {
    std::string name; // general.name
    int layers = 0; // llama.block_count
    int width = 0; // llama.embedding_length (d_model)
    int heads = 0; // llama.attention.head_count
    int kvHeads = 0; // llama.attention.head_count_kv (grouped-query attention when fewer)
    int headSize = 0; // width / heads, or llama.attention.key_length
    int ffnHidden = 0; // llama.feed_forward_length
    int vocabulary = 0; // llama.vocab_size, or the tokenizer's token count
    int context = 0; // llama.context_length: the longest text it was trained on
    int ropeDimensions = 0; // llama.rope.dimension_count (the whole head in SmolLM2)
    double ropeBase = 10000.0; // llama.rope.freq_base
    double rmsEps = 1e-5; // llama.attention.layer_norm_rms_epsilon
    bool tiedOutput = true; // no output.weight: the output layer is the token table

    // Throws a DataError naming the file and the key: a missing key, an architecture other than llama, sizes that
    // do not fit together, RoPE on part of a head (not supported).
    static LlamaConfig fromGguf(const GgufFile& file);
    std::int64_t parameters() const; // every weight, the tied table once
};

} // namespace attnlab
