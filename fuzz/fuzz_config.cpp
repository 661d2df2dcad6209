// A --config FILE.json (TrainPreset::parse, which TrainPreset::fromFile and the compiled-in presets use),
// then what train does with it: validate(), and the configuration stored with the run read back.
#include "core/config/TrainPreset.h"
#include "fuzz/support/CleanFailure.h"

#include <cstdint>
#include <string>

using namespace attnlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    fuzz::CleanFailure::expect([&] {
        const auto preset = TrainPreset::parse(text, "fuzz.json");
        (void)preset.config.validate();
        // What is stored is read back the same (a run's config_json feeds group keys and `runs show`).
        const std::string stored = preset.config.toJson();
        if (TrainConfig::fromJson(stored).toJson() != stored)
            __builtin_trap();
    });
    return 0;
}
