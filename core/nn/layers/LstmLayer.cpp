#include "core/nn/layers/LstmLayer.h"

namespace attnlab {

namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

struct LstmFunction : public torch::autograd::Function<LstmFunction> {
    static variable_list forward(AutogradContext* ctx, const torch::Tensor& x, const torch::Tensor& wIh,
                                 const torch::Tensor& wHh, const torch::Tensor& bIh, const torch::Tensor& bHh,
                                 const std::vector<int64_t>& batchSizes, bool reverse)
    {
        const int64_t steps = x.size(0), rows = x.size(1), hidden = wHh.size(1);
        // The input's share of every gate for every step at once: [T, B, 4H]; each step then adds its
        // recurrent term in place and turns the four gates into their activations.
        auto gates = torch::addmm(bIh + bHh, x.reshape({steps * rows, x.size(2)}), wIh.t()).view({steps, rows, 4 * hidden});
        auto cells = torch::zeros({steps, rows, hidden}, x.options());    // c_t, zeros past each length
        auto tanhCells = torch::zeros({steps, rows, hidden}, x.options()); // tanh(c_t), kept for the backward
        auto states = torch::zeros({steps, rows, hidden}, x.options());   // h_t
        const auto wHhT = wHh.t();
        for (int64_t k = 0; k < steps; ++k) {
            const int64_t t = reverse ? steps - 1 - k : k, n = batchSizes[static_cast<std::size_t>(t)];
            const int64_t previous = reverse ? t + 1 : t - 1; // rows past its batch size are zero: a fresh start
            auto g = gates[t].narrow(0, 0, n);
            if (k > 0)
                g.addmm_(states[previous].narrow(0, 0, n), wHhT);
            g.narrow(1, 0, 2 * hidden).sigmoid_(); // i, f
            g.narrow(1, 2 * hidden, hidden).tanh_();
            g.narrow(1, 3 * hidden, hidden).sigmoid_(); // o
            auto c = cells[t].narrow(0, 0, n);
            if (k > 0)
                torch::mul_out(c, g.narrow(1, hidden, hidden), cells[previous].narrow(0, 0, n));
            c.addcmul_(g.narrow(1, 0, hidden), g.narrow(1, 2 * hidden, hidden));
            auto tc = tanhCells[t].narrow(0, 0, n);
            torch::tanh_out(tc, c);
            auto h = states[t].narrow(0, 0, n);
            torch::mul_out(h, g.narrow(1, 3 * hidden, hidden), tc);
        }
        auto final = RecurrentSteps::finalOf(states, batchSizes, reverse);
        ctx->saved_data["batchSizes"] = batchSizes;
        ctx->saved_data["reverse"] = reverse;
        ctx->save_for_backward({x, wIh, wHh, gates, cells, tanhCells, states});
        return {states, final};
    }

    static variable_list backward(AutogradContext* ctx, variable_list grads)
    {
        const auto saved = ctx->get_saved_variables();
        const auto &x = saved[0], &wIh = saved[1], &wHh = saved[2], &gates = saved[3], &cells = saved[4],
                   &tanhCells = saved[5], &states = saved[6];
        const auto batchSizes = ctx->saved_data["batchSizes"].toIntVector();
        const bool reverse = ctx->saved_data["reverse"].toBool();
        const int64_t steps = x.size(0), rows = x.size(1), hidden = wHh.size(1);
        // dL/dh_t from above (the states' gradient) and from the final state, which is some step's h_t.
        auto dStates = grads[0].defined() ? grads[0].clone() : torch::zeros_like(states);
        RecurrentSteps::addFinalGradient(dStates, grads[1], batchSizes, reverse);
        auto dGates = torch::zeros_like(gates); // dL/d(pre-activation gates), zeros past each length
        auto dhCarry = torch::zeros({rows, hidden}, x.options()); // dL/dh_t through step t+1's recurrence
        auto dcCarry = torch::zeros({rows, hidden}, x.options());
        for (int64_t k = steps - 1; k >= 0; --k) { // the forward's steps, last first
            const int64_t t = reverse ? steps - 1 - k : k, n = batchSizes[static_cast<std::size_t>(t)];
            const int64_t previous = reverse ? t + 1 : t - 1;
            const auto g = gates[t].narrow(0, 0, n);
            const auto i = g.narrow(1, 0, hidden), f = g.narrow(1, hidden, hidden), gg = g.narrow(1, 2 * hidden, hidden),
                       o = g.narrow(1, 3 * hidden, hidden);
            const auto tc = tanhCells[t].narrow(0, 0, n);
            auto dh = dStates[t].narrow(0, 0, n) + dhCarry.narrow(0, 0, n);
            auto dc = dcCarry.narrow(0, 0, n) + dh * o * (1 - tc * tc);
            auto dg = dGates[t].narrow(0, 0, n);
            dg.narrow(1, 0, hidden).copy_(dc * gg * i * (1 - i));
            if (k > 0)
                dg.narrow(1, hidden, hidden).copy_(dc * cells[previous].narrow(0, 0, n) * f * (1 - f));
            dg.narrow(1, 2 * hidden, hidden).copy_(dc * i * (1 - gg * gg));
            dg.narrow(1, 3 * hidden, hidden).copy_(dh * tc * o * (1 - o));
            dcCarry.narrow(0, 0, n).copy_(dc * f);
            auto dhPrevious = dhCarry.narrow(0, 0, n);
            torch::mm_out(dhPrevious, dg, wHh);
        }
        const auto g = RecurrentSteps::gradientsOf(dGates, dGates, x, states, wIh, reverse, ctx->needs_input_grad(0));
        const auto dBias = dGates.sum(torch::IntArrayRef{0, 1});
        return {g.input, g.ih, g.hh, dBias, dBias, torch::Tensor(), torch::Tensor()};
    }
};

} // namespace

RecurrentSteps LstmLayer::run(const torch::Tensor& x, const std::vector<int64_t>& batchSizes, const RecurrentWeights& weights,
                              bool reverse)
{
    RecurrentSteps::check(x, batchSizes, "LstmLayer");
    auto out = LstmFunction::apply(x.contiguous(), weights.ih, weights.hh, weights.biasIh, weights.biasHh, batchSizes, reverse);
    return {out[0], out[1]};
}

} // namespace attnlab
