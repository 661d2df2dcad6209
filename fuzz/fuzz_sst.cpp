// SST PTB trees (sst-fine, sst-binary): train.txt, dev.txt, test.txt read through DatasetCatalog::load,
// as the app reads a data folder. Options: binary, phrase level, lowercase, rebalancing.
#include "core/data/DatasetCatalog.h"
#include "fuzz/support/CleanFailure.h"
#include "fuzz/support/FuzzInput.h"
#include "fuzz/support/ScratchFolder.h"

using namespace attnlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const fuzz::FuzzInput in(data, size, 4);
    const auto& scratch = fuzz::ScratchFolder::instance();
    scratch.write("sentiment/sst/train.txt", in.part(0));
    scratch.write("sentiment/sst/dev.txt", in.part(1));
    scratch.write("sentiment/sst/test.txt", in.part(2));
    DatasetOptions options;
    options.dataDir = scratch.path();
    options.phrases = in.choice(1, 2) == 1;
    options.lowercase = in.choice(2, 2) == 1;
    options.rebalance = in.choice(3, 2) == 0;
    const std::string id = in.choice(0, 2) ? "sst-binary" : "sst-fine";
    fuzz::CleanFailure::expect([&] { DatasetCatalog::load(id, options); });
    return 0;
}
