#pragma once
// The small model the explainer and Explorer suites train into a real store: an ESSAN of 2 layers of 2 heads
// with RPR (any other model: 1 layer, no position), d_model 32, on the CPU, evaluated 6 times in `steps`.
#include "core/config/TrainConfig.h"

#include <cstdint>
#include <string>

namespace attnlab::testing {

inline TrainConfig smallRunConfig(const std::string& model, const std::string& dataset, int steps, std::uint64_t seed)
{
    TrainConfig c;
    c.dataset = dataset;
    c.model.model = model;
    c.model.position = model == "essan" ? "rpr" : "none";
    c.model.dModel = 32;
    c.model.layers = model == "essan" ? 2 : 1;
    c.model.heads = model == "essan" ? 2 : 1;
    c.steps = steps;
    c.evalEvery = steps / 6;
    c.seed = seed;
    c.device = "cpu";
    return c;
}

} // namespace attnlab::testing
