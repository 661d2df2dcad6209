#include "core/nn/training/ModelCheckpoint.h"

#include "core/platform/AtomicFile.h"
#include "core/data/install/Sha256.h"
#include "core/platform/ProcessInfo.h"
#include "core/platform/UtcTime.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <stdexcept>

namespace attnlab {

CheckpointRef ModelCheckpoint::save(torch::nn::Module& model, const TrainConfig& config, const std::string& taskMetadata,
                                    int step, const std::string& kind)
{
    namespace fs = std::filesystem;
    const fs::path dir = fs::absolute(config.checkpointDir);
    fs::create_directories(dir);
    const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    const std::string stamp = UtcTime::format(now, "%Y%m%dT%H%M%SZ");
    const std::string name = config.model.model + "-" + config.model.position + "-" + config.dataset + "-seed" +
                             std::to_string(config.seed) + "-" + stamp + "-" + std::to_string(ProcessInfo::currentId()) +
                             "-step" + std::to_string(step) + (kind == "best" ? "" : "-" + kind) + ".pt";
    const fs::path path = dir / name;

    nlohmann::json meta = {{"format", kFormat},
                                 {"kind", kind},
                                 {"step", step},
                                 {"config", nlohmann::json::parse(config.toJson())},
                                 // Set from the data, so not in the configuration's JSON, but the model's shape.
                                 {"sizes", {{"vocabulary_size", config.model.vocabularySize},
                                            {"num_classes", config.model.numClasses},
                                            {"embedding_dim", config.model.embeddingDim},
                                            {"drivers", config.model.drivers},
                                            {"window", config.model.window}}},
                                 {"task", nlohmann::json::parse(taskMetadata)}};
    if (config.model.horizon > 1) // a time series predicted several steps ahead: the output layer's width
        meta["sizes"]["horizon"] = config.model.horizon;
    if (config.model.targetVocabularySize > 0) // translation: the second word table's size
        meta["sizes"]["target_vocabulary_size"] = config.model.targetVocabularySize;
    // Written as CPU tensors, so that a run trained on a GPU explains on a machine without one; the model goes
    // back to its device after (it is saved once training is over).
    const auto parameters = model.parameters();
    const torch::Device device = parameters.empty() ? torch::Device(torch::kCPU) : parameters.front().device();
    torch::serialize::OutputArchive archive;
    if (device.is_cpu()) {
        model.save(archive);
    } else {
        model.to(torch::kCPU);
        model.save(archive);
        model.to(device);
    }
    archive.write(kMetaKey, c10::IValue(meta.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)));
    AtomicFile::writeThrough(path.string(), [&](const std::string& temporary) { archive.save_to(temporary); });
    return {step, path.string(), Sha256::ofFile(path.string())};
}

ModelCheckpoint::Opened ModelCheckpoint::open(const CheckpointRef& ref)
{
    namespace fs = std::filesystem;
    const std::string where = "checkpoint " + ref.path;
    std::error_code error;
    if (!fs::is_regular_file(ref.path, error))
        throw std::runtime_error(where + ": the file is gone (moved or deleted since the run saved it)");
    if (ref.sha256.empty())
        throw std::runtime_error(where + ": the store recorded no sha256 for it, so it is not loaded");
    // The hash is checked before LibTorch reads a byte: a file changed since training is never loaded.
    const std::string actual = Sha256::ofFile(ref.path);
    if (actual != ref.sha256)
        throw std::runtime_error(where + ": sha256 " + actual.substr(0, 12) + "... does not match the " +
                                 ref.sha256.substr(0, 12) + "... the store recorded; the file was changed, so it is not loaded");
    Opened opened;
    try {
        opened.archive.load_from(ref.path, torch::Device(torch::kCPU)); // any device's tensors, read onto the CPU
    } catch (const std::exception& e) {
        const std::string what = e.what();
        throw std::runtime_error(where + ": not a LibTorch archive (" + what.substr(0, what.find('\n')) + ")");
    }
    c10::IValue meta;
    if (!opened.archive.try_read(kMetaKey, meta) || !meta.isString())
        throw std::runtime_error(where + ": saved by an older Attention Lab without its vocabulary and settings; "
                                         "train the run again to explore it");
    opened.metadataJson = meta.toStringRef();
    return opened;
}

void ModelCheckpoint::loadInto(torch::nn::Module& model, Opened& opened, const CheckpointRef& ref, const std::string& modelId)
{
    try {
        model.load(opened.archive);
    } catch (const std::exception& e) {
        const std::string what = e.what();
        throw std::runtime_error("checkpoint " + ref.path + ": its weights do not fit a " + modelId + " of these settings (" +
                                 what.substr(0, what.find('\n')) + ")");
    }
}

} // namespace attnlab
