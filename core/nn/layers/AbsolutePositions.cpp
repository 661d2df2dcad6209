#include "core/nn/layers/AbsolutePositions.h"

#include "core/nn/layers/PositionEncoding.h"

namespace attnlab {

AbsolutePositionsImpl::AbsolutePositionsImpl(const std::string& technique, int width, int maxLength)
    : technique_(technique), maxLength_(maxLength)
{
    if (technique == "learned")
        learned_ = register_module("learned_positions", torch::nn::Embedding(maxLength, width));
}

torch::Tensor AbsolutePositionsImpl::forward(const torch::Tensor& embeddings)
{
    const int64_t length = embeddings.size(1), width = embeddings.size(2);
    if (technique_ == "sinusoidal")
        return embeddings + PositionEncoding::sinusoidal(length, width, embeddings.options()).unsqueeze(0);
    if (technique_ == "learned") {
        TORCH_CHECK(length <= maxLength_, "max_length: a sequence of ", length,
                    " tokens is longer than the learned position encodings (", maxLength_, ")");
        auto positions = torch::arange(length, torch::TensorOptions().dtype(torch::kLong).device(embeddings.device()));
        return embeddings + learned_(positions).unsqueeze(0);
    }
    return embeddings;
}

} // namespace attnlab
