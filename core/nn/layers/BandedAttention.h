#pragma once
// PRIVATE engine header: includes LibTorch.
#include <torch/torch.h>

namespace attnlab {

// Sliding-window (local) self-attention with optional global tokens, as Longformer (Beltagy et al. 2020) and
// BigBird (Zaheer et al. 2020) make attention linear in the length: query i attends to the keys within `window`
// positions of it (causal: the window before it), and to the first `globalTokens` positions, which in turn attend to
// every position. Computed banded, as Longformer's sliding chunks: the queries in chunks of c = max(w, 16), each chunk
// against the c + 2w keys its queries' bands cover (causal: c + w) in one small dense product, plus the G global keys;
// time and memory grow as T (G + c + 2w), not as T^2 - it is never a full [T, T] score matrix with a mask, except for
// a sentence no longer than c + 2w, where that matrix is the smaller of the two. The scores, position terms
// (RPR of Shaw et al. on the band's distances, ALiBi's -m|j - i|, RoPE applied to q and k before), scaling and padding
// mask are those of SelfAttentionImpl::attend, so inside the band the weights equal full attention's with a band mask.
class BandedAttention {
public:
    struct Settings {
        int window = 1;       // w: keys i - w .. i + w (causal: i - w .. i)
        int globalTokens = 0; // G: positions 0 .. G-1 see everything and are seen by everyone
        bool causal = false;
    };
    struct Result {
        torch::Tensor output;        // [B, H, T, dh]
        torch::Tensor weights;       // [B, H, T, M]: query i's weight on key keyIndex[i][m] (0 where that key is not its)
        torch::Tensor keyIndex;      // [T, M] long, M = G + span: the global tokens, then its chunk's span (clamped to the
                                     // sequence); for a sentence no longer than the span, M = T and row i is 0 .. T-1
        torch::Tensor globalWeights; // [B, H, G, T]: the global queries' whole rows; undefined when G = 0
    };

    // q, k, v: [B, H, T, dh]; mask: [B, T] bool (true = a real token); relKeys/relValues: [2k+1, dh] or undefined;
    // alibiSlopes: [H] or undefined.
    static Result attend(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v, const torch::Tensor& mask,
                         const Settings& settings, const torch::Tensor& relKeys, const torch::Tensor& relValues, int rprClip,
                         const torch::Tensor& alibiSlopes = {});
    // The weights as a full [B, H, T, T] matrix (zeros outside the band): what a heatmap shows. Quadratic, so only for
    // showing, never on the training path.
    static torch::Tensor dense(const torch::Tensor& weights, const torch::Tensor& keyIndex, const torch::Tensor& globalWeights);
    // [T, T] bool: which keys query i may see - the band mask that full attention would need for the same result.
    static torch::Tensor bandMask(int64_t length, const Settings& settings, const torch::Device& device);
};

} // namespace attnlab
