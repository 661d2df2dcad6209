#pragma once
// PRIVATE engine header: includes LibTorch.
#include <torch/torch.h>

namespace attnlab {

// a @ b (or a @ b^T) over leading batch dimensions, as torch::matmul computes it, for attention's per-head
// products ([B, H, T, dh] by [B, H, dh, T], [B, H, T, T] by [B, H, T, dh]). On the CPU each batch's product is one
// BLAS call on raw pointers, the batches split over the threads; backward the same way. Why by hand: LibTorch's
// CPU bmm without MKL (Debian's 1.13) loops over the batches on one thread with three select()s and a
// resolve_conj() around every small product - ESSAN's 15 heads make 480 of them a product, which was a third of its
// step (benchmarks/trace_ops.py). The BLAS is the process's (Debian's OpenBLAS; the MKL the PyPI
// LibTorch exports); elsewhere (a GPU, other types, no sgemm_ in the process) it is torch::matmul.
class BatchedMatmul {
public:
    // a [..., M, K]; b [..., K, P], or [..., P, K] with transposeB; the same leading dimensions. -> [..., M, P]
    static torch::Tensor apply(const torch::Tensor& a, const torch::Tensor& b, bool transposeB = false);
    // The raw kernel on contiguous row-major batches: c[n] = op(a[n]) op(b[n]), op the transpose where asked;
    // a is [N, M, K] (or [N, K, M]), b [N, K, P] (or [N, P, K]), c [N, M, P].
    static void multiply(const torch::Tensor& a, const torch::Tensor& b, torch::Tensor& c, bool transposeA, bool transposeB);
};

} // namespace attnlab
