#pragma once
#include "cli/commands/Command.h"

namespace attnlab {

// attnlab-cli bench --lengths 16,32,...,4096: attention's price (LengthScaling). For each model family at one fixed
// size, the time of a training step and of a forward, and the peak memory, at every length, with the log-log slope of
// the times; a table per figure, or JSON. Each family is measured in a fresh process of this program (--one-process:
// all here), and stored as one run tagged "bench" and "lengths", the figures in its characteristics ("train_ms.4096").
class LengthBenchCommand : public Command {
public:
    using Command::Command;
    int run(const std::vector<std::string>& args) override; // args[0] == "bench", with --lengths
};

} // namespace attnlab
