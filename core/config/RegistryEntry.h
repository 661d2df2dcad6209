#pragma once
#include "core/config/TaskKind.h"

#include <string>

namespace attnlab {

// One selectable dataset or position technique with its id and a one-line description (a model is a
// ModelSpec, which declares more).
struct RegistryEntry {
    std::string id;
    std::string name;
    std::string description;
    TaskKind task = TaskKind::Classification; // datasets: what their examples ask of a model
};

} // namespace attnlab
