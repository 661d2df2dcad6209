#include "core/nn/models/LanguageModel.h"

namespace attnlab {

std::int64_t LanguageModel::trainableParameters() const
{
    std::int64_t count = 0;
    for (const auto& item : named_parameters(/*recurse=*/true))
        if (item.value().requires_grad() && item.key().find("learned_positions") == std::string::npos)
            count += item.value().numel();
    return count;
}

void LanguageModel::select(State& state, const torch::Tensor& rows) const
{
    for (auto& t : state.tensors)
        t = t.index_select(0, rows.to(t.device()));
}

} // namespace attnlab
