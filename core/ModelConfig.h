#pragma once
#include <string>

namespace attnlab {

// Architecture settings. Plain data; validate() says which setting cannot work and why.
struct ModelConfig {
    std::string model = "ssan";     // registry id: ssan | lstm
    std::string position = "rpr";   // registry id: none | rpr
    int dModel = 64;                // hidden size
    int embeddingDim = 0;           // word vectors' size; 0 = dModel (a pre-trained file sets it)
    int layers = 1;                 // self-attention layers (SSAN) or stacked LSTM layers
    int rprClip = 10;               // k of Shaw et al.: relative distances clipped to [-k, k]
    int ffHidden = 50;              // LSTM baseline: size of the ReLU layer before softmax (Barnes et al.)
    double dropoutKeep = 0.8;       // keep probability, as the thesis states it
    int vocabularySize = 0;         // set from the dataset
    int numClasses = 0;             // set from the dataset

    // Empty when the configuration can be built, else a message naming the setting.
    std::string validate() const;
};

} // namespace attnlab
