// A dataset manifest (datasets/*.json): DatasetManifest::parse and what the installer asks of one.
#include "core/data/install/DatasetManifest.h"
#include "fuzz/support/CleanFailure.h"

#include <cstdint>
#include <string>

using namespace attnlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    fuzz::CleanFailure::expect([&] {
        const auto manifest = DatasetManifest::parse(text, "fuzz-manifest.json");
        (void)manifest.totalBytes();
        for (const auto& file : manifest.files)
            (void)manifest.relativePath(file);
    });
    return 0;
}
