#include "core/nn/training/InputGradientProfile.h"

#include <algorithm>
#include <cmath>

namespace attnlab {
namespace {

// cuDNN's RNN backward refuses eval mode; LibTorch's own kernels do not. Restored however the pass ends.
struct CudnnOff {
    explicit CudnnOff(bool on) : active(on), was(at::globalContext().userEnabledCuDNN())
    {
        if (active)
            at::globalContext().setUserEnabledCuDNN(false);
    }
    ~CudnnOff()
    {
        if (active)
            at::globalContext().setUserEnabledCuDNN(was);
    }
    CudnnOff(const CudnnOff&) = delete;
    CudnnOff& operator=(const CudnnOff&) = delete;
    bool active, was;
};

} // namespace

double InputGradientProfile::shareFor(std::int64_t total, std::int64_t wanted)
{
    return total <= wanted || total <= 0 ? 1.0 : static_cast<double>(wanted) / static_cast<double>(total);
}

std::vector<double> InputGradientProfile::measure(SequenceClassifier& model, const std::vector<TensorBatch>& batches,
                                                  double share)
{
    model.eval();
    if (batches.empty())
        return {};
    // The subsample as one batch, padded to its longest sentence: one forward and one backward instead of one per
    // length bucket (measured: most of the pass's time was the per-call overhead of ~20 small batches).
    std::int64_t width = 0;
    std::vector<torch::Tensor> ids, mask, labels;
    for (const auto& b : batches) {
        const auto rows = std::min<std::int64_t>(
            b.ids.size(0), std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(b.ids.size(0) * share))));
        ids.push_back(b.ids.narrow(0, 0, rows));
        mask.push_back(b.mask.narrow(0, 0, rows));
        labels.push_back(b.labels.narrow(0, 0, rows));
        width = std::max(width, b.ids.size(1));
    }
    for (std::size_t i = 0; i < ids.size(); ++i) { // right-padded with id 0 and mask false, as BatchBuilder pads
        const auto missing = width - ids[i].size(1);
        if (missing > 0) {
            ids[i] = torch::constant_pad_nd(ids[i], {0, missing}, 0);
            mask[i] = torch::constant_pad_nd(mask[i], {0, missing}, 0);
        }
    }
    const auto allIds = torch::cat(ids), allMask = torch::cat(mask), allLabels = torch::cat(labels);
    const CudnnOff cudnnOff(allIds.is_cuda());
    torch::Tensor embedded;
    {
        torch::NoGradGuard noGrad;
        embedded = model.embed(allIds); // [B,T,E]
    }
    embedded = embedded.detach().requires_grad_(true);
    // Summed, not averaged: each example's gradient is its own loss's, whatever the batch's size.
    const auto loss = torch::nn::functional::cross_entropy(
        model.forwardEmbedded(embedded, allMask), allLabels,
        torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kSum));
    const auto gradient = torch::autograd::grad({loss}, {embedded})[0];                   // [B,T,E]
    const auto norms = gradient.norm(2, -1).to(torch::kCPU, torch::kDouble).contiguous(); // [B,T]
    const auto lengths = allMask.sum(1).to(torch::kCPU, torch::kLong).contiguous();       // [B]
    const auto* n = norms.data_ptr<double>();
    const auto* len = lengths.data_ptr<std::int64_t>();
    std::vector<double> sum, count;
    for (std::int64_t r = 0; r < norms.size(0); ++r) {
        if (len[r] > static_cast<std::int64_t>(sum.size())) {
            sum.resize(static_cast<std::size_t>(len[r]), 0.0);
            count.resize(static_cast<std::size_t>(len[r]), 0.0);
        }
        for (std::int64_t t = 0; t < len[r]; ++t) { // real tokens come first in a row (padding after them)
            const auto d = static_cast<std::size_t>(len[r] - 1 - t);
            sum[d] += n[r * width + t];
            count[d] += 1.0;
        }
    }
    for (std::size_t d = 0; d < sum.size(); ++d)
        sum[d] = count[d] > 0 ? sum[d] / count[d] : 0.0;
    return sum;
}

} // namespace attnlab
