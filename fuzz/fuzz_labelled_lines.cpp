// One file per split and class (OpeNER: 4 classes, whitespace tokens; SenTube: 2 classes, PTB tokeniser),
// read through DatasetCatalog::load. The body's parts fill train/<class>.txt, then dev/, then test/.
#include "core/data/DatasetCatalog.h"
#include "fuzz/support/CleanFailure.h"
#include "fuzz/support/FuzzInput.h"
#include "fuzz/support/ScratchFolder.h"

#include <vector>

using namespace attnlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const fuzz::FuzzInput in(data, size, 2);
    const auto& scratch = fuzz::ScratchFolder::instance();
    const bool opener = in.choice(0, 2) == 0;
    const std::string folder = opener ? "sentiment/opener/" : "sentiment/sentube_auto/";
    const std::vector<std::string> classes = opener ? std::vector<std::string>{"strneg", "neg", "pos", "strpos"}
                                                    : std::vector<std::string>{"neg", "pos"};
    std::size_t k = 0;
    for (const char* split : {"train", "dev", "test"})
        for (const auto& c : classes)
            scratch.write(folder + split + "/" + c + ".txt", in.part(k++));
    DatasetOptions options;
    options.dataDir = scratch.path();
    options.lowercase = in.choice(1, 2) == 1;
    fuzz::CleanFailure::expect([&] { DatasetCatalog::load(opener ? "opener" : "sentube-auto", options); });
    return 0;
}
