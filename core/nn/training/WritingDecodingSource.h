#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/nn/models/LanguageModel.h"
#include "core/nn/training/DecodingSource.h"

#include <cstdint>
#include <vector>

namespace attnlab {

// A language model writing on from a prompt, as a DecodingSource of one row a sample (or a beam's hypothesis): the prompt read into the
// model's state in one pass (every row at once), then each row's chosen token read at one position (a GPT's
// key/value cache). When a GPT's state is full
// (its context), it is read again from the latest half of the text, so every prediction sees between context / 2
// and context tokens. Its scores are the model's logits; no token ends the text (a row writes to its limit).
class WritingDecodingSource : public DecodingSource {
public:
    WritingDecodingSource(LanguageModel& model, const std::vector<std::int32_t>& prompt, int samples, bool attention,
                          const torch::Device& device);

    std::int64_t rows() const override { return static_cast<std::int64_t>(texts_.size()); }
    Step step(const Chosen& previous, int t) override;
    // The rows' states and texts in this order (beam search; a row may come twice). Greedy and drawn rows never
    // end early (no end token, one limit), so writing samples never calls it.
    void keep(const torch::Tensor& rows) override;

private:
    Step readFrom(std::size_t from); // the state made again from text_[from ..]: the last position's scores
    Step stepOut(torch::Tensor logits) const;

    LanguageModel& model_;
    std::vector<std::vector<std::int32_t>> texts_; // a row's prompt and every token it wrote
    bool keepAttention_ = true;
    torch::Device device_;
    LanguageModel::State state_;
    std::int64_t contextStart_ = 0;
    std::vector<torch::Tensor> attention_; // per layer [N, H, 1, W] of the latest step
};

} // namespace attnlab
