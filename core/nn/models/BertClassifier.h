#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/config/ModelConfig.h"
#include "core/nn/models/BertEncoder.h"
#include "core/nn/models/SequenceClassifier.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace attnlab {

class SafetensorsFile;

// A pretrained BERT-style encoder fine-tuned for sentence classification (the `minilm` registry model): a
// sentence vector from the last layer, dropout, one linear layer to the classes.
//   pooling "mean" (default): s = sum_t m_t H_L[t] / sum_t m_t   (all-MiniLM-L6-v2's own sentence vector:
//                             sentence-transformers trained it through this mean, not through the pooler)
//   pooling "cls":            s = tanh(W_p H_L[CLS] + b_p)       (Devlin et al. 2019's pooled output)
//   logits = W_c dropout(s) + b_c
// Sizes come from the ModelConfig (d_model = hidden, layers, heads, ffn_hidden = intermediate, max_length =
// positions, vocabulary = the run's pieces), so a checkpoint rebuilds it without the pretrained files; the
// Trainer fills the encoder from them before the first step (loadPretrained). Frozen: only the head trains,
// and on the CPU each sentence's vector is computed once and kept (the encoder is then a fixed function of
// the pieces), so epochs after the first and every evaluation cost the head alone.
class BertClassifier : public SequenceClassifier {
public:
    explicit BertClassifier(const ModelConfig& config);
    static BertConfig encoderConfig(const ModelConfig& config);

    torch::Tensor embed(const torch::Tensor& ids) override;
    torch::Tensor forwardEmbedded(const torch::Tensor& embedded, const torch::Tensor& mask) override;
    std::vector<torch::Tensor> recordedAttention() const override { return recorded_; }
    void setRecordAttention(bool on) override { record_ = on; recorded_.clear(); }
    std::string summary() const override;
    int readoutPosition() const override { return cls_ ? 0 : -1; } // [CLS], or the mean over positions
    // Frozen, the encoder stays in evaluation mode (no dropout): it is a fixed feature extractor then.
    void train(bool on = true) override;

    // The encoder's weights from the file; wordRows[i]: the file's word-table row of this model's piece i.
    // Returns how many values were loaded.
    int64_t loadPretrained(const SafetensorsFile& file, const std::vector<int64_t>& wordRows);
    BertEncoder& encoder() { return encoder_; }

private:
    ModelConfig config_;
    BertEncoder encoder_{nullptr};
    torch::nn::Dropout dropout_{nullptr};
    torch::nn::Linear output_{nullptr};
    bool cls_ = false; // pooling "cls"
    bool record_ = false;
    torch::Tensor sentenceOf(const BertEncoderImpl::Output& out, const torch::Tensor& mask) const; // [B, H]
    torch::Tensor cachedSentences(const torch::Tensor& embedded, const torch::Tensor& mask);      // [B, H]
    torch::Tensor lastIds_; // the ids of the word vectors embed() returned last, to key the cache by
    torch::Tensor lastEmbedded_;
    std::unordered_map<std::string, torch::Tensor> sentences_; // a sentence's pieces -> its vector [H]
    std::vector<torch::Tensor> recorded_;
};

} // namespace attnlab
