// SemEval-2013 tweets (train.tsv, dev.tsv, test.tsv; tweet tokeniser) through DatasetCatalog::load.
#include "core/data/DatasetCatalog.h"
#include "fuzz/support/CleanFailure.h"
#include "fuzz/support/FuzzInput.h"
#include "fuzz/support/ScratchFolder.h"

using namespace attnlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const fuzz::FuzzInput in(data, size, 1);
    const auto& scratch = fuzz::ScratchFolder::instance();
    scratch.write("sentiment/semeval/train.tsv", in.part(0));
    scratch.write("sentiment/semeval/dev.tsv", in.part(1));
    scratch.write("sentiment/semeval/test.tsv", in.part(2));
    DatasetOptions options;
    options.dataDir = scratch.path();
    options.lowercase = in.choice(0, 2) == 1;
    fuzz::CleanFailure::expect([&] { DatasetCatalog::load("semeval2013", options); });
    return 0;
}
