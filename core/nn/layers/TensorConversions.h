#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/data/Batch.h"

#include <torch/torch.h>

#include <cstdint>
#include <vector>

namespace attnlab {

// A Batch as tensors on a device: ids [B,T] long, mask [B,T] bool, labels [B] long; and lengths [B] long
// on the host, always: packing a recurrent model's input needs them there, and reading them back from a
// GPU mask would make every step wait for the device.
// Host memory onto the device without making the host wait for it (pinned memory, non_blocking on a GPU; a
// copy on the CPU, since `host` may point into the caller's vectors).
torch::Tensor hostToDevice(const torch::Tensor& host, const torch::Device& device, torch::ScalarType type);

// A tensor's values, in row-major order, copied to the host as float / int64 (what a snapshot, a decoded
// sentence or a report keeps); no copy on the way when it already is a contiguous host tensor of that type.
std::vector<float> hostFloats(const torch::Tensor& t);
std::vector<std::int64_t> hostLongs(const torch::Tensor& t);

struct TensorBatch {
    torch::Tensor ids, mask, labels, lengths;
    static TensorBatch from(const Batch& batch, const torch::Device& device);
};

} // namespace attnlab
