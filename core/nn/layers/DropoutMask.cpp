#include "core/nn/layers/DropoutMask.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Parallel.h>

#include <mutex>

namespace attnlab {
namespace {

constexpr std::uint64_t kGolden = 0x9E3779B97F4A7C15ULL; // SplitMix64's increment (Steele, Lea & Flood 2014)

inline std::uint64_t splitMix64(std::uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

template <typename Scalar>
void fill(Scalar* out, std::int64_t n, std::uint64_t seed, std::uint64_t threshold, Scalar scale)
{
    at::parallel_for(0, n, 32768, [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t i = begin; i < end; ++i) // kept when the draw's top 32 bits fall below keep * 2^32
            out[i] = (splitMix64(seed + static_cast<std::uint64_t>(i + 1) * kGolden) >> 32) < threshold ? scale : Scalar(0);
    });
}

} // namespace

torch::Tensor DropoutMask::draw(const torch::Tensor& like, double keep, std::uint64_t seed)
{
    const bool inDouble = like.scalar_type() == torch::kDouble;
    auto mask = torch::empty(like.sizes(), torch::TensorOptions().dtype(inDouble ? torch::kDouble : torch::kFloat));
    if (keep <= 0.0)
        return mask.zero_().to(like.scalar_type());
    const auto threshold = static_cast<std::uint64_t>(keep * 4294967296.0); // keep 1: 2^32, every draw kept
    if (inDouble)
        fill(mask.data_ptr<double>(), mask.numel(), seed, threshold, 1.0 / keep);
    else
        fill(mask.data_ptr<float>(), mask.numel(), seed, threshold, static_cast<float>(1.0 / keep));
    return mask.scalar_type() == like.scalar_type() ? mask : mask.to(like.scalar_type());
}

torch::Tensor DropoutMask::apply(const torch::Tensor& x, double drop, bool training)
{
    if (!training || drop <= 0.0)
        return x;
    if (!x.device().is_cpu())
        return torch::dropout(x, drop, true);
    std::uint64_t seed = 0;
    {
        auto generator = at::detail::getDefaultCPUGenerator();
        std::lock_guard<std::mutex> lock(generator.mutex());
        seed = at::check_generator<at::CPUGeneratorImpl>(generator)->random64();
    }
    return x * draw(x, 1.0 - drop, seed);
}

} // namespace attnlab
