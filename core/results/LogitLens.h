#pragma once
#include <string>
#include <vector>

namespace attnlab {

// The logit lens (nostalgebraist 2020; TransformerLens's accumulated residual): at every position of a text, the
// residual stream read out after each layer as the model reads out its last one (the final norm, then the output
// matrix), so one sees at which layer a prediction forms. Stage 0 is the token embedding itself, stage l the stream
// after layer l; the last stage is the model's own prediction.
struct LogitLens {
    struct Guess {
        std::string token; // the piece's text
        int id = 0;
        double probability = 0.0;
    };
    std::vector<std::string> tokens; // the text's pieces
    std::vector<std::string> stages; // "embedding", "layer 1", ..., "layer L"
    std::vector<std::vector<std::vector<Guess>>> top; // [stage][position] the likeliest next tokens, best first
    // [stage][position]: the probability of the piece that follows in the text (none after the last: -1)
    std::vector<std::vector<double>> nextProbability;

    std::string toJson() const;
};

} // namespace attnlab
