#include "core/nn/layers/TensorConversions.h"

namespace attnlab {

TensorBatch TensorBatch::from(const Batch& batch, const torch::Device& device)
{
    const auto longs = torch::TensorOptions().dtype(torch::kLong);
    TensorBatch t;
    t.ids = torch::from_blob(const_cast<std::int64_t*>(batch.tokenIds.data()), {batch.batchSize, batch.maxLength}, longs)
                .to(device, /*non_blocking=*/false, /*copy=*/true);
    t.mask = torch::from_blob(const_cast<std::uint8_t*>(batch.mask.data()), {batch.batchSize, batch.maxLength},
                              torch::TensorOptions().dtype(torch::kUInt8))
                 .to(device, torch::kBool, false, true);
    if (!batch.labels.empty())
        t.labels = torch::from_blob(const_cast<std::int64_t*>(batch.labels.data()), {batch.batchSize}, longs)
                       .to(device, false, true);
    return t;
}

} // namespace attnlab
