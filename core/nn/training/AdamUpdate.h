#pragma once
// Torch-free: plain arrays in, so that this one file can be compiled for vectorising (core/CMakeLists.txt).
#include <cstdint>

namespace attnlab {

// Adam's update (Kingma & Ba 2015) of one stretch of a parameter, in one pass over its memory, in the order of
// LibTorch's torch::optim::Adam (1.13 and 2.x alike), element by element:
//   m = m * b1 + (1 - b1) * g            v = v * b2 + (1 - b2) * g * g
//   p = p + (-lr / (1 - b1^t)) * m / (sqrt(v) / sqrt(1 - b2^t) + eps)
// LibTorch takes five passes and two temporaries over each parameter for it; the trainable embedding of SST-fine
// (18,280 x 300 floats) made that ~12 ms of every CPU step in PyTorch 2.11 (docs/BENCHMARKS.md). The coefficients
// are computed once a step in double and rounded to the parameter's type, as LibTorch's scalars are.
struct AdamUpdate {
    // Step t's (1-based) host numbers.
    struct Coefficients {
        double beta1, oneMinusBeta1, beta2, oneMinusBeta2, biasCorrection2Sqrt, eps, negativeStepSize;
    };
    static Coefficients forStep(std::int64_t t, double learningRate, double beta1, double beta2, double eps);
    // Elements [0, n) of a parameter p with gradient g and moments m, v (contiguous, not overlapping).
    static void apply(float* p, const float* g, float* m, float* v, std::int64_t n, const Coefficients& c);
    static void apply(double* p, const double* g, double* m, double* v, std::int64_t n, const Coefficients& c);
};

} // namespace attnlab
