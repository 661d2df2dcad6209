#include "core/nn/layers/AttentionInputRecorder.h"

#include "core/nn/layers/SelfAttention.h"

#include <stdexcept>

namespace attnlab {
namespace {
thread_local AttentionInputRecorder* activeRecorder = nullptr; // named apart: the unity build joins this file with AttentionPermutation.cpp
} // namespace

AttentionInputRecorder::AttentionInputRecorder() { activeRecorder = this; }

AttentionInputRecorder::~AttentionInputRecorder() { activeRecorder = nullptr; }

bool AttentionInputRecorder::active() { return activeRecorder != nullptr; }

void AttentionInputRecorder::record(SelfAttentionImpl* layer, const torch::Tensor& input, const torch::Tensor& mask)
{
    if (!activeRecorder)
        return;
    // No mask: every position real (a language model's windows).
    const auto real = mask.defined() ? mask.detach().clone() : torch::ones({input.size(0), input.size(1)}, input.options().dtype(torch::kBool));
    record({static_cast<int>(layer->options().heads), static_cast<int>(input.size(1)),
            [layer, input = input.detach().clone(), mask = real](int head, int query) {
                return layer->stepByStep(input, mask, head, query);
            }});
}

void AttentionInputRecorder::record(Call call)
{
    if (activeRecorder)
        activeRecorder->calls_.push_back(std::move(call));
}

AttentionStepByStep AttentionInputRecorder::stepByStep(int layer, int head, int query, const std::string& model) const
{
    if (calls_.empty())
        throw std::invalid_argument("layer: model '" + model + "' has no self-attention layer to take step by step");
    return stepByStep(calls_, layer, head, query, "the model", "self-attention");
}

AttentionStepByStep AttentionInputRecorder::stepByStep(const std::vector<Call>& calls, int layer, int head, int query, const std::string& owner,
                                                       const std::string& kind)
{
    if (layer < 0 || static_cast<std::size_t>(layer) >= calls.size())
        throw std::invalid_argument("layer: " + owner + " has " + std::to_string(calls.size()) + " " + kind + " layer" + (calls.size() == 1 ? "" : "s") +
                                    " (got " + std::to_string(layer + 1) + ")");
    const Call call = calls[static_cast<std::size_t>(layer)]; // a copy: stepByStep runs the layer again
    if (head < 0 || head >= call.heads)
        throw std::invalid_argument("head: the layer has " + std::to_string(call.heads) + " heads (got " + std::to_string(head + 1) + ")");
    auto steps = call.steps(head, query);
    steps.layer = layer;
    return steps;
}

} // namespace attnlab
