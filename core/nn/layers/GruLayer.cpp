#include "core/nn/layers/GruLayer.h"

namespace attnlab {

namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

struct GruFunction : public torch::autograd::Function<GruFunction> {
    static variable_list forward(AutogradContext* ctx, const torch::Tensor& x, const torch::Tensor& wIh,
                                 const torch::Tensor& wHh, const torch::Tensor& bIh, const torch::Tensor& bHh,
                                 const std::vector<int64_t>& batchSizes, bool reverse)
    {
        const int64_t steps = x.size(0), rows = x.size(1), hidden = wHh.size(1);
        // The input's share of every gate for every step at once: [T, B, 3H]; each step adds the recurrent
        // terms to r and z in place and turns the three into their activations (r, z, n).
        auto gates = torch::addmm(bIh, x.reshape({steps * rows, x.size(2)}), wIh.t()).view({steps, rows, 3 * hidden});
        auto recurrentN = torch::zeros({steps, rows, hidden}, x.options()); // W_hn h_{t-1} + b_hn, kept for the backward
        auto states = torch::zeros({steps, rows, hidden}, x.options());    // h_t
        const auto wHhT = wHh.t();
        for (int64_t k = 0; k < steps; ++k) {
            const int64_t t = reverse ? steps - 1 - k : k, n = batchSizes[static_cast<std::size_t>(t)];
            const int64_t previous = reverse ? t + 1 : t - 1; // rows past its batch size are zero: a fresh start
            auto hw = k > 0 ? torch::addmm(bHh, states[previous].narrow(0, 0, n), wHhT) : bHh.expand({n, 3 * hidden});
            auto g = gates[t].narrow(0, 0, n);
            auto rz = g.narrow(1, 0, 2 * hidden);
            rz.add_(hw.narrow(1, 0, 2 * hidden)).sigmoid_();
            auto hn = recurrentN[t].narrow(0, 0, n);
            hn.copy_(hw.narrow(1, 2 * hidden, hidden));
            auto candidate = g.narrow(1, 2 * hidden, hidden);
            candidate.addcmul_(g.narrow(1, 0, hidden), hn).tanh_();
            auto h = states[t].narrow(0, 0, n); // n + z (h_{t-1} - n)
            h.copy_(candidate);
            if (k > 0)
                h.addcmul_(g.narrow(1, hidden, hidden), states[previous].narrow(0, 0, n) - candidate);
            else
                h.addcmul_(g.narrow(1, hidden, hidden), candidate, -1);
        }
        auto final = RecurrentSteps::finalOf(states, batchSizes, reverse);
        ctx->saved_data["batchSizes"] = batchSizes;
        ctx->saved_data["reverse"] = reverse;
        ctx->save_for_backward({x, wIh, wHh, gates, recurrentN, states});
        return {states, final};
    }

    static variable_list backward(AutogradContext* ctx, variable_list grads)
    {
        const auto saved = ctx->get_saved_variables();
        const auto &x = saved[0], &wIh = saved[1], &wHh = saved[2], &gates = saved[3], &recurrentN = saved[4],
                   &states = saved[5];
        const auto batchSizes = ctx->saved_data["batchSizes"].toIntVector();
        const bool reverse = ctx->saved_data["reverse"].toBool();
        const int64_t steps = x.size(0), rows = x.size(1), hidden = wHh.size(1);
        auto dStates = grads[0].defined() ? grads[0].clone() : torch::zeros_like(states);
        RecurrentSteps::addFinalGradient(dStates, grads[1], batchSizes, reverse);
        // Two gradients per step: of the input's gate terms (W_i* x + b_i*) and of the recurrent ones
        // (W_h* h + b_h*); they differ in n, where the recurrent term is gated by r.
        auto dInput = torch::zeros_like(gates), dRecurrent = torch::zeros_like(gates);
        auto dhCarry = torch::zeros({rows, hidden}, x.options()); // dL/dh_t through step t+1
        for (int64_t k = steps - 1; k >= 0; --k) { // the forward's steps, last first
            const int64_t t = reverse ? steps - 1 - k : k, n = batchSizes[static_cast<std::size_t>(t)];
            const int64_t previous = reverse ? t + 1 : t - 1;
            const auto g = gates[t].narrow(0, 0, n);
            const auto r = g.narrow(1, 0, hidden), z = g.narrow(1, hidden, hidden), candidate = g.narrow(1, 2 * hidden, hidden);
            const auto hPrevious = k > 0 ? states[previous].narrow(0, 0, n) : torch::zeros_like(candidate);
            auto dh = dStates[t].narrow(0, 0, n) + dhCarry.narrow(0, 0, n);
            auto dCandidate = dh * (1 - z) * (1 - candidate * candidate); // through tanh
            auto dz = dh * (hPrevious - candidate) * z * (1 - z);
            auto dr = dCandidate * recurrentN[t].narrow(0, 0, n) * r * (1 - r);
            auto di = dInput[t].narrow(0, 0, n), dw = dRecurrent[t].narrow(0, 0, n);
            di.narrow(1, 0, hidden).copy_(dr);
            di.narrow(1, hidden, hidden).copy_(dz);
            di.narrow(1, 2 * hidden, hidden).copy_(dCandidate);
            dw.narrow(1, 0, 2 * hidden).copy_(di.narrow(1, 0, 2 * hidden));
            dw.narrow(1, 2 * hidden, hidden).copy_(dCandidate * r);
            auto dhPrevious = dhCarry.narrow(0, 0, n);
            torch::addmm_out(dhPrevious, dh * z, dw, wHh);
        }
        const auto g = RecurrentSteps::gradientsOf(dInput, dRecurrent, x, states, wIh, reverse, ctx->needs_input_grad(0));
        return {g.input, g.ih, g.hh, dInput.sum(torch::IntArrayRef{0, 1}), dRecurrent.sum(torch::IntArrayRef{0, 1}), torch::Tensor(), torch::Tensor()};
    }
};

} // namespace

RecurrentSteps GruLayer::run(const torch::Tensor& x, const std::vector<int64_t>& batchSizes, const RecurrentWeights& weights,
                             bool reverse)
{
    RecurrentSteps::check(x, batchSizes, "GruLayer");
    auto out = GruFunction::apply(x.contiguous(), weights.ih, weights.hh, weights.biasIh, weights.biasHh, batchSizes, reverse);
    return {out[0], out[1]};
}

} // namespace attnlab
