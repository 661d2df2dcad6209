#pragma once
#include "cli/commands/Command.h"

namespace attnlab {

// attnlab-cli translate --run N (--text "..." | --file F) [--beam K] [--length-penalty A] [--step S] [--db FILE]
// [--json]: a stored translation run's model on your sentence, decoded as the run's evaluation decoded
// unless --beam / --length-penalty say otherwise (Translator). --text: the translation, each word's probability
// and the alignment (the last cross-attention layer's mean over heads: rows = target words and <eos>, columns =
// source words); --json: everything (Translation::toJson: every layer and head, the Transformer's self-attention,
// with a beam every hypothesis and its tree). --file: one source sentence a line -> one translation a line, in
// order, an empty line for an empty line (--json: one object a line); progress on stderr. --force "its translation":
// that target scored word by word (Translator::force); --alternatives K: each step's K likeliest tokens; on the
// built-in reverse / copy / sort the right answer and the AER of the attention against its gold alignment.
// --temperature / --top-k / --top-p / --seed (SamplingFlags): each word drawn rather than the likeliest, a beam of 1.
class TranslateCommand : public Command {
public:
    using Command::Command;
    int run(const std::vector<std::string>& args) override;
};

} // namespace attnlab
