// A run database opened on arbitrary bytes (File > Open run database, --db FILE, runs import FILE.sqlite):
// RunStore opens it (migrating or refusing), the run list, a run's curves, attention and details are read
// as the window reads them, and another store imports it (option 0).
#include "core/store/RunExport.h"
#include "core/store/RunStore.h"
#include "fuzz/support/CleanFailure.h"
#include "fuzz/support/FuzzInput.h"
#include "fuzz/support/ScratchFolder.h"

using namespace attnlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const fuzz::FuzzInput in(data, size, 1);
    const auto& scratch = fuzz::ScratchFolder::instance();
    scratch.clear();
    const auto path = scratch.write("runs.sqlite", in.body());
    fuzz::CleanFailure::expect([&] {
        if (in.choice(0, 2) == 1) {
            RunStore target(scratch.file("target.sqlite"));
            RunExport(target).importFrom(path);
            (void)target.listRuns();
            return;
        }
        RunStore store(path, 0);
        const auto runs = store.listRuns();
        for (const auto& run : runs) {
            (void)store.metrics(run.id);
            (void)store.latestAttention(run.id);
            (void)store.characteristics(run.id);
            (void)store.checkpoints(run.id);
            (void)store.bundle(run.id);
            (void)run.summary();
        }
        (void)RunStore::aggregatesOf(runs);
        (void)RunExport(store).toJson();
    });
    return 0;
}
