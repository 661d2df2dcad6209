#pragma once
// PRIVATE engine header: includes LibTorch.
#include <torch/torch.h>

#include <cstdint>
#include <optional>

namespace attnlab {

// The losses and train metrics of the steps between two log points. On a GPU, reading a step's loss
// (.item()) waits for the device to finish the step: a host synchronisation every step that leaves the GPU
// idle while the host queues the next one. There the sums stay on the device and are read once per log
// interval (flush), where the first step whose loss was not finite is found too. On the CPU a read costs
// nothing, so each step's loss is read at once and progress carries every step's own loss, as before.
class StepStatistics {
public:
    explicit StepStatistics(bool deferReads) : deferReads_(deferReads) {}

    // One step: its loss (scalar), its train metric summed over the batch (scalar; undefined for none) and
    // its example count. Returns the step's loss when it was read now (CPU), nullopt when deferred.
    std::optional<double> add(int step, const torch::Tensor& loss, const torch::Tensor& metric, std::int64_t count);

    struct Interval {
        int steps = 0;
        double lossSum = 0.0;
        double metricSum = 0.0;
        std::int64_t count = 0;
        int firstNonFiniteStep = 0; // 0: every loss was finite
        double firstNonFiniteLoss = 0.0;
    };
    // Reads the interval's sums (one device read) and starts a new interval.
    Interval flush();
    bool empty() const { return steps_ == 0; }
    bool deferred() const { return deferReads_; }

private:
    bool deferReads_;
    int steps_ = 0;
    std::int64_t count_ = 0;
    // Read now (CPU):
    double lossSum_ = 0.0, metricSum_ = 0.0;
    int firstBad_ = 0;
    double firstBadLoss_ = 0.0;
    // Kept on the device (GPU): sums in float64, and the first non-finite step as min over steps (or a large value).
    torch::Tensor deviceLoss_, deviceMetric_, deviceFirstBad_, deviceBadLoss_;
};

} // namespace attnlab
