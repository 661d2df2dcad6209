#include "core/nn/layers/AbsolutePositions.h"

#include "core/nn/layers/PositionEncoding.h"

namespace attnlab {

AbsolutePositionsImpl::AbsolutePositionsImpl(const std::string& technique, int width, int maxLength)
    : technique_(technique), maxLength_(maxLength)
{
    if (technique == "learned")
        learned_ = register_module("learned_positions", torch::nn::Embedding(maxLength, width));
}

torch::Tensor AbsolutePositionsImpl::forward(const torch::Tensor& embeddings, int64_t offset)
{
    const int64_t length = embeddings.size(1), width = embeddings.size(2);
    if (technique_ == "sinusoidal")
        return embeddings + PositionEncoding::sinusoidal(offset + length, width, embeddings.options()).slice(0, offset).unsqueeze(0);
    if (technique_ == "learned") {
        TORCH_CHECK(offset + length <= maxLength_, "max_length: a sequence of ", offset + length,
                    " tokens is longer than the learned position encodings (", maxLength_, ")");
        auto positions = torch::arange(offset, offset + length, torch::TensorOptions().dtype(torch::kLong).device(embeddings.device()));
        return embeddings + learned_(positions).unsqueeze(0);
    }
    return embeddings;
}

} // namespace attnlab
