#include "core/nn/training/AdamUpdate.h"

#include <cmath>

namespace attnlab {
namespace {

template <typename Scalar>
inline __attribute__((always_inline)) void update(Scalar* __restrict p, const Scalar* __restrict g,
                                                  Scalar* __restrict m, Scalar* __restrict v, std::int64_t n,
                                                  const AdamUpdate::Coefficients& c)
{
    const auto b1 = static_cast<Scalar>(c.beta1), a1 = static_cast<Scalar>(c.oneMinusBeta1);
    const auto b2 = static_cast<Scalar>(c.beta2), a2 = static_cast<Scalar>(c.oneMinusBeta2);
    const auto correction = static_cast<Scalar>(c.biasCorrection2Sqrt), eps = static_cast<Scalar>(c.eps);
    const auto stepSize = static_cast<Scalar>(c.negativeStepSize);
    for (std::int64_t i = 0; i < n; ++i) {
        const Scalar gi = g[i];
        const Scalar mi = m[i] * b1 + a1 * gi;
        const Scalar vi = v[i] * b2 + a2 * gi * gi; // addcmul: self + value * t1 * t2
        m[i] = mi;
        v[i] = vi;
        p[i] = p[i] + stepSize * mi / (std::sqrt(vi) / correction + eps); // addcdiv: self + value * t1 / t2
    }
}

} // namespace

AdamUpdate::Coefficients AdamUpdate::forStep(std::int64_t t, double learningRate, double beta1, double beta2, double eps)
{
    const double biasCorrection1 = 1.0 - std::pow(beta1, static_cast<double>(t));
    const double biasCorrection2 = 1.0 - std::pow(beta2, static_cast<double>(t));
    return {beta1, 1.0 - beta1, beta2, 1.0 - beta2, std::sqrt(biasCorrection2), eps, -learningRate / biasCorrection1};
}

// One copy per vector width, picked when the library loads (GCC/Clang function multi-versioning on x86-64 ELF):
// the build targets any x86-64, the machine it runs on may have AVX-512. -ffp-contract=off (core/CMakeLists.txt)
// keeps every copy's results the same: no copy fuses a multiply and an add that the others round twice.
#if defined(__x86_64__) && defined(__ELF__) && (defined(__GNUC__) || defined(__clang__))
#define ATTNLAB_VECTOR_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define ATTNLAB_VECTOR_CLONES
#endif

ATTNLAB_VECTOR_CLONES
void AdamUpdate::apply(float* p, const float* g, float* m, float* v, std::int64_t n, const Coefficients& c)
{
    update(p, g, m, v, n, c);
}

ATTNLAB_VECTOR_CLONES
void AdamUpdate::apply(double* p, const double* g, double* m, double* v, std::int64_t n, const Coefficients& c)
{
    update(p, g, m, v, n, c);
}

} // namespace attnlab
