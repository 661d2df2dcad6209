#include "core/nn/layers/EmbeddingLookup.h"

#include <ATen/Parallel.h>

namespace attnlab {
namespace {

// out += in over a row. Eight at a time, written out: GCC's -O2 vectorises such a block (SLP) where the pointers
// are restrict parameters, not the plain loop (checked in the object: addps).
template <typename T>
void addRow(T* __restrict out, const T* __restrict in, std::int64_t width)
{
    std::int64_t j = 0;
    for (; j + 8 <= width; j += 8) {
        out[j] += in[j];
        out[j + 1] += in[j + 1];
        out[j + 2] += in[j + 2];
        out[j + 3] += in[j + 3];
        out[j + 4] += in[j + 4];
        out[j + 5] += in[j + 5];
        out[j + 6] += in[j + 6];
        out[j + 7] += in[j + 7];
    }
    for (; j < width; ++j)
        out[j] += in[j];
}

// grad[ids[i]] += rows[i] for every i whose id is not the padding one. Each thread owns a range of the table's
// rows and walks all the ids, so no two threads write one row and every row adds in the ids' order.
template <typename T>
void addRows(T* grad, const T* rows, const std::int64_t* ids, std::int64_t count, std::int64_t width, std::int64_t padding,
             std::int64_t vocabulary)
{
    at::parallel_for(0, vocabulary, 1000, [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t i = 0; i < count; ++i) {
            const std::int64_t k = ids[i];
            if (k != padding && k >= begin && k < end)
                addRow(grad + k * width, rows + i * width, width);
        }
    });
}

struct EmbeddingLookupFunction : public torch::autograd::Function<EmbeddingLookupFunction> {
    static torch::Tensor forward(torch::autograd::AutogradContext* context, const torch::Tensor& weight, const torch::Tensor& ids,
                                 std::int64_t padding)
    {
        // The table itself (a leaf), not a saved copy: its .grad is where the backward writes.
        context->saved_data["weight"] = weight;
        context->saved_data["ids"] = ids;
        context->saved_data["padding"] = padding;
        auto shape = ids.sizes().vec();
        shape.push_back(weight.size(1));
        auto out = torch::empty(shape, weight.options()); // [..., d], its own storage (not a view autograd must track)
        auto rows = out.view({-1, weight.size(1)});
        torch::index_select_out(rows, weight, 0, ids.reshape(-1));
        return out;
    }

    static torch::autograd::variable_list backward(torch::autograd::AutogradContext* context, torch::autograd::variable_list grads)
    {
        const torch::Tensor weight = context->saved_data["weight"].toTensor();
        const torch::Tensor ids = context->saved_data["ids"].toTensor().reshape(-1).contiguous();
        const std::int64_t padding = context->saved_data["padding"].toInt();
        const std::int64_t width = weight.size(1);
        const torch::Tensor rows = grads[0].reshape({-1, width}).contiguous(); // [N, d]
        torch::Tensor& grad = weight.mutable_grad();
        if (!grad.defined())
            grad = torch::zeros_like(weight, torch::MemoryFormat::Contiguous);
        TORCH_CHECK(grad.is_contiguous() && grad.scalar_type() == weight.scalar_type(),
                    "EmbeddingLookup: the table's gradient must be contiguous and of its type");
        AT_DISPATCH_FLOATING_TYPES(weight.scalar_type(), "EmbeddingLookup", [&] {
            addRows(grad.data_ptr<scalar_t>(), rows.data_ptr<scalar_t>(), ids.data_ptr<std::int64_t>(), ids.numel(), width,
                    padding, weight.size(0));
        });
        return {torch::Tensor(), torch::Tensor(), torch::Tensor()}; // the table's is already in .grad
    }
};

} // namespace

torch::Tensor EmbeddingLookup::apply(const torch::Tensor& weight, const torch::Tensor& ids, std::int64_t padding)
{
    const bool byHand = weight.is_cpu() && weight.requires_grad() && torch::GradMode::is_enabled() &&
                        (weight.scalar_type() == torch::kFloat || weight.scalar_type() == torch::kDouble) &&
                        ids.scalar_type() == torch::kLong && weight.dim() == 2 && weight.is_contiguous();
    if (!byHand)
        return torch::embedding(weight, ids, padding);
    return EmbeddingLookupFunction::apply(weight, ids, padding);
}

} // namespace attnlab
