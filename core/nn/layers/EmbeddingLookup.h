#pragma once
// PRIVATE engine header: includes LibTorch.
#include <torch/torch.h>

namespace attnlab {

// A word table's rows for the ids (what torch::nn::Embedding's forward gives), with a backward that adds each
// id's gradient row straight into the table's .grad. Why by hand: LibTorch's embedding backward builds a zeroed
// gradient the size of the whole table for the few rows a batch touches (SST-fine's 18,280 x 300, 22 MB, for
// ~1,600 rows), and autograd then adds it to .grad in a second pass over the table - in ESSAN w/o AttnSeqRep's
// step that zeroing was the largest cost after the GEMMs (benchmarks/trace_ops.py), and a recurrent
// decoder that embeds one target word a step paid it at every step. Each row sums its ids' gradients in the ids'
// order onto .grad's value, as LibTorch's kernel sums them from zero before adding to .grad: for a table looked up
// once in the graph, after zero_grad, the result is bit for bit LibTorch's; looked up several times (a decoder's
// steps), the same terms in another order, within rounding (test_models). The padding id's row gets no gradient.
// On the CPU, float32 or float64, autograd on; elsewhere (a GPU, whose captured step keeps LibTorch's kernel) it is
// torch::embedding.
class EmbeddingLookup {
public:
    // weight [V, d], ids any shape of int64 -> [..., d]; padding: the id whose row gets no gradient (-1: none)
    static torch::Tensor apply(const torch::Tensor& weight, const torch::Tensor& ids, std::int64_t padding);
    // The module's table and padding id (which its options hold counted from the start).
    static torch::Tensor apply(const torch::nn::Embedding& table, const torch::Tensor& ids)
    {
        const auto& padding = table->options.padding_idx();
        return apply(table->weight, ids, padding.has_value() ? *padding : -1);
    }
};

} // namespace attnlab
