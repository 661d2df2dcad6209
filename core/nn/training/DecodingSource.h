#pragma once
// PRIVATE engine header: includes LibTorch.
#include <torch/torch.h>

#include <cstdint>
#include <vector>

namespace attnlab {

// What SequenceDecoder::write writes from, a token a step for rows of sequences: a translation model's decoder over
// its encoded sources (TranslationDecodingSource) or a language model over the text so far (WritingDecodingSource).
// The loop chooses the tokens (the likeliest, or TokenSampler's draw), ends rows and keeps the rest; the source
// reads each chosen token into its model's state.
class DecodingSource {
public:
    struct Step {
        // [A, V] for the rows still writing: the next token's logits or log-probabilities (the softmax of either is
        // the distribution a token is drawn from); a token the source never writes scores -inf.
        torch::Tensor scores;
        torch::Tensor attention; // [A, layers * heads, W]: this step's attention rows; undefined without attention
        std::int64_t contextStart = 0; // the position of the attention's first column (a language model's window)
        bool logProbabilities = false; // the scores are log p already (a translation's): beam search adds them as they are
    };
    // The tokens each row chose at the previous step: on the model's device, and the same on the host.
    struct Chosen {
        torch::Tensor tokens;             // [A] long
        std::vector<std::int64_t> ids;    // [A]
    };

    virtual ~DecodingSource() = default;
    virtual std::int64_t rows() const = 0;
    // The scores of step t: t = 0 reads what the rows start from (<bos>, a prompt) and `previous` is empty; after
    // that, each row's token of step t - 1.
    virtual Step step(const Chosen& previous, int t) = 0;
    // Only these rows (indices into the rows still writing, in this order) go on.
    virtual void keep(const torch::Tensor& rows) = 0;
    // The token that ends a row (a translation's <eos>); -1: a row writes until its limit.
    virtual std::int64_t endToken() const { return -1; }
};

} // namespace attnlab
