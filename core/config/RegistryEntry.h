#pragma once
#include <string>
#include <vector>

namespace attnlab {

// One selectable thing (dataset, model, position technique) with its id and a one-line description.
struct RegistryEntry {
    std::string id;
    std::string name;
    std::string description;
    std::vector<std::string> positions; // models only: position techniques that apply
    std::string task = "classification"; // datasets: classification | regression | translation | language_model; models also: both
    std::vector<std::string> pooling;    // models only: pooling choices, the default first
    std::vector<std::string> options;    // models only: ModelConfig settings that matter to it
    std::vector<std::string> dropoutAllowed; // models only: dropout points it has (input, hidden, output)
    std::vector<std::string> dropoutDefault; // models only: the points used when none are chosen
    // Models only: the pretrained model (a datasets/*.json manifest of task "pretrained") whose weights
    // start it; "" for the models trained from scratch. Its sizes come from that model's config.json.
    std::string pretrained = {};

    // Whether a model trains on data of this task: its own, and "both" for classification and regression (ESSAN);
    // no "both" model translates or models language.
    bool servesTask(const std::string& dataTask) const
    {
        return task == dataTask || (task == "both" && (dataTask == "classification" || dataTask == "regression"));
    }
};

} // namespace attnlab
