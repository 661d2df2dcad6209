#pragma once
#include <string>
#include <vector>

namespace attnlab {

// One head's attention for one query, computed step by step as every deck writes it,
// softmax(q k^T / sqrt(d_k) + position + mask) V (Vaswani et al. 2017 eq. 1; thesis eq. 3.1-3.5, RPR 3.6-3.10):
// the query token's input vector, its q, every k_j and v_j, each dot product q . k_j, the position term (RPR's
// q . a^K_ij, or ALiBi's -m_h |i - j|), the division by sqrt(d_k), the keys the mask hides (padding, later tokens),
// the softmax weights, and what leaves the head, sum_j w_j v_j (+ sum_j w_j a^V_ij with RPR), before W^O.
// Cross-attention (a translation decoder's) is the same arithmetic with queries from the target and keys and values
// from the source: queryTokens then names the queries, tokens the keys.
struct AttentionStepByStep {
    int layer = 0, head = 0, query = 0;
    std::string part;                       // a translation model's: "encoder", "decoder" or "cross"; else ""
    std::vector<std::string> queryTokens;   // cross-attention's queries (the target's rows); empty: the queries are tokens
    int headSize = 0;
    int kvHead = -1; // grouped-query attention: the key/value head this query head shares; -1: its own
    std::string position;                   // the layer's position technique ("rpr", "rope", "alibi", ...)
    bool scaled = true;                     // false: the scores were not divided (the lesson's switch)
    bool uniform = false;                   // every weight 1/n: no q, no k, no scores
    std::vector<std::string> tokens;        // the keys, in order
    std::vector<float> input;               // the layer's input at the query [d_in]
    std::vector<float> q;                   // [d_k] (after RoPE where it applies)
    std::vector<std::vector<float>> keys;   // [T][d_k]
    std::vector<std::vector<float>> values; // [T][d_k]
    std::vector<float> dot;                 // q . k_j
    std::vector<float> positionTerm;        // RPR: q . a^K_ij (before the division); ALiBi: -m_h |i - j| (after); else 0
    double divisor = 1.0;                   // sqrt(d_k), or 1 when not scaled
    std::vector<float> scores;              // (dot + RPR) / divisor + ALiBi; the masked keys' as computed
    std::vector<bool> masked;               // keys the query may not see
    std::vector<float> weights;             // softmax over the unmasked scores (0 on the masked keys)
    std::vector<float> output;              // [d_k]
    std::vector<float> modelWeights;        // the row the model's own forward pass computed, to compare

    std::string toJson() const;
};

} // namespace attnlab
