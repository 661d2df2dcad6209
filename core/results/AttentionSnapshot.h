#pragma once
#include <string>
#include <utility>
#include <vector>

namespace attnlab {

// Attention weights of one layer and head: rows are queries, columns keys, row-major.
struct AttentionMap {
    int layer = 0;
    int head = 0;
    int size = 0; // rows (queries)
    std::vector<float> weights;
    int columns = 0; // keys, where they differ from the rows (cross-attention: target rows x source columns); 0 = size
    int width() const { return columns > 0 ? columns : size; }
    float at(int query, int key) const { return weights[static_cast<std::size_t>(query) * width() + key]; }
};

// The probe input's attention at one evaluation step: a sentence's tokens, or a window's time steps.
struct AttentionSnapshot {
    int step = 0; // -1: not a training step (a pretrained model's maps)
    std::vector<std::string> tokens;
    std::vector<AttentionMap> maps; // self-attention, per layer and head (tokens x tokens)
    // Weights over the tokens with which the model pools them into one vector: ESSAN's AttnSeqRep,
    // attention pooling, a time-series model's temporal attention. Empty when the model has none.
    std::vector<float> pooling;
    std::string poolingName;        // what the pooling weights are, for a title ("AttnSeqRep", ...)
    // DA-RNN's input attention: per time step (rows, = tokens) its weights over the driving series.
    std::vector<std::string> features;
    std::vector<float> inputAttention; // tokens.size() x features.size(), row-major
    // A text model's class probabilities for the probe input at this step (its prediction then), with
    // the class names; empty for snapshots stored before they were kept, and for time series.
    std::vector<std::string> classes;
    std::vector<float> probabilities;
    // A time-series window: the "tokens" are its time steps (t-9 ... t-0), which views must call so.
    bool series = false;
    // Synthetic series only: the driver (index into features) and lag the target really depends on, so a
    // view can say how much attention lands on the known answer; -1 elsewhere.
    int trueDriver = -1, trueLag = -1;
    // Which probe input of the run (0: the dataset's probe sentence, shown while training; then the
    // TrainConfig's probes or a few dev examples, one per class) and what it is, for a selector.
    int probe = 0;
    std::string probeLabel;
    // Translation: `tokens` are the source's, these the target's (the reference, <eos> last) with
    // the encoder-decoder attention per layer and head (targetTokens x tokens: each row the target token's
    // distribution over the source) and, for the Transformer, the decoder's causal self-attention
    // (targetTokens x targetTokens); `maps` then holds the encoder's self-attention. `translation` is what the
    // model itself made of the source at this step (greedy).
    std::vector<std::string> targetTokens;
    std::vector<AttentionMap> crossMaps;
    std::vector<AttentionMap> decoderMaps;
    std::string translation;
    // The probe pair's gold alignment where the dataset has one (the synthetic tasks): (source, target) index pairs.
    std::vector<std::pair<int, int>> goldAlignment;

    // Language models: what the model wrote at this step from the dataset's prompt with the run's seed (prompt
    // included); `tokens` are its first ones, `maps` the causal self-attention over them.
    std::string sample;

    bool empty() const { return maps.empty() && pooling.empty() && inputAttention.empty() && crossMaps.empty() && sample.empty(); }

    std::string toJson() const;
    static AttentionSnapshot fromJson(const std::string& json);
};

} // namespace attnlab
