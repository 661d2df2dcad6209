#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/config/ModelConfig.h"
#include "core/nn/layers/AbsolutePositions.h"
#include "core/nn/layers/TransformerBlock.h"

#include <torch/torch.h>

#include <vector>

namespace attnlab {

// The Transformer's encoder as a part (Vaswani et al. 2017; pre-LN as the lab's encoder-decoder): word vectors
// scaled by sqrt(d_model) (3.4), the position technique (sinusoidal / learned added; RPR, RoPE, ALiBi inside
// attention), input dropout, ModelConfig::layers TransformerBlocks (not causal, ReLU unless the activation is set,
// dropout on each branch at the hidden point), a final LayerNorm. The mixed encoder-decoders (Domhan 2018) put it
// before a recurrent decoder.
class SelfAttentionEncoderImpl : public torch::nn::Module {
public:
    explicit SelfAttentionEncoderImpl(const ModelConfig& config);
    // words [N, S, d] (the rows of the word table) and mask [N, S] -> states [N, S, d]; each layer's attention
    // [N, H, S, S] into weights when asked.
    torch::Tensor forward(const torch::Tensor& words, const torch::Tensor& mask, std::vector<torch::Tensor>* weights = nullptr);
    // Vaswani et al.'s sqrt(d) scaling assumes word vectors that start near N(0, 1/d) (fairseq; The Annotated
    // Transformer's xavier), not LibTorch's N(0, 1), which would drown the positions: a table to scale starts so.
    static void initialiseWordTable(torch::nn::Embedding& table, int dModel);

private:
    double scale_, inputDrop_;
    AbsolutePositions positions_{nullptr};
    std::vector<TransformerBlock> blocks_;
    torch::nn::LayerNorm final_{nullptr};
};
TORCH_MODULE(SelfAttentionEncoder);

} // namespace attnlab
