#include "core/nn/layers/RecurrentSteps.h"

namespace attnlab {

namespace {

// Each row's last step in time order: the row is active while batchSizes[t] > row.
torch::Tensor lastSteps(const std::vector<int64_t>& batchSizes)
{
    std::vector<int64_t> last(static_cast<std::size_t>(batchSizes.front()), 0);
    for (std::size_t t = 0; t < batchSizes.size(); ++t)
        for (int64_t b = 0; b < batchSizes[t]; ++b)
            last[static_cast<std::size_t>(b)] = static_cast<int64_t>(t);
    return torch::tensor(last);
}

} // namespace

torch::Tensor RecurrentSteps::finalOf(const torch::Tensor& states, const std::vector<int64_t>& batchSizes, bool reverse)
{
    if (reverse)
        return states[0].clone();
    return states.index({lastSteps(batchSizes), torch::arange(states.size(1))});
}

void RecurrentSteps::addFinalGradient(torch::Tensor& dStates, const torch::Tensor& dFinal, const std::vector<int64_t>& batchSizes,
                                      bool reverse)
{
    if (!dFinal.defined())
        return;
    if (reverse)
        dStates[0] += dFinal;
    else
        dStates.index_put_({lastSteps(batchSizes), torch::arange(dStates.size(1))}, dFinal, /*accumulate=*/true);
}

void RecurrentSteps::check(const torch::Tensor& x, const std::vector<int64_t>& batchSizes, const char* layer)
{
    TORCH_CHECK(x.dim() == 3 && static_cast<int64_t>(batchSizes.size()) == x.size(0) && !batchSizes.empty()
                    && batchSizes.front() == x.size(1),
                layer, ": x must be [T, B, I] with one batch size per step, the first the whole batch");
}

RecurrentSteps::WeightGradients RecurrentSteps::gradientsOf(const torch::Tensor& dInputTerms, const torch::Tensor& dRecurrentTerms,
                                                            const torch::Tensor& x, const torch::Tensor& states,
                                                            const torch::Tensor& wIh, bool reverse, bool inputNeedsGradient)
{
    const int64_t steps = x.size(0), rows = x.size(1), gates = dInputTerms.size(2), hidden = states.size(2);
    const auto flatInput = dInputTerms.view({steps * rows, gates});
    WeightGradients g;
    if (inputNeedsGradient)
        g.input = flatInput.mm(wIh).view({steps, rows, x.size(2)});
    g.ih = flatInput.t().mm(x.reshape({steps * rows, x.size(2)}));
    if (steps > 1) {
        auto later = dRecurrentTerms.narrow(0, reverse ? 0 : 1, steps - 1).reshape({-1, gates});
        auto before = states.narrow(0, reverse ? 1 : 0, steps - 1).reshape({-1, hidden});
        g.hh = later.t().mm(before);
    } else {
        g.hh = torch::zeros({gates, hidden}, x.options());
    }
    return g;
}

} // namespace attnlab
