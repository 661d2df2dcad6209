#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/data/Batch.h"

#include <torch/torch.h>

namespace attnlab {

// A Batch as tensors on a device: ids [B,T] long, mask [B,T] bool, labels [B] long; and lengths [B] long
// on the host, always: packing a recurrent model's input needs them there, and reading them back from a
// GPU mask would make every step wait for the device.
// Host memory onto the device without making the host wait for it (pinned memory, non_blocking on a GPU; a
// copy on the CPU, since `host` may point into the caller's vectors).
torch::Tensor hostToDevice(const torch::Tensor& host, const torch::Device& device, torch::ScalarType type);

struct TensorBatch {
    torch::Tensor ids, mask, labels, lengths;
    static TensorBatch from(const Batch& batch, const torch::Device& device);
};

} // namespace attnlab
