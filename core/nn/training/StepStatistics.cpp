#include "core/nn/training/StepStatistics.h"

#include <cmath>
#include <limits>

namespace attnlab {

namespace {
constexpr std::int64_t kNoStep = std::numeric_limits<std::int32_t>::max();
}

std::optional<double> StepStatistics::add(int step, const torch::Tensor& loss, const torch::Tensor& metric,
                                          std::int64_t count)
{
    ++steps_;
    count_ += count;
    if (!deferReads_) {
        const double value = loss.item<double>();
        if (!std::isfinite(value) && firstBad_ == 0) {
            firstBad_ = step;
            firstBadLoss_ = value;
        }
        lossSum_ += value;
        if (metric.defined())
            metricSum_ += metric.item<double>();
        return value;
    }
    torch::NoGradGuard noGrad;
    const auto value = loss.detach().to(torch::kDouble);
    deviceLoss_ = deviceLoss_.defined() ? deviceLoss_ + value : value;
    if (metric.defined()) {
        const auto m = metric.detach().to(torch::kDouble);
        deviceMetric_ = deviceMetric_.defined() ? deviceMetric_ + m : m;
    }
    // The first bad step: min over steps of (step if not finite else kNoStep), all on the device.
    const auto here = torch::where(torch::isfinite(value), torch::full({}, kNoStep, value.options().dtype(torch::kLong)),
                                   torch::full({}, static_cast<std::int64_t>(step), value.options().dtype(torch::kLong)));
    if (!deviceFirstBad_.defined()) {
        deviceFirstBad_ = here;
        deviceBadLoss_ = value;
    } else {
        const auto earlier = deviceFirstBad_ <= here;
        deviceBadLoss_ = torch::where(earlier, deviceBadLoss_, value);
        deviceFirstBad_ = torch::minimum(deviceFirstBad_, here);
    }
    return std::nullopt;
}

StepStatistics::Interval StepStatistics::flush()
{
    Interval out;
    out.steps = steps_;
    out.count = count_;
    if (!deferReads_) {
        out.lossSum = lossSum_;
        out.metricSum = metricSum_;
        out.firstNonFiniteStep = firstBad_;
        out.firstNonFiniteLoss = firstBadLoss_;
    } else if (steps_ > 0) {
        // One copy to the host for the whole interval: [loss sum, metric sum, first bad step, its loss].
        const auto zero = torch::zeros({}, deviceLoss_.options());
        const auto packed = torch::stack({deviceLoss_, deviceMetric_.defined() ? deviceMetric_ : zero,
                                          deviceFirstBad_.to(torch::kDouble), deviceBadLoss_})
                                .to(torch::kCPU);
        const double* v = packed.data_ptr<double>();
        out.lossSum = v[0];
        out.metricSum = v[1];
        out.firstNonFiniteStep = v[2] < static_cast<double>(kNoStep) ? static_cast<int>(v[2]) : 0;
        out.firstNonFiniteLoss = v[3];
    }
    steps_ = 0;
    count_ = 0;
    lossSum_ = metricSum_ = firstBadLoss_ = 0.0;
    firstBad_ = 0;
    deviceLoss_ = deviceMetric_ = deviceFirstBad_ = deviceBadLoss_ = torch::Tensor();
    return out;
}

} // namespace attnlab
