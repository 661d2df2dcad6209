#pragma once
#include "core/results/AlignmentErrorRate.h"
#include "core/results/AttentionSnapshot.h"

#include <string>
#include <vector>

namespace attnlab {

// One hypothesis of a beam: its words, the probability of each and of the closing <eos>, its score
// (log P / lp), whether it ended by itself (false: cut at the length limit), the rank among the beam's alive
// hypotheses of the one it extended at each step (the beam's tree), and its own cross-attention: one map
// per layer and head, rows = its words then <eos>, columns = the source tokens.
struct TranslationHypothesis {
    std::vector<std::string> tokens;
    std::string text;
    std::vector<float> probabilities;
    double logProbability = 0.0;
    double score = 0.0;
    bool finished = true;
    std::vector<int> parents;
    std::vector<AttentionMap> cross;
};

// A typed sentence translated by a stored run (Translator): the source as the model reads it, the translation
// as words and as text (detokenised), each word's probability, every attention of the kept translation in one
// teacher-forced pass over it (cross-attention per layer and head, rows = target words then <eos>; for the
// Transformer also the encoder's and the decoder's self-attention), and with beam search every finished
// hypothesis, best first (the first is the translation).
struct Translation {
    std::vector<std::string> sourceTokens;
    std::vector<std::string> targetTokens; // without <bos> / <eos>
    std::string text;
    std::vector<float> probabilities;      // targetTokens.size() + 1: the last is <eos>'s
    double score = 0.0;
    std::vector<AttentionMap> cross;       // (targetTokens + <eos>) x sourceTokens
    std::vector<AttentionMap> encoderSelf; // sourceTokens x sourceTokens
    std::vector<AttentionMap> decoderSelf; // (targetTokens + <eos>) x (targetTokens + <eos>), causal
    std::vector<TranslationHypothesis> hypotheses; // beam search only
    int beamSize = 1;
    double lengthPenalty = 0.0;
    // Drawn rather than the likeliest (TranslationDecoding::sampling): the settings it was drawn with.
    bool sampled = false;
    double temperature = 1.0, topP = 1.0;
    int topK = 0;
    unsigned long long seed = 0;
    int unknownSourceTokens = 0; // source words the model's vocabulary does not have (read as <unk>)
    // Asked for (TranslationDecoding::alternatives): at each row (target word, then <eos>) the decoder's likeliest
    // next tokens, best first, given the words before it: what it chose from at that step.
    struct Alternative {
        std::string token;
        float probability = 0.0f;
    };
    std::vector<std::vector<Alternative>> alternatives;
    // Translator::force: the target was typed, not decoded; probabilities are what the model gives each typed word.
    bool forced = false;
    int unknownTargetTokens = 0; // typed target words the model's vocabulary does not have
    // The built-in sequence tasks (reverse, copy, sort): the right target and its gold alignment, and the AER of the
    // attention against it, read as training reads it (the last layer's mean over heads, each gold-linked row's
    // argmax). -1 where there is no gold, or the translation's length differs from the right one's.
    std::vector<std::string> reference;
    std::vector<AlignmentLink> gold;
    double alignmentErrorRate = -1.0;
    std::vector<double> headAlignmentErrorRates; // the same for each cross map alone (layer by layer, head by head)

    // {"translation", "source_tokens", "target_tokens", "alignment_rows" (target tokens and "<eos>"),
    //  "probabilities", "score", "beam_size", "length_penalty", "sampling" (when drawn: "temperature", "top_k",
    //  "top_p", "seed"), "cross_attention": [{"layer","head","weights":[[row]...]}],
    //  "attention": the mean over the last layer's heads, rows summing to 1, "encoder_self_attention",
    //  "decoder_self_attention", "hypotheses": [...]}
    std::string toJson() const;
};

} // namespace attnlab
