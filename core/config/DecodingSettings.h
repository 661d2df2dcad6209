#pragma once
#include <string>

namespace attnlab {

// How a translation is decoded: the beam's width K and GNMT's length penalty alpha (Wu et al. 2016: a
// hypothesis scores log P / ((5 + |Y|) / 6)^alpha). The one statement of their bounds, read by the run's
// configuration (beam_size, length_penalty), `translate`'s flags, the designer's spin boxes and the alignment
// explorer, so none of them accepts what another refuses.
struct DecodingSettings {
    static constexpr int kMinBeam = 1;              // greedy
    static constexpr int kMaxBeam = 64;             // K hypotheses a sentence, each a decoder state
    static constexpr double kMaxLengthPenalty = 5.0; // GNMT tuned alpha in [0.6, 1]; 5 already favours the longest

    // "" when usable, else a message that begins with the key it is about ("beam_size: ...", "length_penalty:
    // ..."), for ConfigFlags::inFlagTerms and the window to name their own field. Not a number, or infinite,
    // is refused.
    static std::string beamProblem(int beamSize);
    static std::string lengthPenaltyProblem(double alpha);
};

} // namespace attnlab
