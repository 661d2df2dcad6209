#include "core/nn/models/RecurrentEncoder.h"

namespace attnlab {

RecurrentEncoderImpl::RecurrentEncoderImpl(const std::string& cell, int inputSize, int hidden, int layers, bool bidirectional)
    : cell_(cell), bidirectional_(bidirectional)
{
    if (cell == "lstm")
        lstm_ = register_module("cell", torch::nn::LSTM(torch::nn::LSTMOptions(inputSize, hidden).num_layers(layers)
                                                            .batch_first(true).bidirectional(bidirectional)));
    else if (cell == "gru")
        gru_ = register_module("cell", torch::nn::GRU(torch::nn::GRUOptions(inputSize, hidden).num_layers(layers)
                                                          .batch_first(true).bidirectional(bidirectional)));
    else
        rnn_ = register_module("cell", torch::nn::RNN(torch::nn::RNNOptions(inputSize, hidden).num_layers(layers)
                                                          .batch_first(true).bidirectional(bidirectional)));
}

RecurrentEncoderImpl::Result RecurrentEncoderImpl::forward(const torch::Tensor& x, const torch::Tensor& mask,
                                                           bool withStates, const torch::Tensor& hostLengths)
{
    namespace rnn = torch::nn::utils::rnn;
    // Packing takes the lengths on the host. Empty rows count as one step, as the mask's sum did.
    auto lengths = (hostLengths.defined() ? hostLengths : mask.sum(1).to(torch::kCPU, torch::kLong)).clamp_min(1);
    // pack_padded_sequence(enforce_sorted=false) as LibTorch writes it, but with the longest-first order sent
    // to a GPU through pinned memory without waiting: LibTorch's own copies it from pageable memory, which
    // makes every step wait for the device (tests/gpu, noStepWaitsForTheDevice).
    auto [sortedLengths, order] = torch::sort(lengths, /*dim=*/-1, /*descending=*/true);
    if (x.is_cuda())
        order = order.pin_memory().to(x.device(), torch::kLong, /*non_blocking=*/true);
    auto [data, batchSizes] = torch::_pack_padded_sequence(x.index_select(0, order), sortedLengths, /*batch_first=*/true);
    rnn::PackedSequence packed(data, batchSizes, order, /*unsorted_indices=*/{});
    torch::Tensor hidden;
    auto out = [&]() -> rnn::PackedSequence {
        if (lstm_) {
            auto r = lstm_->forward_with_packed_input(packed);
            hidden = std::get<0>(std::get<1>(r));
            return std::get<0>(r);
        }
        auto r = gru_ ? gru_->forward_with_packed_input(packed) : rnn_->forward_with_packed_input(packed);
        hidden = std::get<1>(r);
        return std::get<0>(r);
    }();
    torch::Tensor states;
    if (withStates)
        states = std::get<0>(rnn::pad_packed_sequence(out, /*batch_first=*/true, 0.0, x.size(1)));
    // hidden: [layers * directions, B, H]; the last layer's directions are the last rows.
    auto final = bidirectional_ ? torch::cat({hidden[-2], hidden[-1]}, 1) : hidden[-1];
    return {states, final};
}

} // namespace attnlab
