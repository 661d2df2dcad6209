#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/nn/models/Seq2SeqModel.h"
#include "core/nn/training/DecodingSource.h"

namespace attnlab {

// An encoder-decoder's decoder as a DecodingSource: the sources encoded once, then a step of the decoder a token,
// <bos> first. Its scores are log-probabilities in which <pad> and <bos> are -inf (never a next token), taken after
// the softmax so the probabilities kept are the model's own; its rows end at <eos>.
class TranslationDecodingSource : public DecodingSource {
public:
    // repeat: each sentence's row that many times (a beam's hypotheses), encoded once.
    TranslationDecodingSource(Seq2SeqModel& model, const torch::Tensor& source, const torch::Tensor& sourceMask, std::int64_t repeat = 1);
    // logits [N, V] -> log p(next token) [N, V] in float, <pad> and <bos> -inf (beam search reads the same).
    static torch::Tensor logProbabilities(const torch::Tensor& logits);

    std::int64_t rows() const override { return rows_; }
    Step step(const Chosen& previous, int t) override;
    void keep(const torch::Tensor& rows) override;
    std::int64_t endToken() const override { return Seq2SeqModel::kEos; }

private:
    Seq2SeqModel& model_;
    Seq2SeqModel::Encoded encoded_;
    Seq2SeqModel::DecoderState state_;
    std::int64_t rows_ = 0;
    std::int64_t repeat_ = 1;
};

} // namespace attnlab
