#include "core/nn/models/SeriesRegressor.h"

namespace attnlab {

std::int64_t SeriesRegressor::trainableParameters() const
{
    std::int64_t count = 0;
    for (const auto& p : parameters())
        if (p.requires_grad())
            count += p.numel();
    return count;
}

} // namespace attnlab
