#pragma once
#include "core/config/ModelConfig.h"
#include "core/data/TextDataset.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace attnlab {

// The thesis' model-characteristics protocol (Table 5.4, section 5.1.7): trainable parameters, peak
// memory while training, the time to train E epochs of a dataset's train split in batches of 32 with
// Adam, and the time to predict its dev split P times in batches of 32. No dev evaluation, no
// logging, no snapshots: only the work the thesis timed.
class ModelCharacteristics {
public:
    struct Settings {
        int epochs = 10;          // thesis: 10 epochs of SST-fine train = 2670 batches of 32
        int predictPasses = 10;   // thesis: 10 passes over SST dev
        int batchSize = 32;
        std::string device = "auto";
        int threads = 0;          // intra-op threads; 0 = all cores
        std::uint64_t seed = 1;
        double learningRate = 1e-3; // Adam, as the thesis
    };
    struct Result {
        std::int64_t parameters = 0;   // embeddings excluded (the thesis' convention)
        double peakMemoryMb = 0.0;     // resident set high-water mark while training (MiB)
        double baselineMemoryMb = 0.0; // resident set before the model was built
        std::string memoryKind;        // "cpu resident set" or why nothing else was measured
        double trainSeconds = 0.0;
        int trainBatches = 0;
        double predictSeconds = 0.0;
        int predictBatches = 0;        // over all passes
        double lastTrainLoss = 0.0;    // mean of the last epoch: shows the model did learn something
        std::string device;            // e.g. "cpu (2 threads)"
        std::string summary;           // the model as built
    };
    // One of the thesis' Table 5.4/5.7 models.
    struct ThesisModel {
        std::string id;      // e.g. "ssan-rpr"
        std::string label;   // e.g. "1-Layer SSAN + RPR"
        ModelConfig config;
    };

    // The models of Tables 5.4 and 5.7 at width dModel (thesis: 300), settings from the presets of
    // Tables 5.3 and 5.6 (ESSAN: 2 layers, RPR k = 20, Swish, 15 heads where they divide dModel).
    static std::vector<ThesisModel> thesisModels(int dModel);

    // batchDone(done, total) after every training and prediction batch (progress display).
    // Throws std::invalid_argument for a configuration that cannot be built (naming the setting).
    static Result measure(const ModelConfig& model, const TextDataset& dataset, const Settings& settings,
                          const std::function<void(int, int)>& batchDone = {});
};

} // namespace attnlab
