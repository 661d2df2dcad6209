#pragma once
#include <string>

namespace attnlab {

// Which kernels OpenBLAS runs. A DYNAMIC_ARCH OpenBLAS (Debian's) picks them once, when it is loaded, by the CPU's
// model number; a CPU newer than the library gets its oldest fallback, "Prescott" (SSE3): Debian 12's 0.3.21 on
// this project's Xeon (family 6, model 207, AVX-512) multiplied 2048 x 2048 matrices at 52 GFLOP/s on 2 threads,
// against 277 with its SkylakeX kernels, and SSAN + RPR's training step took 2.8x as long (docs/BENCHMARKS.md).
// OpenBLAS exports what it runs to choose (gotoblas_dynamic_quit/init, reading OPENBLAS_CORETYPE),
// so the choice can be made again, by the CPU's features, before anything computes.
class OpenBlasCore {
public:
    // The kernels' name as OpenBLAS says it ("SkylakeX"), or "" when this process's BLAS is not OpenBLAS.
    static std::string current();
    // Where OpenBLAS fell back to Prescott's kernels on a CPU with AVX2 and FMA, and OPENBLAS_CORETYPE is not set
    // (the user's choice stands): sets it to the CPU's kernels (SKYLAKEX with AVX-512 F/BW/DQ/VL/CD, else HASWELL),
    // so child processes start with them too, and makes OpenBLAS choose again. Run before the first BLAS call; the
    // engine does it as it loads (ComputeDevice.cpp). Returns what it did, in words for the run's environment
    // ("Prescott -> SkylakeX"), "" when it did nothing.
    static std::string useTheCpusKernels();
};

} // namespace attnlab
