#include "core/nn/layers/TensorConversions.h"

namespace attnlab {

// To a GPU through pinned (page-locked) memory and non_blocking, so the copy is queued on the stream instead
// of waiting for the device (a pageable copy is a cudaMemcpy and a stream sync); the caching host allocator
// keeps the pinned block until the copy has run.
torch::Tensor hostToDevice(const torch::Tensor& host, const torch::Device& device, torch::ScalarType type)
{
    if (device.is_cuda())
        return host.pin_memory().to(device, type, /*non_blocking=*/true);
    return host.to(device, type, /*non_blocking=*/false, /*copy=*/true);
}

std::vector<float> hostFloats(const torch::Tensor& t)
{
    const auto c = t.to(torch::kCPU, torch::kFloat).contiguous();
    return {c.data_ptr<float>(), c.data_ptr<float>() + c.numel()};
}

std::vector<std::int64_t> hostLongs(const torch::Tensor& t)
{
    const auto c = t.to(torch::kCPU, torch::kLong).contiguous();
    return {c.data_ptr<std::int64_t>(), c.data_ptr<std::int64_t>() + c.numel()};
}

TensorBatch TensorBatch::from(const Batch& batch, const torch::Device& device)
{
    const auto longs = torch::TensorOptions().dtype(torch::kLong);
    TensorBatch t;
    t.ids = hostToDevice(torch::from_blob(const_cast<std::int64_t*>(batch.tokenIds.data()), {batch.batchSize, batch.maxLength}, longs),
                     device, torch::kLong);
    t.mask = hostToDevice(torch::from_blob(const_cast<std::uint8_t*>(batch.mask.data()), {batch.batchSize, batch.maxLength},
                                       torch::TensorOptions().dtype(torch::kUInt8)),
                      device, torch::kBool);
    if (batch.lengths.size() == static_cast<std::size_t>(batch.batchSize))
        t.lengths = torch::tensor(batch.lengths, longs);
    if (!batch.labels.empty())
        t.labels = hostToDevice(torch::from_blob(const_cast<std::int64_t*>(batch.labels.data()), {batch.batchSize}, longs), device,
                            torch::kLong);
    return t;
}

} // namespace attnlab
