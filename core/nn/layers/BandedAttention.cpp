#include "core/nn/layers/BandedAttention.h"

#include <algorithm>
#include <cmath>

namespace attnlab {

BandedAttention::Result BandedAttention::attend(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v,
                                                const torch::Tensor& mask, const Settings& settings,
                                                const torch::Tensor& relKeys, const torch::Tensor& relValues, int rprClip,
                                                const torch::Tensor& alibiSlopes)
{
    TORCH_CHECK(settings.window >= 1 && settings.globalTokens >= 0, "banded attention: window >= 1 and global tokens >= 0");
    const int64_t batch = q.size(0), heads = q.size(1), length = q.size(2), headSize = q.size(3);
    const int64_t globals = std::min<int64_t>(settings.globalTokens, length);
    const auto longs = torch::TensorOptions().dtype(torch::kLong).device(q.device());
    const auto positions = torch::arange(length, longs); // i

    // The key table [T, M]: G global columns, then the band's offsets -w .. w (causal: -w .. 0).
    const auto offsets = torch::arange(-settings.window, (settings.causal ? 0 : settings.window) + 1, longs);
    const auto band = positions.unsqueeze(1) + offsets.unsqueeze(0); // [T, 2w+1], may run off either end
    // A band key among the global tokens is left to its global column: counted once.
    auto valid = band.ge(globals).logical_and(band.lt(length));
    auto keyIndex = band.clamp(0, length - 1);
    if (globals > 0) {
        const auto global = torch::arange(globals, longs).unsqueeze(0).expand({length, globals});
        const auto globalValid = settings.causal ? global.le(positions.unsqueeze(1))
                                                 : torch::ones({length, globals}, longs.dtype(torch::kBool));
        keyIndex = torch::cat({global, keyIndex}, 1);
        valid = torch::cat({globalValid, valid}, 1);
    }
    const int64_t width = keyIndex.size(1); // M
    const auto flat = keyIndex.reshape({-1});
    // [B, 1, T, M]: the key is in query i's window and is a real token.
    const auto visible = mask.index_select(1, flat).view({batch, length, width}).logical_and(valid.unsqueeze(0)).unsqueeze(1);

    // Each query's own keys and values, gathered: [B, H, T, M, dh]. Elementwise products and sums rather than T tiny
    // matrix products: one vectorised pass each way.
    const auto bandKeys = k.index_select(2, flat).view({batch, heads, length, width, headSize});
    const auto bandValues = v.index_select(2, flat).view({batch, heads, length, width, headSize});
    auto scores = (q.unsqueeze(3) * bandKeys).sum(-1); // [B, H, T, M]: q_i . k_j (eq. 3.4's numerator)
    const auto distance = keyIndex - positions.unsqueeze(1); // [T, M]: j - i
    torch::Tensor relIndex;
    if (relKeys.defined() || relValues.defined())
        relIndex = (distance.clamp(-rprClip, rprClip) + rprClip).expand({batch, heads, length, width});
    if (relKeys.defined()) // eq. 3.10: + q_i . a^K_ij, against the 2k+1 table rows once, then gathered per pair
        scores = scores + torch::matmul(q, relKeys.t()).gather(3, relIndex);
    scores = scores / std::sqrt(static_cast<double>(headSize));
    if (alibiSlopes.defined()) // -m_h |j - i|, after the division as in full attention
        scores = scores - alibiSlopes.view({1, heads, 1, 1}) * distance.abs().to(q.dtype()).view({1, 1, length, width});
    scores = scores.masked_fill(visible.logical_not(), -1e9); // exp underflows to exactly 0
    auto weights = torch::softmax(scores, -1);                 // eq. 3.5 over the M keys
    auto output = (weights.unsqueeze(-1) * bandValues).sum(3);   // [B, H, T, dh]: sum_j alpha_ij v_j
    if (relValues.defined()) { // eq. 3.9: + sum_j alpha_ij a^V_ij, the weights summed per table row
        auto perRow = torch::zeros({batch, heads, length, relValues.size(0)}, weights.options()).scatter_add(3, relIndex, weights);
        output = output + torch::matmul(perRow, relValues);
    }
    Result r{output, weights, keyIndex, {}};
    if (globals == 0)
        return r;

    // The global queries attend to the whole sequence: G full rows, O(G T).
    const auto globalQueries = q.narrow(2, 0, globals); // [B, H, G, dh]
    auto globalScores = torch::matmul(globalQueries, k.transpose(-2, -1)); // [B, H, G, T]
    const auto globalDistance = positions.unsqueeze(0) - torch::arange(globals, longs).unsqueeze(1); // [G, T]: j - i
    torch::Tensor globalRel;
    if (relKeys.defined() || relValues.defined())
        globalRel = (globalDistance.clamp(-rprClip, rprClip) + rprClip).expand({batch, heads, globals, length});
    if (relKeys.defined())
        globalScores = globalScores + torch::matmul(globalQueries, relKeys.t()).gather(3, globalRel);
    globalScores = globalScores / std::sqrt(static_cast<double>(headSize));
    if (alibiSlopes.defined())
        globalScores = globalScores - alibiSlopes.view({1, heads, 1, 1}) *
                                          globalDistance.abs().to(q.dtype()).view({1, 1, globals, length});
    auto globalVisible = mask.view({batch, 1, 1, length});
    if (settings.causal)
        globalVisible = globalVisible.logical_and(globalDistance.le(0).view({1, 1, globals, length}));
    globalScores = globalScores.masked_fill(globalVisible.logical_not(), -1e9);
    const auto globalWeights = torch::softmax(globalScores, -1);
    auto globalOutput = torch::matmul(globalWeights, v);
    if (relValues.defined()) {
        auto perRow = torch::zeros({batch, heads, globals, relValues.size(0)}, globalWeights.options())
                          .scatter_add(3, globalRel, globalWeights);
        globalOutput = globalOutput + torch::matmul(perRow, relValues);
    }
    r.output = torch::cat({globalOutput, output.narrow(2, globals, length - globals)}, 2);
    r.globalWeights = globalWeights;
    return r;
}

torch::Tensor BandedAttention::dense(const torch::Tensor& weights, const torch::Tensor& keyIndex, const torch::Tensor& globalWeights)
{
    const int64_t batch = weights.size(0), heads = weights.size(1), length = weights.size(2), width = weights.size(3);
    // Columns a query does not own carry exactly 0 (masked before the softmax), so adding them in changes nothing.
    auto full = torch::zeros({batch, heads, length, length}, weights.options())
                    .scatter_add(3, keyIndex.expand({batch, heads, length, width}), weights);
    if (!globalWeights.defined())
        return full;
    const int64_t globals = globalWeights.size(2);
    return torch::cat({globalWeights, full.narrow(2, globals, length - globals)}, 2);
}

torch::Tensor BandedAttention::bandMask(int64_t length, const Settings& settings, const torch::Device& device)
{
    const auto positions = torch::arange(length, torch::TensorOptions().dtype(torch::kLong).device(device));
    const auto i = positions.unsqueeze(1), j = positions.unsqueeze(0);
    const auto distance = j - i;
    auto seen = settings.causal ? distance.le(0).logical_and(distance.ge(-settings.window)) : distance.abs().le(settings.window);
    const auto global = i.lt(settings.globalTokens).logical_or(j.lt(settings.globalTokens));
    seen = seen.logical_or(settings.causal ? global.logical_and(distance.le(0)) : global);
    return seen;
}

} // namespace attnlab
