// The user's own classification CSV/TSV (csv-text) through DatasetCatalog::load, with every option the
// CLI and the GUI can set: delimiter, header, quoting, text and label columns, tokeniser, lowercase, split
// fractions, and one file split by fractions or one file per split (the body's parts).
#include "core/data/DatasetCatalog.h"
#include "fuzz/support/CleanFailure.h"
#include "fuzz/support/FuzzInput.h"
#include "fuzz/support/ScratchFolder.h"

#include <utility>
#include <vector>

using namespace attnlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const fuzz::FuzzInput in(data, size, 8);
    const auto& scratch = fuzz::ScratchFolder::instance();
    DatasetOptions o;
    o.delimiter = in.pick<char>(0, {0, ',', '\t', ';', '|'});
    o.header = in.pick<int>(1, {-1, 0, 1});
    o.quoting = in.pick<std::string>(2, {"auto", "on", "off"});
    o.textColumn = in.pick<std::string>(3, {"", "1", "2", "text", "0", "99"});
    o.labelColumn = in.pick<std::string>(4, {"", "1", "2", "label", "3"});
    o.tokenizer = in.pick<std::string>(5, {"ptb", "whitespace", "tweet"});
    o.lowercase = in.choice(6, 2) == 1;
    const auto fractions = in.pick<std::pair<double, double>>(7, {{0.7, 0.15}, {0.34, 0.33}, {0.9, 0.05}, {1.0, 0.0}});
    o.trainFraction = fractions.first;
    o.devFraction = fractions.second;
    if (in.partCount() >= 3) {
        o.trainFile = scratch.write("train.csv", in.part(0));
        o.devFile = scratch.write("dev.csv", in.part(1));
        o.testFile = scratch.write("test.csv", in.part(2));
    } else {
        o.file = scratch.write("data.csv", in.body());
    }
    fuzz::CleanFailure::expect([&] { DatasetCatalog::load("csv-text", o); });
    return 0;
}
