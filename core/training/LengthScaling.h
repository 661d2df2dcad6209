#pragma once
#include "core/config/ModelConfig.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace attnlab {

// Attention's price: how the time of one training step (forward, loss, backward, Adam) and of one forward, and the
// memory they take, grow with the sentence length, for each model family at one fixed size. Full self-attention is
// quadratic in the length; recurrent models, the CNN and sliding-window attention (BandedAttention) are linear. The
// inputs are random token ids, every sentence of the batch the full length: the cost does not depend on the words.
class LengthScaling {
public:
    struct Settings {
        std::vector<int> lengths = {16, 32, 64, 128, 256, 512, 1024, 2048, 4096};
        int batchSize = 2;
        int dModel = 64;
        int heads = 2;
        std::string position = "sinusoidal"; // added outside attention, so the attention's own cost is what grows
        int window = 16;                      // the sliding-window family's w, either side
        int globalTokens = 1;
        int minSteps = 3;            // timed steps per length (after one untimed warm-up), at least
        double minSeconds = 0.5;     // and at least this long in all, up to maxSteps
        int maxSteps = 50;
        std::string device = "auto";
        int threads = 0;             // intra-op threads; 0 = all cores
        std::uint64_t seed = 1;
        std::int64_t memoryLimitBytes = 0; // a length whose estimate exceeds this is skipped; 0 = what the system has
    };
    struct Family {
        std::string id;    // "transformer", "transformer-local", "lstm", ...
        std::string label; // for tables and legends
        ModelConfig config;
    };
    struct Point {
        int length = 0;
        double trainMs = 0.0;   // median of the timed training steps
        double forwardMs = 0.0; // median of the timed forwards (eval mode, no autograd)
        double peakMib = 0.0;   // the peak while training at this length over the memory before it (resident set, or the GPU allocator's)
        std::string skipped;    // why this length was not measured ("" = measured)
    };
    struct Result {
        Family family;
        std::string summary;     // the model as built
        std::int64_t parameters = 0;
        std::string device;      // e.g. "cpu (2 threads)"
        std::string memoryKind;  // what peakMib measures
        std::vector<Point> points;
        double trainSlope = 0.0;   // log-log least squares slope of trainMs over the lengths >= 512 (else the longer half)
        double forwardSlope = 0.0;
    };

    // The families at the settings' size: rnn, lstm, gru, bilstm, cnn, ssan, transformer, transformer-local.
    static std::vector<Family> families(const Settings& settings);
    // Empty when the settings can be measured, else what is wrong, naming the setting.
    static std::string problem(const Settings& settings);
    // Measures one family at every length, shortest first; after a length is skipped (over memory) the longer ones are
    // too. progress(done, total, what) after every length. cancelled() is polled between steps; when it says true the
    // points measured so far are returned.
    static Result measure(const Family& family, const Settings& settings,
                          const std::function<void(int, int, const std::string&)>& progress = {},
                          const std::function<bool()>& cancelled = {});
    // Bytes a training step of this family at this length is expected to hold at its peak (a generous estimate: for
    // full attention, the [B, H, T, T] tensors of the forward and backward; else the activations).
    static std::int64_t estimatedBytes(const Family& family, int length, const Settings& settings);
    // Least squares slope of log(y) on log(x) over the points with x >= 512 (at least two), else the longer half.
    static double logLogSlope(const std::vector<double>& x, const std::vector<double>& y);
};

} // namespace attnlab
