#include "core/nn/layers/BandedAttention.h"

#include "core/nn/layers/BatchedMatmul.h"
#include "core/nn/layers/SelfAttention.h"

#include <algorithm>
#include <cmath>

namespace attnlab {
namespace {

// The smallest chunk of queries computed together: below it the per-chunk products are too small for the BLAS.
constexpr int64_t kChunk = 16;

} // namespace

BandedAttention::Result BandedAttention::attend(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v,
                                                const torch::Tensor& mask, const Settings& settings,
                                                const torch::Tensor& relKeys, const torch::Tensor& relValues, int rprClip,
                                                const torch::Tensor& alibiSlopes)
{
    TORCH_CHECK(settings.window >= 1 && settings.globalTokens >= 0, "banded attention: window >= 1 and global tokens >= 0");
    const int64_t batch = q.size(0), heads = q.size(1), length = q.size(2), headSize = q.size(3);
    const int64_t w = settings.window, globals = std::min<int64_t>(settings.globalTokens, length);
    // Longformer's sliding chunks: the queries in chunks of c, each chunk against the span of keys its queries' bands
    // cover (c + 2w; causal c + w), as one small dense product per chunk. Time and memory T (c + 2w), never T^2.
    const int64_t c = std::max<int64_t>(w, kChunk), chunks = (length + c - 1) / c, padded = chunks * c;
    const int64_t span = c + (settings.causal ? w : 2 * w);
    if (length <= span) {
        // A sentence no longer than one chunk's span: the full [T, T] product with the band as a mask is the same
        // arithmetic on fewer numbers (T <= span columns a query), so short inputs cost what full attention costs.
        auto bias = torch::zeros({heads, length, length}, q.options())
                        .masked_fill(bandMask(length, settings, q.device()).logical_not().unsqueeze(0), -1e9);
        if (alibiSlopes.defined()) {
            const auto positions = torch::arange(length, q.options());
            bias = bias - alibiSlopes.view({heads, 1, 1}) * (positions.unsqueeze(0) - positions.unsqueeze(1)).abs().unsqueeze(0);
        }
        auto full = SelfAttentionImpl::attend(q, k, v, mask, relKeys, relValues, rprClip, bias);
        const auto every = torch::arange(length, torch::TensorOptions().dtype(torch::kLong).device(q.device()));
        return {full.output, full.weights, every.unsqueeze(0).expand({length, length}), {}};
    }
    const auto longs = torch::TensorOptions().dtype(torch::kLong).device(q.device());
    const int64_t right = padded - length + (settings.causal ? 0 : w);
    // [B, H, T, dh] -> [B, H, chunks, span, dh]: chunk n's keys are positions n c - w .. n c - w + span - 1.
    auto spans = [&](const torch::Tensor& x) {
        return torch::constant_pad_nd(x, {0, 0, w, right}).unfold(2, span, c).transpose(-1, -2).contiguous();
    };
    const auto queries = torch::constant_pad_nd(q, {0, 0, 0, padded - length}); // [B, H, T', dh]
    const auto chunkQueries = queries.view({batch, heads, chunks, c, headSize});
    const auto chunkKeys = spans(k), chunkValues = spans(v);

    // Query i = n c + r and column m of its chunk: key j = n c - w + m, at distance j - i = m - w - r.
    const auto distance = torch::arange(span, longs).unsqueeze(0) - w - torch::arange(c, longs).unsqueeze(1); // [c, span]
    const auto inBand = settings.causal ? distance.le(0).logical_and(distance.ge(-w)) : distance.abs().le(w);
    const auto key = torch::arange(chunks, longs).unsqueeze(1) * c - w + torch::arange(span, longs).unsqueeze(0); // [chunks, span]
    // A band key among the global tokens is left to its global column: counted once.
    const auto inSequence = key.ge(globals).logical_and(key.lt(length));
    const auto realKey = torch::constant_pad_nd(mask.to(torch::kFloat), {w, right}).unfold(1, span, c).gt(0.5); // [B, chunks, span]
    const auto visible = inBand.view({1, 1, 1, c, span})
                             .logical_and(inSequence.view({1, 1, chunks, 1, span}))
                             .logical_and(realKey.view({batch, 1, chunks, 1, span}));

    auto scores = BatchedMatmul::apply(chunkQueries, chunkKeys, /*transposeB=*/true); // [B, H, chunks, c, span]: q_i . k_j
    torch::Tensor relIndex, queryRel;
    if (relKeys.defined() || relValues.defined())
        relIndex = (distance.clamp(-rprClip, rprClip) + rprClip).expand({batch, heads, chunks, c, span});
    if (relKeys.defined()) { // eq. 3.10: + q_i . a^K_ij, against the 2k+1 table rows once, then gathered per pair
        queryRel = torch::matmul(queries, relKeys.t()); // [B, H, T', 2k+1]
        scores = scores + queryRel.view({batch, heads, chunks, c, -1}).gather(4, relIndex);
    }
    scores = scores / std::sqrt(static_cast<double>(headSize));
    if (alibiSlopes.defined()) // -m_h |j - i|, after the division as in full attention
        scores = scores - alibiSlopes.view({1, heads, 1, 1, 1}) * distance.abs().to(q.dtype()).view({1, 1, 1, c, span});
    scores = scores.masked_fill(visible.logical_not(), -1e9).view({batch, heads, padded, span}); // exp underflows to 0

    // The global keys, seen by every query: [B, H, T', G].
    const auto position = torch::arange(padded, longs);
    torch::Tensor globalRel;
    if (globals > 0) {
        const auto globalKeys = k.narrow(2, 0, globals);
        auto toGlobal = torch::matmul(queries, globalKeys.transpose(-2, -1));
        const auto globalDistance = torch::arange(globals, longs).unsqueeze(0) - position.unsqueeze(1); // [T', G]: j - i
        if (relKeys.defined() || relValues.defined())
            globalRel = (globalDistance.clamp(-rprClip, rprClip) + rprClip).expand({batch, heads, padded, globals});
        if (relKeys.defined())
            toGlobal = toGlobal + queryRel.gather(3, globalRel);
        toGlobal = toGlobal / std::sqrt(static_cast<double>(headSize));
        if (alibiSlopes.defined())
            toGlobal = toGlobal - alibiSlopes.view({1, heads, 1, 1}) * globalDistance.abs().to(q.dtype()).view({1, 1, padded, globals});
        auto seen = mask.narrow(1, 0, globals).view({batch, 1, 1, globals});
        if (settings.causal)
            seen = seen.logical_and(globalDistance.le(0).view({1, 1, padded, globals}));
        scores = torch::cat({toGlobal.masked_fill(seen.logical_not(), -1e9), scores}, 3);
    }
    const auto all = torch::softmax(scores, -1); // eq. 3.5 over each query's G + span keys
    const auto bandWeights = all.narrow(3, globals, span);
    auto output = BatchedMatmul::apply(bandWeights.view({batch, heads, chunks, c, span}), chunkValues).view({batch, heads, padded, headSize});
    torch::Tensor perRow;
    if (relValues.defined()) // eq. 3.9: + sum_j alpha_ij a^V_ij, the weights summed per table row
        perRow = torch::zeros({batch, heads, chunks, c, relValues.size(0)}, all.options())
                     .scatter_add(4, relIndex, bandWeights.view({batch, heads, chunks, c, span}))
                     .view({batch, heads, padded, -1});
    if (globals > 0) {
        const auto globalWeights = all.narrow(3, 0, globals);
        output = output + torch::matmul(globalWeights, v.narrow(2, 0, globals));
        if (relValues.defined())
            perRow = perRow.scatter_add(3, globalRel, globalWeights);
    }
    if (relValues.defined())
        output = output + torch::matmul(perRow, relValues);
    output = output.narrow(2, 0, length);
    const auto weights = all.narrow(2, 0, length); // [B, H, T, G + span]
    // Which key each column is: the global tokens, then n c - w + m (clamped; a column off the sequence weighs 0).
    auto keyIndex = (position.narrow(0, 0, length).div(c, "floor") * c - w).unsqueeze(1) + torch::arange(span, longs).unsqueeze(0);
    keyIndex = keyIndex.clamp(0, length - 1);
    if (globals > 0)
        keyIndex = torch::cat({torch::arange(globals, longs).unsqueeze(0).expand({length, globals}), keyIndex}, 1);
    Result r{output, weights, keyIndex, {}};
    if (globals == 0)
        return r;

    // The global queries attend to the whole sequence: G full rows, O(G T).
    const auto globalQueries = q.narrow(2, 0, globals); // [B, H, G, dh]
    auto globalScores = torch::matmul(globalQueries, k.transpose(-2, -1)); // [B, H, G, T]
    const auto rowDistance = torch::arange(length, longs).unsqueeze(0) - torch::arange(globals, longs).unsqueeze(1); // [G, T]: j - i
    torch::Tensor rowRel;
    if (relKeys.defined() || relValues.defined())
        rowRel = (rowDistance.clamp(-rprClip, rprClip) + rprClip).expand({batch, heads, globals, length});
    if (relKeys.defined())
        globalScores = globalScores + torch::matmul(globalQueries, relKeys.t()).gather(3, rowRel);
    globalScores = globalScores / std::sqrt(static_cast<double>(headSize));
    if (alibiSlopes.defined())
        globalScores = globalScores - alibiSlopes.view({1, heads, 1, 1}) *
                                          rowDistance.abs().to(q.dtype()).view({1, 1, globals, length});
    auto globalVisible = mask.view({batch, 1, 1, length});
    if (settings.causal)
        globalVisible = globalVisible.logical_and(rowDistance.le(0).view({1, 1, globals, length}));
    globalScores = globalScores.masked_fill(globalVisible.logical_not(), -1e9);
    const auto rowWeights = torch::softmax(globalScores, -1);
    auto globalOutput = torch::matmul(rowWeights, v);
    if (relValues.defined()) {
        const auto rowPerRow = torch::zeros({batch, heads, globals, relValues.size(0)}, rowWeights.options())
                                   .scatter_add(3, rowRel, rowWeights);
        globalOutput = globalOutput + torch::matmul(rowPerRow, relValues);
    }
    r.output = torch::cat({globalOutput, output.narrow(2, globals, length - globals)}, 2);
    r.globalWeights = rowWeights;
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
