#include "core/TrainConfig.h"

#include <nlohmann/json.hpp>

#include <stdexcept>

namespace attnlab {

std::string TrainConfig::toJson() const
{
    nlohmann::json j = {
        {"dataset", dataset},
        {"model", model.model},
        {"position", model.position},
        {"d_model", model.dModel},
        {"layers", model.layers},
        {"rpr_clip", model.rprClip},
        {"ff_hidden", model.ffHidden},
        {"dropout_keep", model.dropoutKeep},
        {"dropout_points", model.dropoutPoints},
        {"dropout_input_keep", model.dropoutInputKeep},
        {"dropout_hidden_keep", model.dropoutHiddenKeep},
        {"dropout_output_keep", model.dropoutOutputKeep},
        {"embedding_dim", model.embeddingDim},
        {"heads", model.heads},
        {"ffn_hidden", model.ffnHidden},
        {"filters", model.filters},
        {"max_length", model.maxLength},
        {"activation", model.activation},
        {"pooling", model.pooling},
        {"optimizer", optimizer},
        {"learning_rate", learningRate},
        {"batch_size", batchSize},
        {"sampling", sampling},
        {"data_dir", dataDir},
        {"steps", steps},
        {"eval_every", evalEvery},
        {"log_every", logEvery},
        {"seed", seed},
        {"device", device},
        {"threads", threads},
        {"phrases", phrases},
        {"embeddings", embeddingsPath},
        {"embeddings_frozen", embeddingsFrozen},
        {"oov_range", oovRange},
    };
    return j.dump();
}

TrainConfig TrainConfig::fromJson(const std::string& text)
{
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        throw std::invalid_argument(std::string("config JSON: ") + e.what());
    }
    if (!j.is_object())
        throw std::invalid_argument("config JSON: expected an object");
    TrainConfig c;
    auto read = [&](const char* key, auto& target) {
        if (!j.contains(key))
            return;
        try {
            j.at(key).get_to(target);
        } catch (const nlohmann::json::exception&) {
            throw std::invalid_argument(std::string("config JSON: key '") + key + "' has the wrong type");
        }
    };
    read("dataset", c.dataset);
    read("model", c.model.model);
    read("position", c.model.position);
    read("d_model", c.model.dModel);
    read("layers", c.model.layers);
    read("rpr_clip", c.model.rprClip);
    read("ff_hidden", c.model.ffHidden);
    read("dropout_keep", c.model.dropoutKeep);
    read("dropout_points", c.model.dropoutPoints);
    read("dropout_input_keep", c.model.dropoutInputKeep);
    read("dropout_hidden_keep", c.model.dropoutHiddenKeep);
    read("dropout_output_keep", c.model.dropoutOutputKeep);
    read("embedding_dim", c.model.embeddingDim);
    read("heads", c.model.heads);
    read("ffn_hidden", c.model.ffnHidden);
    read("filters", c.model.filters);
    read("max_length", c.model.maxLength);
    read("activation", c.model.activation);
    read("pooling", c.model.pooling);
    read("optimizer", c.optimizer);
    read("learning_rate", c.learningRate);
    read("batch_size", c.batchSize);
    read("sampling", c.sampling);
    read("data_dir", c.dataDir);
    read("steps", c.steps);
    read("eval_every", c.evalEvery);
    read("log_every", c.logEvery);
    read("seed", c.seed);
    read("device", c.device);
    read("threads", c.threads);
    read("phrases", c.phrases);
    read("embeddings", c.embeddingsPath);
    read("embeddings_frozen", c.embeddingsFrozen);
    read("oov_range", c.oovRange);
    return c;
}

std::string TrainConfig::validate() const
{
    if (optimizer != "adam" && optimizer != "adadelta")
        return "optimizer: unknown '" + optimizer + "' (known: adam, adadelta)";
    if (!(learningRate > 0.0))
        return "learning_rate: must be positive";
    if (batchSize < 1)
        return "batch_size: must be at least 1";
    if (sampling != "random" && sampling != "epochs")
        return "sampling: unknown '" + sampling + "' (known: random, epochs)";
    if (steps < 1)
        return "steps: must be at least 1";
    if (evalEvery < 1)
        return "eval_every: must be at least 1";
    if (logEvery < 1)
        return "log_every: must be at least 1";
    if (device != "auto" && device != "cpu" && device != "cuda")
        return "device: unknown '" + device + "' (known: auto, cpu, cuda)";
    if (threads < 0)
        return "threads: must be 0 (all cores) or positive";
    if (!(oovRange >= 0.0))
        return "oov_range: must be 0 or positive";
    return {};
}

} // namespace attnlab
