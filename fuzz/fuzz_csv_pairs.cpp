// The user's own sentence pairs (csv-pairs) through DatasetCatalog::loadTranslation, with every
// option a run can set: a CSV/TSV (delimiter, header, quoting, source and target column, one file split by
// fractions or one file per split) or two files of parallel lines (split by fractions, or a pair of files per
// split; raw or gzip-compressed by the harness, as Multi30k's are), tokenizer, lowercase, the length cap.
// Option 9 picks CSV or line files; the body's parts are the files (CSV: 1 or 3; lines: 2 or 6). A load that
// succeeds must hold what the reader promises: no side of a pair empty, no training pair over the cap,
// every split non-empty.
#include "core/data/DatasetCatalog.h"
#include "fuzz/support/CleanFailure.h"
#include "fuzz/support/FuzzInput.h"
#include "fuzz/support/Gzipped.h"
#include "fuzz/support/ScratchFolder.h"


#include <utility>
#include <vector>

using namespace attnlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const fuzz::FuzzInput in(data, size, 11);
    const auto& scratch = fuzz::ScratchFolder::instance();
    DatasetOptions o;
    o.delimiter = in.pick<char>(0, {0, ',', '\t', ';', '|'});
    o.header = in.pick<int>(1, {-1, 0, 1});
    o.quoting = in.pick<std::string>(2, {"auto", "on", "off"});
    o.sourceColumn = in.pick<std::string>(3, {"", "1", "2", "de", "0", "99"});
    o.targetColumn = in.pick<std::string>(4, {"", "2", "1", "en", "3"});
    o.translationTokenizer = in.pick<std::string>(5, {"words", "whitespace", "ptb", "tweet"});
    o.lowercase = in.choice(6, 2) == 1;
    const auto fractions = in.pick<std::pair<double, double>>(7, {{0.7, 0.15}, {0.34, 0.33}, {0.9, 0.05}, {1.0, 0.0}});
    o.trainFraction = fractions.first;
    o.devFraction = fractions.second;
    o.maxPairLength = in.pick<int>(8, {0, 0, 1, 3, 8});
    const bool lineFiles = in.choice(9, 2) == 1;
    const bool gz = in.choice(10, 2) == 1;
    auto lines = [&](const std::string& name, std::size_t part) {
        return gz ? scratch.write(name + ".gz", fuzz::gzipped(in.part(part))) : scratch.write(name, in.part(part));
    };
    if (lineFiles && in.partCount() >= 6) {
        o.sourceFile = lines("train.src", 0);
        o.targetFile = lines("train.tgt", 1);
        o.devSourceFile = lines("dev.src", 2);
        o.devTargetFile = lines("dev.tgt", 3);
        o.testSourceFile = lines("test.src", 4);
        o.testTargetFile = lines("test.tgt", 5);
    } else if (lineFiles) {
        o.sourceFile = lines("all.src", 0);
        o.targetFile = lines("all.tgt", 1);
    } else if (in.partCount() >= 3) {
        o.trainFile = scratch.write("train.csv", in.part(0));
        o.devFile = scratch.write("dev.csv", in.part(1));
        o.testFile = scratch.write("test.csv", in.part(2));
    } else {
        o.file = scratch.write("pairs.csv", in.body());
    }
    fuzz::CleanFailure::expect([&] {
        const TranslationDataset d = DatasetCatalog::loadTranslation("csv-pairs", o);
        if (d.train.empty() || d.dev.empty() || d.test.empty())
            __builtin_trap();
        for (const auto* split : {&d.train, &d.dev, &d.test})
            for (const auto& p : *split)
                if (p.source.empty() || p.target.empty())
                    __builtin_trap();
        if (o.maxPairLength > 0)
            for (const auto& p : d.train)
                if (static_cast<int>(p.source.size()) > o.maxPairLength || static_cast<int>(p.target.size()) > o.maxPairLength)
                    __builtin_trap();
    });
    return 0;
}
