#include "core/nn/training/FusedCpuAdam.h"

#include "core/nn/training/AdamUpdate.h"

#include <ATen/Parallel.h>

#include <algorithm>
#include <stdexcept>

namespace attnlab {
namespace {

constexpr std::int64_t kGrain = 32768; // elements a thread takes at least: below it, one thread does the whole parameter

template <typename Scalar>
void updateInParallel(torch::Tensor& p, const torch::Tensor& g, torch::Tensor& m, torch::Tensor& v, const AdamUpdate::Coefficients& c)
{
    Scalar* pData = p.data_ptr<Scalar>();
    const Scalar* gData = g.data_ptr<Scalar>();
    Scalar* mData = m.data_ptr<Scalar>();
    Scalar* vData = v.data_ptr<Scalar>();
    at::parallel_for(0, p.numel(), kGrain, [&](std::int64_t begin, std::int64_t end) {
        AdamUpdate::apply(pData + begin, gData + begin, mData + begin, vData + begin, end - begin, c);
    });
}

} // namespace

FusedCpuAdam::FusedCpuAdam(std::vector<torch::Tensor> parameters, double beta1, double beta2, double eps)
    : parameters_(std::move(parameters)), beta1_(beta1), beta2_(beta2), eps_(eps)
{
    if (!suits(parameters_))
        throw std::invalid_argument("FusedCpuAdam: every parameter must be a contiguous float32 or float64 CPU tensor");
    firstMoment_.resize(parameters_.size());
    secondMoment_.resize(parameters_.size());
    stepOf_.assign(parameters_.size(), 0);
}

bool FusedCpuAdam::suits(const std::vector<torch::Tensor>& parameters)
{
    return std::all_of(parameters.begin(), parameters.end(), [](const torch::Tensor& p) {
        return p.device().is_cpu() && p.layout() == torch::kStrided && p.is_contiguous() &&
               (p.scalar_type() == torch::kFloat || p.scalar_type() == torch::kDouble);
    });
}

void FusedCpuAdam::step(double learningRate)
{
    torch::NoGradGuard noGrad;
    for (std::size_t i = 0; i < parameters_.size(); ++i) {
        auto& p = parameters_[i];
        if (!p.grad().defined()) // as torch::optim::Adam: no gradient, no step, no state
            continue;
        if (p.grad().is_sparse())
            throw std::invalid_argument("FusedCpuAdam: sparse gradients are not supported");
        const auto g = p.grad().contiguous(); // a gradient may come strided
        if (!firstMoment_[i].defined()) {
            firstMoment_[i] = torch::zeros_like(p);
            secondMoment_[i] = torch::zeros_like(p);
        }
        const auto c = AdamUpdate::forStep(++stepOf_[i], learningRate, beta1_, beta2_, eps_);
        if (p.scalar_type() == torch::kFloat)
            updateInParallel<float>(p, g, firstMoment_[i], secondMoment_[i], c);
        else
            updateInParallel<double>(p, g, firstMoment_[i], secondMoment_[i], c);
    }
}

std::int64_t FusedCpuAdam::steps() const
{
    return stepOf_.empty() ? 0 : *std::max_element(stepOf_.begin(), stepOf_.end());
}

} // namespace attnlab
