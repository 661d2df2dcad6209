#pragma once
#include <string>
#include <vector>

namespace attnlab {

// What a language model wrote (`attnlab-cli generate`, the writing explorer, each evaluation's sample): the
// prompt's and the new tokens, and for every new token its probability, the likeliest alternatives at that step
// (after temperature, before top-k / top-p: what the model itself thought) and its attention over the context
// per layer and head (each row sums to 1 over the tokens before it and itself; nothing on later ones).
struct GeneratedText {
    struct Alternative {
        std::string token;
        double probability = 0.0;
    };
    struct Step {
        std::string token;
        int id = 0;                             // in the model's vocabulary
        double probability = 0.0;               // of the chosen token, in the distribution it was drawn from (a beam's: the model's)
        std::vector<Alternative> alternatives;  // likeliest first
        // The same many likeliest of the distribution the token was drawn from (after temperature, top-k, top-p);
        // probability 0 for the tokens those cut away.
        std::vector<Alternative> sampled;
        // [layer * heads + head] -> weights over the context (its first token first); empty without attention
        std::vector<std::vector<float>> attention;
        int contextStart = 0;                   // index (in prompt + generated tokens) of the context's first token
    };
    std::vector<std::string> promptTokens;
    std::vector<Step> steps;
    std::string prompt, text; // text: the new tokens joined (the prompt not repeated)
    int layers = 0, heads = 0;
    double temperature = 1.0, topP = 1.0;
    int topK = 0;
    bool greedy = false;
    unsigned long long seed = 1;
    int beam = 0;                // > 0: one of a beam search's hypotheses (its width), not a drawn text
    double logProbability = 0.0; // beam: the sum of its tokens' log-probabilities, what the beam ranks by
    double seconds = 0.0; // the model's reading of the prompt and writing, keeping what was asked for (not start-up)

    std::string toJson() const;
};

} // namespace attnlab
