#pragma once
// PRIVATE engine header: includes LibTorch.
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
    Result forward(const torch::Tensor& x, const torch::Tensor& mask, bool withStates = true,
                   const torch::Tensor& hostLengths = {});

private:
    // The LSTM and GRU on the CPU: LstmLayer's and GruLayer's hand-written backward (issue 25); on a GPU,
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
