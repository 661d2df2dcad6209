#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/data/pretrained/BertConfig.h"
#include "core/nn/layers/BertLayer.h"

#include <torch/torch.h>

#include <vector>

namespace attnlab {

class SafetensorsFile;

// A BERT encoder (embeddings, N BertLayers, pooler) whose parameters are named exactly as Hugging Face's
// BertModel names them ("embeddings.word_embeddings.weight", "encoder.layer.3.attention.self.query.bias",
// "pooler.dense.weight"), so loading a pretrained file is a walk over named_parameters().
//   E = LayerNorm(word[ids] + position[0..T-1] + token_type[0])
//   H_l = BertLayer_l(H_{l-1}),  H_0 = E
//   pooled = tanh(W_p H_L[CLS] + b_p)
class BertEncoderImpl : public torch::nn::Module {
public:
    BertEncoderImpl(const BertConfig& config, double dropout = 0.1);

    struct Output {
        torch::Tensor lastHidden;               // [batch, T, hidden]
        torch::Tensor pooled;                   // [batch, hidden]
        std::vector<torch::Tensor> attentions;  // per layer [batch, heads, T, T]
    };
    // ids: [batch, T] long; mask: [batch, T], 1 for tokens and 0 for padding (undefined: no padding).
    Output forward(const torch::Tensor& ids, const torch::Tensor& mask = {});
    // The word table's rows for ids [batch, T] -> [batch, T, hidden] (attribution methods take gradients here).
    torch::Tensor embed(const torch::Tensor& ids);
    // forward() from those word vectors: positions, segment, LayerNorm and the layers.
    Output forwardEmbedded(const torch::Tensor& wordVectors, const torch::Tensor& mask = {});

    // Every parameter from the file by its name, shape checked; a DataError names the file and the tensor for
    // a missing tensor or a shape that differs. Until then the parameters hold whatever memory held. Tensors of the file this model has no use for (position_ids)
    // are ignored. Returns how many values were loaded.
    // wordRows: this model's word table row i is the file's row wordRows[i] (a fine-tuned classifier's
    // vocabulary orders the pieces its own way); empty: the tables have the same rows.
    int64_t load(const SafetensorsFile& file, const std::vector<int64_t>& wordRows = {});

    const BertConfig& config() const { return config_; }
    torch::Tensor positionEmbeddings() const { return positions_; } // [max_positions, hidden]

private:
    BertConfig config_;
    torch::Tensor words_, positions_, types_; // embedding tables, allocated uninitialised (see BertLayer)
    BertNorm embeddingNorm_;
    torch::nn::Dropout dropout_{nullptr};
    std::vector<BertLayer> layers_;
    BertDense pooler_;
};
TORCH_MODULE(BertEncoder);

} // namespace attnlab
