#include "core/nn/training/CudaGraphStep.h"

#include <sstream>
#include <stdexcept>

#if defined(ATTNLAB_TORCH_CUDA) // cmake/TorchFlavour.cmake: this LibTorch has its CUDA backend and headers
#include <ATen/cuda/CUDAEvent.h>
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime.h>
#endif

#include <algorithm>

namespace attnlab {
namespace {

std::string shapeKey(const std::vector<torch::Tensor>& tensors)
{
    std::ostringstream key;
    for (const auto& t : tensors) {
        key << c10::toString(t.scalar_type()) << '[';
        for (const auto size : t.sizes())
            key << size << ',';
        key << ']';
    }
    return key.str();
}

std::vector<torch::Tensor> copiedOut(const std::vector<torch::Tensor>& outputs)
{
    std::vector<torch::Tensor> out;
    out.reserve(outputs.size());
    for (const auto& t : outputs)
        out.push_back(t.defined() ? t.detach().clone() : t);
    return out;
}

} // namespace

#if defined(ATTNLAB_TORCH_CUDA)

struct CudaGraphStep::Captured {
    at::cuda::CUDAGraph graph;
    std::vector<torch::Tensor> inputs, outputs; // static: the graph reads and writes these addresses
};

bool CudaGraphStep::available()
{
    return true;
}

std::vector<torch::Tensor> CudaGraphStep::run(const std::vector<torch::Tensor>& host)
{
    const c10::cuda::CUDAGuard deviceGuard(device_);
    const auto current = c10::cuda::getCurrentCUDAStream(device_.index());
    std::vector<torch::Tensor> inputs;
    auto copyIn = [&](std::vector<torch::Tensor>& into) {
        for (std::size_t i = 0; i < host.size(); ++i)
            into[i].copy_(host[i].pin_memory(), /*non_blocking=*/true); // queued, as hostToDevice's copies are
    };
    // Work on the side stream waits for what the current stream queued before it, and the other way round after.
    auto onSideStream = [&](const std::function<void(const c10::cuda::CUDAStream&)>& work) {
        const auto side = c10::cuda::getStreamFromPool(/*isHighPriority=*/false, device_.index());
        at::cuda::CUDAEvent before, after;
        before.record(current);
        before.block(side);
        {
            const c10::cuda::CUDAStreamGuard streamGuard(side);
            work(side);
        }
        after.record(side);
        after.block(current);
    };

    // Eager, on a side stream: the warm-up steps, and the first step of each new shape, so that what a capture
    // must not do for the first time (cuBLAS's workspace, cuDNN's FIND when cudnn.benchmark is on: "FIND was
    // unable to find an engine" inside a capture, measured for the CNN on an H100) is done for that shape.
    auto eagerStep = [&] {
        for (const auto& t : host)
            inputs.push_back(torch::empty(t.sizes(), t.options().device(device_)));
        copyIn(inputs);
        std::vector<torch::Tensor> outputs;
        onSideStream([&](const c10::cuda::CUDAStream&) { outputs = copiedOut(body_(inputs)); });
        return outputs;
    };
    if (warmupLeft_ > 0 || !failure_.empty()) {
        warmupLeft_ = std::max(0, warmupLeft_ - 1);
        return eagerStep();
    }
    const std::string key = shapeKey(host);
    auto found = graphs_.find(key);
    if (found == graphs_.end()) {
        auto outputs = eagerStep(); // this batch's step; the capture below records the next ones, running nothing
        auto captured = std::make_unique<Captured>();
        for (const auto& t : host)
            captured->inputs.push_back(torch::zeros(t.sizes(), t.options().device(device_)));
        try {
            onSideStream([&](const c10::cuda::CUDAStream& side) {
                captured->graph.capture_begin(); // a private memory pool: graphs replay in any order
                try {
                    captured->outputs = body_(captured->inputs);
                } catch (...) { // end the broken capture, so the stream and the allocator work eagerly again
                    cudaGraph_t partial = nullptr;
                    if (cudaStreamEndCapture(side.stream(), &partial) == cudaSuccess && partial)
                        cudaGraphDestroy(partial);
                    c10::cuda::CUDACachingAllocator::endAllocateToPool(device_.index(), captured->graph.pool());
                    (void)cudaGetLastError();
                    throw;
                }
                captured->graph.capture_end();
            });
        } catch (const std::exception& e) {
            // An operation a graph cannot hold (a host read, an unsupported kernel): the run goes on eagerly.
            const std::string what = e.what();
            failure_ = what.substr(0, what.find('\n'));
            return outputs;
        }
        graphs_.emplace(key, std::move(captured));
        return outputs;
    }
    Captured& step = *found->second;
    copyIn(step.inputs);
    step.graph.replay();
    return copiedOut(step.outputs);
}

#else

struct CudaGraphStep::Captured {};

bool CudaGraphStep::available()
{
    return false;
}

std::vector<torch::Tensor> CudaGraphStep::run(const std::vector<torch::Tensor>&)
{
    throw std::runtime_error("capturable_step: this LibTorch has no CUDA backend to capture a step with "
                             "(build the PyPI flavour: docs/ARCHITECTURE.md, Build)");
}

#endif

CudaGraphStep::CudaGraphStep(const torch::Device& device, Body body, int warmupSteps)
    : device_(device), body_(std::move(body)), warmupLeft_(warmupSteps)
{
}

CudaGraphStep::~CudaGraphStep() = default;

bool CudaGraphStep::wouldCapture(const std::vector<torch::Tensor>& host) const
{
    return warmupLeft_ > 0 || !failure_.empty() || !graphs_.count(shapeKey(host));
}

const std::string& CudaGraphStep::failure() const
{
    return failure_;
}

int CudaGraphStep::graphs() const
{
    return static_cast<int>(graphs_.size());
}

} // namespace attnlab
