// A pretrained model's weights (model.safetensors): SafetensorsFile opens it as PretrainedEncoder
// does (mapped; every header check), then every floating-point tensor is read as the encoder's load reads it.
// The body is the whole file.
#include "core/data/pretrained/SafetensorsFile.h"
#include "fuzz/support/CleanFailure.h"
#include "fuzz/support/FuzzInput.h"
#include "fuzz/support/ScratchFolder.h"

#include <cstdint>

using namespace attnlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const fuzz::FuzzInput in(data, size, 0);
    const auto path = fuzz::ScratchFolder::instance().write("model.safetensors", in.body());
    fuzz::CleanFailure::expect([&] {
        const SafetensorsFile file(path);
        std::size_t end = 0;
        for (const auto& e : file.entries()) {
            if (e.begin != end || e.end < e.begin || file.find(e.name) == nullptr)
                __builtin_trap(); // entries opened must tile the data and be found by name
            end = e.end;
            if (e.dtype == "F32" || e.dtype == "F16" || e.dtype == "BF16" || e.dtype == "F64") {
                const auto values = file.floats(e.name);
                if (static_cast<std::int64_t>(values.size()) != e.elements())
                    __builtin_trap();
            }
        }
    });
    return 0;
}
