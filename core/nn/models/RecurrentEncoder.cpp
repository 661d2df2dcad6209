#include "core/nn/models/RecurrentEncoder.h"

#include "core/nn/layers/GruLayer.h"
#include "core/nn/layers/LstmLayer.h"
#include "core/nn/layers/RecurrentGates.h"
#include "core/nn/layers/TensorConversions.h"

#include <stdexcept>

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
    if (x.is_cuda() && !hostLengths.defined() && runsPadded())
        return forwardPadded(x, mask, withStates);
    // Packing takes the lengths on the host. Empty rows count as one step, as the mask's sum did.
    auto lengths = (hostLengths.defined() ? hostLengths : mask.sum(1)).to(torch::kCPU, torch::kLong).clamp_min(1);
    // pack_padded_sequence(enforce_sorted=false) as LibTorch writes it, but with the longest-first order sent
    // to a GPU through pinned memory without waiting: LibTorch's own copies it from pageable memory, which
    // makes every step wait for the device (tests/gpu, noStepWaitsForTheDevice).
    auto [sortedLengths, order] = torch::sort(lengths, /*dim=*/-1, /*descending=*/true);
    if ((lstm_ || gru_) && !x.is_cuda())
        return forwardOnCpu(x, sortedLengths, order, withStates);
    if (x.is_cuda())
        order = hostToDevice(order, x.device(), torch::kLong);
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
    // Unpacked and put back in the caller's row order on the device. Not rnn::pad_packed_sequence: it also
    // reorders the lengths by unsorted_indices.cpu(), a copy from the GPU that made every step of an attention
    // model wait (tests/gpu, noTranslationStepWaitsForTheDevice: Bahdanau and Luong on an H100).
    if (withStates)
        states = std::get<0>(torch::_pad_packed_sequence(out.data(), out.batch_sizes(), /*batch_first=*/true, 0.0, x.size(1)))
                     .index_select(0, out.unsorted_indices());
    // hidden: [layers * directions, B, H]; the last layer's directions are the last rows.
    auto final = bidirectional_ ? torch::cat({hidden[-2], hidden[-1]}, 1) : hidden[-1];
    return {states, final};
}

bool RecurrentEncoderImpl::runsPadded() const
{
    const int64_t layers = lstm_ ? lstm_->options.num_layers() : gru_ ? gru_->options.num_layers() : rnn_->options.num_layers();
    return !bidirectional_ || layers == 1;
}

GateValues RecurrentEncoderImpl::gates(const torch::Tensor& x)
{
    if (!lstm_ && !gru_)
        return {};
    const int layers = static_cast<int>(lstm_ ? lstm_->options.num_layers() : gru_->options.num_layers());
    torch::nn::Module& cell = lstm_ ? static_cast<torch::nn::Module&>(*lstm_) : static_cast<torch::nn::Module&>(*gru_);
    return RecurrentGates::values(RecurrentGates::ofModule(cell, static_cast<bool>(lstm_), layers, bidirectional_, x),
                                  cell_);
}

