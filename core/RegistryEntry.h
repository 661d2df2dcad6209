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
    std::string task = "classification"; // datasets and models: classification | regression
};

} // namespace attnlab
