#pragma once
#include <string>

namespace attnlab {

// A BERT-style encoder's sizes, from the config.json beside its weights (Hugging Face's BertConfig keys).
struct BertConfig {
    int vocabSize = 30522;
    int hiddenSize = 384;
    int layers = 6;
    int heads = 12;
    int intermediateSize = 1536;
    int maxPositions = 512;
    int typeVocabSize = 2;
    double layerNormEps = 1e-12;
    std::string hiddenAct = "gelu";  // the exact, erf-based GELU
    std::string modelType = "bert";
    std::string nameOrPath;          // _name_or_path, for the user: where the weights came from

    int headSize() const { return hiddenSize / heads; }

    // Throws a DataError naming the file and the key: not JSON, a size that is not a positive whole number,
    // heads not dividing hidden_size, an activation or position embedding type this encoder does not have.
    static BertConfig fromFile(const std::string& path);
    static BertConfig fromJson(const std::string& json, const std::string& source);
};

} // namespace attnlab
