#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/data/Batch.h"

#include <torch/torch.h>

namespace attnlab {

// A Batch as tensors on a device: ids [B,T] long, mask [B,T] bool, labels [B] long.
struct TensorBatch {
    torch::Tensor ids, mask, labels;
    static TensorBatch from(const Batch& batch, const torch::Device& device);
};

} // namespace attnlab
