#include "core/nn/layers/BatchedMatmul.h"

#include "core/platform/SharedLibrary.h"

#include <ATen/Parallel.h>

namespace attnlab {
namespace {

// The reference BLAS interface (Fortran: every argument by address, column-major), as the process's BLAS exports
// it: Debian's LibTorch links libblas.so.3 (OpenBLAS); the PyPI LibTorch exports the MKL it carries. Where no
// library exports it: nullptr, and torch::matmul does the work.
template <typename Scalar>
using Gemm = void (*)(const char* transa, const char* transb, const int* m, const int* n, const int* k, const Scalar* alpha,
                      const Scalar* a, const int* lda, const Scalar* b, const int* ldb, const Scalar* beta, Scalar* c,
                      const int* ldc);

template <typename Scalar>
Gemm<Scalar> processGemm()
{
    static const auto gemm =
        reinterpret_cast<Gemm<Scalar>>(SharedLibrary::processSymbol(sizeof(Scalar) == sizeof(float) ? "sgemm_" : "dgemm_"));
    return gemm;
}

template <typename Scalar>
void multiplyBatches(const Scalar* a, const Scalar* b, Scalar* c, int64_t batches, int64_t m, int64_t p, int64_t k,
                     bool transposeA, bool transposeB)
{
    // BLAS is column-major: a row-major C [M, P] is its C^T [P, M], so C^T = op(B)^T op(A)^T, with B's memory read
    // as op(B)^T when not transposed (and the other way), and A's likewise.
    const char opB = transposeB ? 'T' : 'N', opA = transposeA ? 'T' : 'N';
    const int rows = static_cast<int>(p), columns = static_cast<int>(m), inner = static_cast<int>(k);
    const int ldb = static_cast<int>(transposeB ? k : p), lda = static_cast<int>(transposeA ? m : k), ldc = rows;
    const Scalar one = 1, zero = 0;
    const auto gemm = processGemm<Scalar>();
    at::parallel_for(0, batches, 1, [&](int64_t begin, int64_t end) {
        for (int64_t n = begin; n < end; ++n) // inside a parallel region BLAS runs on the calling thread
            gemm(&opB, &opA, &rows, &columns, &inner, &one, b + n * k * p, &ldb, a + n * m * k, &lda, &zero, c + n * m * p, &ldc);
    });
}

struct BatchedMatmulFunction : public torch::autograd::Function<BatchedMatmulFunction> {
    // a3 [N, M, K], b3 [N, K, P] or [N, P, K], both contiguous.
    static torch::Tensor forward(torch::autograd::AutogradContext* context, const torch::Tensor& a3, const torch::Tensor& b3,
                                 bool transposeB)
    {
        context->save_for_backward({a3, b3});
        context->saved_data["transposeB"] = transposeB;
        const int64_t p = transposeB ? b3.size(1) : b3.size(2);
        auto c = torch::empty({a3.size(0), a3.size(1), p}, a3.options());
        BatchedMatmul::multiply(a3, b3, c, false, transposeB);
        return c;
    }

    static torch::autograd::variable_list backward(torch::autograd::AutogradContext* context, torch::autograd::variable_list grads)
    {
        const auto saved = context->get_saved_variables();
        const auto& a = saved[0];
        const auto& b = saved[1];
        const bool transposeB = context->saved_data["transposeB"].toBool();
        const auto dc = grads[0].contiguous(); // [N, M, P]
        torch::Tensor da, db;
        if (context->needs_input_grad(0)) { // dA = dC op(B)^T
            da = torch::empty_like(a);
            BatchedMatmul::multiply(dc, b, da, false, !transposeB);
        }
        if (context->needs_input_grad(1)) { // C = A B: dB = A^T dC;  C = A B^T: dB = dC^T A
            db = torch::empty_like(b);
            if (transposeB)
                BatchedMatmul::multiply(dc, a, db, true, false);
            else
                BatchedMatmul::multiply(a, dc, db, true, false);
        }
        return {da, db, torch::Tensor()};
    }
};

} // namespace

void BatchedMatmul::multiply(const torch::Tensor& a, const torch::Tensor& b, torch::Tensor& c, bool transposeA, bool transposeB)
{
    const int64_t batches = c.size(0), m = c.size(1), p = c.size(2), k = transposeA ? a.size(1) : a.size(2);
    if (c.scalar_type() == torch::kDouble)
        multiplyBatches(a.data_ptr<double>(), b.data_ptr<double>(), c.data_ptr<double>(), batches, m, p, k, transposeA, transposeB);
    else
        multiplyBatches(a.data_ptr<float>(), b.data_ptr<float>(), c.data_ptr<float>(), batches, m, p, k, transposeA, transposeB);
}

torch::Tensor BatchedMatmul::apply(const torch::Tensor& a, const torch::Tensor& b, bool transposeB)
{
    const bool ours = processGemm<float>() && processGemm<double>() && a.device().is_cpu() && b.device().is_cpu() && a.dim() >= 3 && a.dim() == b.dim() &&
                      a.scalar_type() == b.scalar_type() &&
                      (a.scalar_type() == torch::kFloat || a.scalar_type() == torch::kDouble) &&
                      a.sizes().slice(0, a.dim() - 2) == b.sizes().slice(0, b.dim() - 2) && a.numel() > 0 && b.numel() > 0;
    if (!ours)
        return torch::matmul(a, transposeB ? b.transpose(-2, -1) : b);
    const int64_t m = a.size(-2), k = a.size(-1);
    const int64_t p = transposeB ? b.size(-2) : b.size(-1);
    TORCH_CHECK((transposeB ? b.size(-1) : b.size(-2)) == k, "BatchedMatmul: inner sizes ", k, " and ",
                transposeB ? b.size(-1) : b.size(-2), " differ");
    auto a3 = a.reshape({-1, m, k}).contiguous();
    auto b3 = b.reshape({-1, b.size(-2), b.size(-1)}).contiguous();
    torch::Tensor c;
    if (torch::GradMode::is_enabled() && (a3.requires_grad() || b3.requires_grad())) {
        c = BatchedMatmulFunction::apply(a3, b3, transposeB);
    } else { // writing, scoring: no autograd node to make (at one token its bookkeeping costs as much as the product)
        c = torch::empty({a3.size(0), m, p}, a3.options());
        multiply(a3, b3, c, false, transposeB);
    }
    std::vector<int64_t> shape(a.sizes().begin(), a.sizes().end() - 2);
    shape.push_back(m);
    shape.push_back(p);
    return c.view(shape);
}

} // namespace attnlab
