// A pretrained language model's file (llama.cpp's GGUF): GgufFile opens it as PretrainedLanguageModel does
// (mapped; every header check), LlamaConfig reads its sizes, and every tensor of a type the reader dequantizes is
// widened to float32 as the model's load does. The body is the whole file.
#include "core/data/pretrained/GgufFile.h"
#include "core/data/pretrained/LlamaConfig.h"
#include "fuzz/support/CleanFailure.h"
#include "fuzz/support/FuzzInput.h"
#include "fuzz/support/ScratchFolder.h"

#include <cstdint>
#include <vector>

using namespace attnlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const fuzz::FuzzInput in(data, size, 0);
    const auto path = fuzz::ScratchFolder::instance().write("model.gguf", in.body());
    fuzz::CleanFailure::expect([&] {
        const GgufFile file(path);
        for (const auto& t : file.tensors()) {
            if (file.tensor(t.name) != &t || t.offset + t.bytes > file.fileSize() - file.dataStart())
                __builtin_trap(); // a tensor opened must be found by name and lie inside the file
            if (GgufFile::canDequantize(t.type) && t.elements() <= (1 << 20)) {
                std::vector<float> values(static_cast<std::size_t>(t.elements()));
                file.dequantize(t, values.data());
            }
        }
        fuzz::CleanFailure::expect([&] { (void)LlamaConfig::fromGguf(file); });
    });
    return 0;
}
