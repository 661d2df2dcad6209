#pragma once
// PRIVATE engine header: includes LibTorch.
#include <torch/torch.h>

#include <cstdint>

namespace attnlab {

// Inverted dropout, x * m / keep with m_i ~ Bernoulli(keep) (Srivastava et al. 2014), whose mask on the CPU is
// drawn by a counter-based generator: element i's draw is SplitMix64(seed + (i + 1) * golden), the seed taken from
// LibTorch's default CPU generator once a call (so torch::manual_seed fixes every mask), the elements in
// parallel. Why by hand: LibTorch without MKL (Debian's 1.13) draws bernoulli_ one element at a time from its
// Mersenne Twister, which was a quarter of the Transformer's CPU step (benchmarks/trace_ops.py); with
// this every flavour and thread count draws the same masks. On a GPU, LibTorch's fused dropout (Philox, which a
// CUDA graph can capture).
class DropoutMask {
public:
    // drop = 1 - keep; identity when not training or drop is 0.
    static torch::Tensor apply(const torch::Tensor& x, double drop, bool training);
    // The scaled mask itself (values 0 or 1 / keep), in x's shape and type, from this seed.
    static torch::Tensor draw(const torch::Tensor& like, double keep, std::uint64_t seed);
};

} // namespace attnlab
