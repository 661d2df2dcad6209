#pragma once
#include "core/config/SamplingSettings.h"

#include <set>

namespace attnlab {

class CliFlags;

// The flags that say how tokens are drawn (`generate`, and `translate` when a translation is to be drawn rather
// than decoded): --temperature, --top-k, --top-p, --seed, and --greedy / --tokens where the command has them.
// SamplingSettings' bounds, each refusal named by its flag.
class SamplingFlags {
public:
    static const std::set<std::string>& valued(); // --temperature --top-k --top-p --seed
    static bool any(const CliFlags& flags);       // one of valued() given
    // The settings from the flags given, the defaults' elsewhere; throws CliUsageError naming the flag.
    static SamplingSettings read(const CliFlags& flags, SamplingSettings defaults = {});
};

} // namespace attnlab
