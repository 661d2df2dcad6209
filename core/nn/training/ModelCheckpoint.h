#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/config/TrainConfig.h"
#include "core/results/RunRecord.h"

#include <torch/torch.h>

#include <string>

namespace attnlab {

// A trained model in one file that needs nothing else to be used again: the weights as a LibTorch
// archive plus, under the key "attnlab_meta", a JSON object with the run's configuration and the model's
// sizes set from the data (vocabulary, classes, drivers, window), which weights these are ("best" dev or "final"), the step, and the task's metadata
// (TrainingTask::checkpointMetadata: vocabulary and classes, or series scaling). One file, one sha256 in
// the store: the vocabulary cannot drift from the weights it belongs to.
class ModelCheckpoint {
public:
    static constexpr const char* kMetaKey = "attnlab_meta";
    static constexpr int kFormat = 1;

    // Writes under a temporary name and renames, so a file with the final name is always whole. The name
    // says model, position, dataset, seed, time, pid, step and kind, so runs never collide.
    static CheckpointRef save(torch::nn::Module& model, const TrainConfig& config, const std::string& taskMetadata,
                              int step, const std::string& kind);

    // Reads a file the store recorded, only when its sha256 is the recorded one: throws
    // std::runtime_error naming the file when it is missing, altered (hash mismatch) or not a checkpoint
    // of this format. The archive is then ready for Module::load.
    struct Opened {
        std::string metadataJson; // the whole "attnlab_meta" object
        torch::serialize::InputArchive archive;
    };
    static Opened open(const CheckpointRef& ref);
    // Module::load from an opened file, its failure worded for a person: "checkpoint PATH: its weights do not fit
    // a MODEL of these settings (LibTorch's first line)".
    static void loadInto(torch::nn::Module& model, Opened& opened, const CheckpointRef& ref, const std::string& modelId);
};

} // namespace attnlab
