// A sweep spec (`attnlab-cli sweep SPEC.json`): SweepSpec::parse, then its canonical form read back.
#include "core/sweep/SweepSpec.h"
#include "fuzz/support/CleanFailure.h"

#include <cstdint>
#include <string>

using namespace attnlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    fuzz::CleanFailure::expect([&] {
        const auto spec = SweepSpec::parse(text, "fuzz-sweep.json");
        const std::string canonical = spec.toJson();
        if (SweepSpec::parse(canonical, "canonical").toJson() != canonical)
            __builtin_trap();
    });
    return 0;
}
