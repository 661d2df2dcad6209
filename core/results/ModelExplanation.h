#pragma once
#include "core/results/AttentionSnapshot.h"
#include "core/results/GateValues.h"

#include <optional>
#include <string>
#include <vector>

namespace attnlab {

// What a saved model makes of one typed sentence (ModelExplainer::explain): the tokens it saw, its class
// probabilities and every attention map of that one forward pass.
struct ModelExplanation {
    std::string text;                     // as typed
    std::vector<std::string> tokens;      // as the model saw them: tokenised, lowercased if it was trained so
    std::vector<bool> unknown;            // per token: not in the training vocabulary (the model saw <unk>)
    // A pretrained model's word pieces: per token the index of the word it is a piece of, -1 for [CLS], [SEP]
    // and other specials (TokenGrouping merges pieces by it). Empty for models trained here (a token is a word).
    std::vector<int> pieceWords;
    int truncatedTokens = 0;              // tokens cut off at the model's max_length
    int maxLength = 0;
    std::vector<std::string> classNames;
    std::vector<double> probabilities;    // softmax of the logits, one per class
    int predicted = -1;                   // argmax; -1 for an empty input
    AttentionSnapshot attention;          // maps per layer and head, pooling weights; step = the weights' step
    std::optional<AttentionMap> rollout;  // AttentionRollout over the layers, where there are maps
    GateValues gates; // an LSTM's or GRU's gates over the tokens (not in toJson: explain --gates)
    std::string weights;                  // "best" (best dev step), "final", or "pretrained" (not trained here)
    int step = 0;                         // the training step of the weights

    int unknownCount() const;
    // One line for the user: "2 tokens not in the vocabulary: Foo, bar", "cut to 512 tokens: 30 dropped".
    std::vector<std::string> notes() const;
    std::string toJson() const;
};

} // namespace attnlab
