#pragma once
// PRIVATE engine header: includes LibTorch (the CUDA parts only in CudaGraphStep.cpp, where this LibTorch has them).
#include <torch/torch.h>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace attnlab {

// A whole training step (zero the gradients, forward, loss, backward, clip, optimiser) recorded once per batch
// shape as a CUDA graph and replayed, so the host launches one graph a step instead of hundreds of kernels
// (on an H100 the eager step is launch-bound; the PyTorch twin ran 5.6-6.8x faster captured).
// The step must read nothing from the host and allocate nothing that depends on the batch's values:
// TrainConfig::capturableStep's Adam (CapturableAdam), length-bucketed batches, a model without host lengths.
// How (as PyTorch's "whole network capture"): the first warm-up steps run eagerly on a side stream (cuBLAS and
// the autograd engine set themselves up there); a new shape's first step runs eagerly there too, and is then
// captured on that stream into its own memory pool (capturing records, it does not run) for its next steps. Inputs are
// copied into the shape's static tensors on the current stream before each replay; the outputs are copied out after it,
// so the next replay cannot overwrite what the caller holds.
class CudaGraphStep {
public:
    // The step on device inputs (the shape's static tensors), returning what the caller reads: the loss and the
    // batch's metric, say.
    using Body = std::function<std::vector<torch::Tensor>(const std::vector<torch::Tensor>& inputs)>;
    CudaGraphStep(const torch::Device& device, Body body, int warmupSteps = 3);
    ~CudaGraphStep();
    CudaGraphStep(const CudaGraphStep&) = delete;
    CudaGraphStep& operator=(const CudaGraphStep&) = delete;

    // Whether this LibTorch can capture (the PyPI flavour has the CUDA backend; Debian's has none).
    static bool available();
    // One step on these host tensors (their shapes pick the graph): copied to the device, then run.
    std::vector<torch::Tensor> run(const std::vector<torch::Tensor>& host);
    // Whether run() on these tensors would warm up or capture first (then the host may wait for the device).
    bool wouldCapture(const std::vector<torch::Tensor>& host) const;
    // Graphs captured so far (one per batch shape seen after the warm-up).
    int graphs() const;
    // Why a capture failed, or "": after a failure every step runs eagerly (the graphs captured before it are
    // dropped from use), so the run goes on at eager speed rather than failing.
    const std::string& failure() const;

private:
    struct Captured;
    torch::Device device_;
    Body body_;
    int warmupLeft_;
    std::map<std::string, std::unique_ptr<Captured>> graphs_; // by the inputs' shapes and types
    std::string failure_;
};

} // namespace attnlab
