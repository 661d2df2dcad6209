#pragma once
#include "core/ModelConfig.h"

#include <cstdint>
#include <string>

namespace attnlab {

// Everything that defines a training run; stored as JSON with the run.
struct TrainConfig {
    std::string dataset = "synthetic-sentiment";
    ModelConfig model;
    std::string optimizer = "adam";  // adam | adadelta
    double learningRate = 1e-3;      // Adam: 1e-3; ADADELTA: 1.0 (rho 0.95)
    int batchSize = 32;
    std::string dataDir;             // where real data is looked for first ("" = ATTNLAB_DATA_DIR, user data folder)
    std::string sampling = "random"; // random: each batch drawn at random (thesis) | epochs: shuffled epochs
    int steps = 600;
    int evalEvery = 50;              // steps between dev evaluations (and attention snapshots)
    int logEvery = 10;               // steps between train-metric points on the curves
    std::uint64_t seed = 1;
    std::string device = "auto";     // auto | cpu | cuda
    int threads = 0;                 // intra-op threads; 0 = all cores
    bool phrases = false;            // SST: train on every labelled phrase (thesis 5.2.1)
    std::string embeddingsPath;      // pre-trained word vectors (GloVe, word2vec, fastText); "" = random
    bool embeddingsFrozen = false;   // keep the pre-trained vectors fixed, else fine-tune them
    double oovRange = 0.25;          // out-of-vocabulary vectors uniform in [-a, a] (thesis: 0.25; 0.05 with GloVe)

    std::string toJson() const;
    // Throws std::invalid_argument naming the key on bad JSON.
    static TrainConfig fromJson(const std::string& json);
    std::string validate() const;
};

} // namespace attnlab
