#include "core/nn/layers/AttentionInputRecorder.h"

namespace attnlab {
namespace {
thread_local AttentionInputRecorder* activeRecorder = nullptr; // named apart: the unity build joins this file with AttentionPermutation.cpp
} // namespace

AttentionInputRecorder::AttentionInputRecorder() { activeRecorder = this; }

AttentionInputRecorder::~AttentionInputRecorder() { activeRecorder = nullptr; }

void AttentionInputRecorder::record(SelfAttentionImpl* layer, const torch::Tensor& input, const torch::Tensor& mask)
{
    if (activeRecorder)
        activeRecorder->calls_.push_back({layer, input.detach().clone(), mask.detach().clone()});
}

} // namespace attnlab
