#include "core/nn/layers/RecurrentGates.h"

namespace attnlab {

RecurrentGates::Trace RecurrentGates::lstm(const torch::Tensor& x, const RecurrentWeights& w, bool reverse)
{
    torch::NoGradGuard noGrad;
    const std::int64_t steps = x.size(0), H = w.hh.size(1);
    const auto fromInput = torch::addmm(w.biasIh + w.biasHh, x, w.ih.t()); // W_i* x_t + b_i* + b_h*, [T, 4H]
    Trace trace {0,
                 reverse,
                 {"input", "forget", "candidate", "output", "cell"},
                 torch::empty({5, steps, H}, x.options()),
                 torch::empty({steps, H}, x.options())};
    auto h = torch::zeros({H}, x.options()), c = torch::zeros({H}, x.options());
    for (std::int64_t k = 0; k < steps; ++k) {
        const std::int64_t t = reverse ? steps - 1 - k : k;
        const auto a = fromInput[t] + torch::mv(w.hh, h); // [4H]
        const auto i = torch::sigmoid(a.narrow(0, 0, H)), f = torch::sigmoid(a.narrow(0, H, H));
        const auto g = torch::tanh(a.narrow(0, 2 * H, H)), o = torch::sigmoid(a.narrow(0, 3 * H, H));
        c = f * c + i * g;
        h = o * torch::tanh(c);
        const torch::Tensor rows[] = {i, f, g, o, c};
        for (std::int64_t row = 0; row < 5; ++row)
            trace.values[row][t].copy_(rows[row]);
        trace.states[t].copy_(h);
    }
    return trace;
}

RecurrentGates::Trace RecurrentGates::gru(const torch::Tensor& x, const RecurrentWeights& w, bool reverse)
{
    torch::NoGradGuard noGrad;
    const std::int64_t steps = x.size(0), H = w.hh.size(1);
    const auto fromInput = torch::addmm(w.biasIh, x, w.ih.t()); // W_i* x_t + b_i*, [T, 3H]
    Trace trace {0,
                 reverse,
                 {"reset", "update", "candidate"},
                 torch::empty({3, steps, H}, x.options()),
                 torch::empty({steps, H}, x.options())};
    auto h = torch::zeros({H}, x.options());
    for (std::int64_t k = 0; k < steps; ++k) {
        const std::int64_t t = reverse ? steps - 1 - k : k;
        const auto in = fromInput[t], rec = torch::addmv(w.biasHh, w.hh, h); // W_h* h_{t-1} + b_h*, [3H]
        const auto r = torch::sigmoid(in.narrow(0, 0, H) + rec.narrow(0, 0, H));
        const auto z = torch::sigmoid(in.narrow(0, H, H) + rec.narrow(0, H, H));
        const auto n = torch::tanh(in.narrow(0, 2 * H, H) + r * rec.narrow(0, 2 * H, H));
        h = (1 - z) * n + z * h;
        const torch::Tensor rows[] = {r, z, n};
        for (std::int64_t row = 0; row < 3; ++row)
            trace.values[row][t].copy_(rows[row]);
        trace.states[t].copy_(h);
    }
    return trace;
}

std::vector<RecurrentGates::Trace> RecurrentGates::ofModule(torch::nn::Module& cell, bool isLstm, int layers,
                                                            bool bidirectional, const torch::Tensor& x)
{
    const auto parameters = cell.named_parameters(/*recurse=*/false);
    std::vector<Trace> traces;
    auto input = x;
    for (int layer = 0; layer < layers; ++layer) {
        std::vector<torch::Tensor> states;
        for (const std::string suffix : {"", "_reverse"}) {
            if (!suffix.empty() && !bidirectional)
                break;
            const auto name = [&](const char* what) { return what + std::to_string(layer) + suffix; };
            const RecurrentWeights weights {parameters[name("weight_ih_l")], parameters[name("weight_hh_l")],
                                            parameters[name("bias_ih_l")], parameters[name("bias_hh_l")]};
            auto trace = isLstm ? lstm(input, weights, !suffix.empty()) : gru(input, weights, !suffix.empty());
            trace.layer = layer;
            states.push_back(trace.states);
            traces.push_back(std::move(trace));
        }
        input = states.size() == 1 ? states[0] : torch::cat(states, 1);
    }
    return traces;
}

GateValues RecurrentGates::values(const std::vector<Trace>& traces, const std::string& cell)
{
    GateValues out;
    if (traces.empty())
        return out;
    out.cell = cell;
    for (const auto& trace : traces) {
        GateValues::Strip strip;
        strip.layer = trace.layer;
        strip.direction = trace.reverse ? "backward" : "forward";
        strip.gates = trace.names;
        strip.tokens = static_cast<int>(trace.values.size(1));
        strip.units = static_cast<int>(trace.values.size(2));
        const auto host = trace.values.to(torch::kCPU, torch::kFloat).contiguous();
        strip.values.assign(host.data_ptr<float>(), host.data_ptr<float>() + host.numel());
        out.strips.push_back(std::move(strip));
    }
    return out;
}

} // namespace attnlab
