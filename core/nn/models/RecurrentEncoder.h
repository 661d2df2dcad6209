#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/results/GateValues.h"

#include <torch/torch.h>

#include <string>

namespace attnlab {

// An RNN, LSTM or GRU (optionally bidirectional) over right-padded batches. Sequences are packed by their
// lengths, so padding never reaches a state and the backward direction starts at each real last token.
class RecurrentEncoderImpl : public torch::nn::Module {
public:
    struct Result {
        torch::Tensor states; // [B, T, directions * hidden], zeros at padded steps; undefined unless asked for
        torch::Tensor final;  // [B, directions * hidden]: last layer's final state(s)
    };

    RecurrentEncoderImpl(const std::string& cell, int inputSize, int hidden, int layers, bool bidirectional);
    // withStates: also unpack the per-step states (attention pooling needs them; the final state alone
    // does not, and the unpacking is work on every step of training). hostLengths: the rows' lengths [B] on
    // the host where the caller has them; else they are read from the mask (a wait for a GPU).
    // On a GPU without hostLengths, and where runsPadded(), the result comes from forwardPadded (no host read).
    Result forward(const torch::Tensor& x, const torch::Tensor& mask, bool withStates = true,
                   const torch::Tensor& hostLengths = {});
    // The same result from the padded batch and its mask alone, on the device: no host read and the same kernels
    // whatever the lengths, so a CUDA graph can capture the step (packing takes host lengths, and a
    // graph would replay the first batch's). Each row runs right-padded, so padding comes after its real steps;
    // the reverse direction runs on the rows rotated to end at the last column, so it meets padding last too.
    Result forwardPadded(const torch::Tensor& x, const torch::Tensor& mask, bool withStates = true);
    // Whether forwardPadded gives forward's result: one direction (any layers), or both directions in one layer
    // (a second layer would read the first's reverse states of the rotated rows).
    bool runsPadded() const;
    // Every layer's and direction's gates over one sequence x [T, I] (RecurrentGates); none for the plain RNN.
    GateValues gates(const torch::Tensor& x);

private:
    // The LSTM and GRU on the CPU: LstmLayer's and GruLayer's hand-written backward; on a GPU,
    // cuDNN's packed ones; the plain RNN, LibTorch's packed one everywhere.
    Result forwardOnCpu(const torch::Tensor& x, const torch::Tensor& sortedLengths, const torch::Tensor& order,
                        bool withStates);

    std::string cell_;
    bool bidirectional_;
    torch::nn::LSTM lstm_{nullptr};
    torch::nn::GRU gru_{nullptr};
    torch::nn::RNN rnn_{nullptr};
};
TORCH_MODULE(RecurrentEncoder);

} // namespace attnlab
