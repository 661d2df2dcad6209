#pragma once
#include "cli/commands/Command.h"

namespace attnlab {

// attnlab-cli generate --run N [--prompt TEXT] [--tokens N] [--temperature T] [--top-k K] [--top-p P] [--greedy]
// [--seed S] [--samples N | --beam K] [--alternatives K] [--step S] [--db FILE] [--json]: a stored language model writes from the prompt
// (default: its dataset's, where the run's samples started), as TextGenerator does: sampling with temperature,
// top-k and top-p, seeded and reproducible (SamplingSettings' bounds, named by flag). Text: the prompt and what
// followed; --json: GeneratedText::toJson (every token, its probability, the alternatives, its attention rows).
// --samples N: N texts written together (TextGenerator::generateSamples), separated by a line of dashes as
// nanoGPT's sample.py separates its num_samples; in JSON {"samples": [...]}. --beam K: the K likeliest texts by
// beam search (TextGenerator::beamSearch), best first, in JSON {"beams": [...]}; no sampling flag goes with it.
// With --pretrained smollm2-135m|smollm2|FILE.gguf instead of --run: the pretrained language model writes on from
// --prompt with the same sampler (--chat: the prompt as an instruction in its chat template, the reply cut at the
// end of its turn), heads knocked out with --ablate L.H,... [--ablate-mean]; --json leaves the attention out.
class CliFlags;

class GenerateCommand : public Command {
public:
    using Command::Command;
    int run(const std::vector<std::string>& args) override;

private:
    int runPretrained(const CliFlags& flags);
};

} // namespace attnlab
