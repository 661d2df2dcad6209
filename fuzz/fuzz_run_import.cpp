// `runs import FILE.json` / File > Import runs: RunExport::importFrom on an exported JSON document, into a
// fresh store each time, then the imported runs read back and exported again as the app would.
#include "core/store/RunExport.h"
#include "core/store/RunStore.h"
#include "fuzz/support/CleanFailure.h"
#include "fuzz/support/FuzzInput.h"
#include "fuzz/support/ScratchFolder.h"

using namespace attnlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const auto& scratch = fuzz::ScratchFolder::instance();
    scratch.clear();
    const auto path = scratch.write("export.json", std::string(reinterpret_cast<const char*>(data), size));
    RunStore store(scratch.file("runs.sqlite"));
    RunExport exporter(store);
    fuzz::CleanFailure::expect([&] {
        exporter.importFrom(path);
        for (const auto& run : store.listRuns()) {
            (void)store.metrics(run.id);
            (void)store.latestAttention(run.id);
            (void)run.summary();
        }
        (void)store.aggregates();
        (void)exporter.toJson();
        (void)exporter.toCsv();
    });
    return 0;
}
