#pragma once
// PRIVATE engine header: includes LibTorch. Only core/*.cpp and core tests may include it.
#include "core/results/GateValues.h"

#include <torch/torch.h>

#include <cstdint>
#include <string>
#include <vector>

namespace attnlab {

// Base of every language model (next-token prediction over token ids 0 .. V-1, no padding). Training reads a
// whole window at once (forward); generation reads one token at a time over a state that carries what the model
// keeps of the text so far (a GPT's keys and values, an RNN's hidden state, an n-gram's last n-1 tokens), so a
// new token costs one position, not the whole context again. step() after the same tokens equals forward()'s row.
class LanguageModel : public torch::nn::Module {
public:
    // ids [B, T] long -> next-token logits [B, T, V] (position t scores token t + 1). attention, when asked for and
    // the model has any: per layer [B, H, T, T].
    virtual torch::Tensor forward(const torch::Tensor& ids, std::vector<torch::Tensor>* attention = nullptr) = 0;

    struct State {
        std::vector<torch::Tensor> tensors; // model-specific, rows = sequences being generated
        std::int64_t position = 0;          // tokens read so far
    };
    virtual State start(std::int64_t rows) = 0;
    // ids [N, T] at positions state.position .. + T - 1 (one generated token, or a prompt read in one pass) -> the
    // last position's next-token logits [N, V]; attention per layer, that position's rows [N, H, 1, position + T].
    virtual torch::Tensor step(State& state, const torch::Tensor& ids, std::vector<torch::Tensor>* attention = nullptr) = 0;
    // Only these rows of the state, in this order (a row may come twice): beam search keeps the hypotheses it extends.
    // Every tensor's rows are its first dimension; a recurrent model's (layers first) override it.
    virtual void select(State& state, const torch::Tensor& rows) const;
    // The most tokens a state can hold (a GPT's context, after which generation keeps the latest half); 0 = no limit.
    virtual int stateLimit() const { return 0; }
    virtual int attentionLayers() const { return 0; }
    virtual int attentionHeads() const { return 0; }
    virtual std::string summary() const = 0;
    // The gates of a gated recurrent model over one text, ids [1, T]; empty for the others.
    virtual GateValues gates(const torch::Tensor& /*ids*/) { return {}; }
    // Counted the way nanoGPT counts (its get_num_params with non_embedding=True leaves out the position table;
    // the token table is the tied output layer and counts): every trainable value but learned positions.
    std::int64_t trainableParameters() const;
};

} // namespace attnlab