RecurrentEncoderImpl::Result RecurrentEncoderImpl::forwardPadded(const torch::Tensor& x, const torch::Tensor& mask, bool withStates)
{
    if (!runsPadded())
        throw std::logic_error("RecurrentEncoder::forwardPadded: a bidirectional encoder of more than one layer");
    const int64_t rows = x.size(0), steps = x.size(1);
    const auto lengths = mask.sum(1).clamp_min(1).unsqueeze(1);               // [B, 1]: empty rows count one step, as forward's
    const auto columns = torch::arange(steps, lengths.options()).unsqueeze(0); // [1, T]
    auto run = [&](const torch::Tensor& input) {                               // [B', T, I] -> [B', T, directions * H]
        return lstm_ ? std::get<0>(lstm_->forward(input)) : std::get<0>(gru_ ? gru_->forward(input) : rnn_->forward(input));
    };
    // Row b's step t taken from its column index[b, t], as a product with a 0/1 matrix [B, T, T]: exact, and its
    // backward is another product (a gather's would scatter-add).
    auto take = [&](const torch::Tensor& from, const torch::Tensor& index) {
        const auto picks = (index.unsqueeze(2) == columns.unsqueeze(1)).to(from.scalar_type());
        return torch::bmm(picks, from);
    };
    torch::Tensor states, final;
    const auto isLast = (columns == lengths - 1).to(x.scalar_type()).unsqueeze(2); // [B, T, 1]: one 1 per row
    if (!bidirectional_) {
        states = run(x);
        final = (states * isLast).sum(1);
    } else {
        // Rotated so that row b ends at column T - 1: rotated[b, t] = x[b, (t + len_b) mod T]. One call runs both
        // directions over both copies; the forward direction is read from the first, the reverse from the second.
        const auto both = run(torch::cat({x, take(x, (columns + lengths) % steps)}, 0)); // [2B, T, 2H]
        const int64_t hidden = both.size(2) / 2;
        const auto forwardStates = both.narrow(0, 0, rows).narrow(2, 0, hidden);
        // Back to the rows' own columns: step s of row b is the rotated copy's column (s - len_b) mod T.
        const auto reverseStates = take(both.narrow(0, rows, rows).narrow(2, hidden, hidden), (columns - lengths + steps) % steps);
        states = torch::cat({forwardStates, reverseStates}, 2);
        // The reverse direction ends at each row's first step, the forward one at its last.
        final = torch::cat({(forwardStates * isLast).sum(1), reverseStates.select(1, 0)}, 1);
    }
    if (withStates) // zeros past each row's length, as forward's unpacking gives
        states = states * (columns < lengths).to(states.scalar_type()).unsqueeze(2);
    return {withStates ? states : torch::Tensor(), final};
}

RecurrentEncoderImpl::Result RecurrentEncoderImpl::forwardOnCpu(const torch::Tensor& x, const torch::Tensor& sortedLengths,
                                                                const torch::Tensor& order, bool withStates)
{
    // The same parameters as torch::nn::LSTM / GRU (checkpoints do not change), run by LstmLayer / GruLayer:
    // sorted longest first and time-major, so each step's rows are a prefix and each step's slice is contiguous.
    const int64_t rows = x.size(0), steps = sortedLengths[0].item<int64_t>();
    std::vector<int64_t> batchSizes(static_cast<std::size_t>(steps), 0);
    const auto* length = sortedLengths.data_ptr<int64_t>();
    for (int64_t b = 0; b < rows; ++b)
        for (int64_t t = 0; t < length[b]; ++t)
            ++batchSizes[static_cast<std::size_t>(t)];
    auto input = x.index_select(0, order).narrow(1, 0, steps).transpose(0, 1).contiguous(); // [T, B, I]
    const int64_t layers = lstm_ ? lstm_->options.num_layers() : gru_->options.num_layers();
    const auto parameters = (lstm_ ? lstm_->named_parameters(/*recurse=*/false) : gru_->named_parameters(/*recurse=*/false));
    torch::Tensor final;
    for (int64_t layer = 0; layer < layers; ++layer) {
        std::vector<torch::Tensor> states, finals;
        for (const std::string suffix : {"", "_reverse"}) {
            if (!suffix.empty() && !bidirectional_)
                break;
            const auto name = [&](const char* what) { return what + std::to_string(layer) + suffix; };
            const RecurrentWeights weights{parameters[name("weight_ih_l")], parameters[name("weight_hh_l")],
                                           parameters[name("bias_ih_l")], parameters[name("bias_hh_l")]};
            auto r = lstm_ ? LstmLayer::run(input, batchSizes, weights, /*reverse=*/!suffix.empty())
                           : GruLayer::run(input, batchSizes, weights, /*reverse=*/!suffix.empty());
            states.push_back(r.states);
            finals.push_back(r.final);
        }
        input = states.size() == 1 ? states[0] : torch::cat(states, 2);
        final = finals.size() == 1 ? finals[0] : torch::cat(finals, 1);
    }
    // Back to the caller's row order (and [B, T, ...], padded to its length).
    auto unsort = torch::empty_like(order).scatter_(0, order, torch::arange(rows));
    torch::Tensor statesOut;
    if (withStates) {
        statesOut = input.transpose(0, 1).index_select(0, unsort);
        if (steps < x.size(1))
            statesOut = torch::constant_pad_nd(statesOut, {0, 0, 0, x.size(1) - steps});
    }
    return {statesOut, final.index_select(0, unsort)};
}

} // namespace attnlab
