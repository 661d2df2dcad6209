#pragma once
// What differs between the two LibTorch flavours we build against (docs/ARCHITECTURE.md, Build): Debian's
// 1.13.1 (CPU only, OpenBLAS) and PyPI's 2.11.0 (CUDA 13.0, MKL, oneDNN). Every version test of the project
// lives here, so the rest of the engine reads one API. Private to the engine: it includes LibTorch.
#include <torch/torch.h>

#include <ATen/autocast_mode.h>
#include <ATen/detail/CUDAHooksInterface.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#if TORCH_VERSION_MAJOR >= 2
#include <ATen/DeviceAccelerator.h>
#endif
#if defined(ATTNLAB_TORCH_CUDA) // cmake/TorchFlavour.cmake: this LibTorch has its CUDA backend and headers
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAFunctions.h>
#endif

namespace attnlab::torch_compat {

// CUDA autocast on or off for the calling thread, computing in `dtype` (bf16 here: it needs no loss scaling).
// 2.x replaced the CUDA-only calls by per-device ones and deprecated the old ones.
inline void setCudaAutocast(bool enabled, at::ScalarType dtype = at::kBFloat16)
{
#if TORCH_VERSION_MAJOR >= 2
    at::autocast::set_autocast_dtype(at::kCUDA, dtype);
    at::autocast::set_autocast_enabled(at::kCUDA, enabled);
#else
    at::autocast::set_autocast_gpu_dtype(dtype);
    at::autocast::set_enabled(enabled);
#endif
    if (!enabled)
        at::autocast::clear_cache();
}

// This LibTorch carries its CUDA backend (libtorch_cuda linked and registered), whether or not a device is
// present: 2.x says so with isBuilt(); its hasCUDA() now also needs a device. 1.13's stub answers false to
// hasCUDART() without the backend.
inline bool cudaBackendBuilt()
{
#if TORCH_VERSION_MAJOR >= 2
    return at::detail::getCUDAHooks().isBuilt();
#else
    return at::detail::getCUDAHooks().hasCUDART();
#endif
}

// Bytes the caching allocator holds for tensors on CUDA device `index` now; nullopt where this LibTorch
// cannot say (1.13's C++ API has no device-generic allocator statistics without the CUDA headers).
inline std::optional<std::int64_t> cudaBytesAllocated([[maybe_unused]] int index)
{
#if TORCH_VERSION_MAJOR >= 2
    const auto stats = at::accelerator::getDeviceStats(static_cast<c10::DeviceIndex>(index));
    return stats.allocated_bytes[static_cast<std::size_t>(c10::CachingAllocator::StatType::AGGREGATE)].current;
#else
    return std::nullopt;
#endif
}

// The most bytes the caching allocator held for tensors on CUDA device `index` since resetCudaPeak; nullopt
// where this LibTorch cannot say.
inline std::optional<std::int64_t> cudaPeakBytes([[maybe_unused]] int index)
{
#if TORCH_VERSION_MAJOR >= 2
    const auto stats = at::accelerator::getDeviceStats(static_cast<c10::DeviceIndex>(index));
    return stats.allocated_bytes[static_cast<std::size_t>(c10::CachingAllocator::StatType::AGGREGATE)].peak;
#else
    return std::nullopt;
#endif
}

inline void resetCudaPeak([[maybe_unused]] int index)
{
#if TORCH_VERSION_MAJOR >= 2
    at::accelerator::resetPeakStats(static_cast<c10::DeviceIndex>(index));
#endif
}

// (free, total) bytes of CUDA device `index` as the driver reports them; nullopt where unknown.
inline std::optional<std::pair<std::int64_t, std::int64_t>> cudaMemoryInfo([[maybe_unused]] int index)
{
#if TORCH_VERSION_MAJOR >= 2
    const auto [free, total] = at::accelerator::getMemoryInfo(static_cast<c10::DeviceIndex>(index));
    return std::make_pair(static_cast<std::int64_t>(free), static_cast<std::int64_t>(total));
#else
    return std::nullopt;
#endif
}

// The caching allocator's cap on device `index` as a share of its memory; cached blocks are returned first
// so a lower cap holds at once. False where the build has no CUDA backend.
inline bool setCudaMemoryFraction([[maybe_unused]] int index, [[maybe_unused]] double fraction)
{
#if defined(ATTNLAB_TORCH_CUDA)
    // The allocator of a device exists after its first allocation (PyTorch's lazy init): make one.
    (void)torch::empty({1}, torch::TensorOptions().device(torch::kCUDA, static_cast<c10::DeviceIndex>(index)));
    c10::cuda::CUDACachingAllocator::emptyCache();
    c10::cuda::CUDACachingAllocator::setMemoryFraction(fraction, static_cast<c10::DeviceIndex>(index));
    return true;
#else
    return false;
#endif
}

// While on, any CUDA call that makes the host wait for the device (an .item(), a pageable copy, a stream
// synchronisation) throws: the check that a training step makes none (tests/gpu). False where the build
// has no CUDA backend.
inline bool setCudaSynchronisationIsError([[maybe_unused]] bool on)
{
#if defined(ATTNLAB_TORCH_CUDA)
    c10::cuda::warning_state().set_sync_debug_mode(on ? c10::cuda::SyncDebugMode::L_ERROR : c10::cuda::SyncDebugMode::L_DISABLED);
    return true;
#else
    return false;
#endif
}

// Whether this LibTorch has Adam's fused multi-tensor kernel with the learning rate as a device tensor (2.x),
// which a captured step needs: the rate changes between replays.
inline constexpr bool hasFusedAdamWithTensorRate()
{
    return TORCH_VERSION_MAJOR >= 2;
}

// Adam's fused update over every parameter in one kernel (PyTorch's Adam(fused=True)): t already counted in
// `steps` (float32, one 0-d tensor a parameter), the rate a float32 0-d tensor on the parameters' device.
// Throws where hasFusedAdamWithTensorRate() is false.
inline void fusedAdamStep([[maybe_unused]] std::vector<at::Tensor>& params, [[maybe_unused]] std::vector<at::Tensor>& grads,
                          [[maybe_unused]] std::vector<at::Tensor>& firstMoments, [[maybe_unused]] std::vector<at::Tensor>& secondMoments,
                          [[maybe_unused]] std::vector<at::Tensor>& steps, [[maybe_unused]] const at::Tensor& rate,
                          [[maybe_unused]] double beta1, [[maybe_unused]] double beta2, [[maybe_unused]] double eps)
{
#if TORCH_VERSION_MAJOR >= 2
    at::_fused_adam_(params, grads, firstMoments, secondMoments, /*max_exp_avg_sqs=*/{}, steps, rate, beta1, beta2,
                     /*weight_decay=*/0.0, eps, /*amsgrad=*/false, /*maximize=*/false);
#else
    throw std::logic_error("fusedAdamStep: LibTorch 1.13 has no fused Adam with a tensor learning rate");
#endif
}

// Every tensor of `tensors` times the 0-d tensor `factor`, in place: one foreach call where 2.x has it.
inline void multiplyEachBy(std::vector<at::Tensor>& tensors, const at::Tensor& factor)
{
#if TORCH_VERSION_MAJOR >= 2
    at::_foreach_mul_(tensors, factor);
#else
    for (auto& t : tensors)
        t.mul_(factor);
#endif
}

// Whether this LibTorch has scaled_dot_product_attention (2.x): one fused kernel for softmax(q k^T / sqrt(d_k)) v,
// forward and backward (a flash-attention kernel on the CPU), which never keeps the weights.
inline constexpr bool hasFusedAttention()
{
    return TORCH_VERSION_MAJOR >= 2;
}

// q, k, v [B, H, T, dh] -> softmax(q k^T / sqrt(dh) + causal mask) v, [B, H, T, dh]. Throws where
// hasFusedAttention() is false.
inline at::Tensor fusedCausalAttention([[maybe_unused]] const at::Tensor& q, [[maybe_unused]] const at::Tensor& k,
                                       [[maybe_unused]] const at::Tensor& v)
{
#if TORCH_VERSION_MAJOR >= 2
    return at::scaled_dot_product_attention(q, k, v, /*attn_mask=*/std::nullopt, /*dropout_p=*/0.0, /*is_causal=*/true);
#else
    throw std::logic_error("fusedCausalAttention: LibTorch 1.13 has no scaled_dot_product_attention");
#endif
}

} // namespace attnlab::torch_compat
