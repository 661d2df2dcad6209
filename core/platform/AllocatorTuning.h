#pragma once
#include <string>

namespace attnlab {

// glibc malloc settings for a process that trains. A training step allocates and frees the same large
// tensors every step (attention scores, RPR intermediates: tens of MiB at d_model 300): above glibc's mmap
// threshold each is a fresh mmap, unmapped when freed, and the heap's top is trimmed back to the system,
// so every step faults its memory in again (1.2 M page faults and a quarter of the CPU in the kernel for
// 100 SSAN+RPR steps; docs/BENCHMARKS.md). Raising both thresholds keeps that memory in the process for
// the next step; peak memory stays the same. Measured against jemalloc and tcmalloc (LD_PRELOAD): jemalloc
// faulted more, tcmalloc equalled this without a new dependency.
class AllocatorTuning {
public:
    static constexpr int kMmapThresholdBytes = 1 << 30; // allocations below 1 GiB come from the heap
    static constexpr int kTrimThresholdBytes = 256 << 20; // free memory kept at the heap's top

    // Applies the settings once, at start-up, in a process the engine owns (attnlab-cli, attnlab). Leaves
    // malloc alone where the user tuned it (MALLOC_*_ environment variables, GLIBC_TUNABLES), where
    // ATTNLAB_MALLOC=default asks for glibc's defaults (to measure), and off glibc. Returns what it did,
    // in words, for --version and the run's environment.
    static std::string applyForTraining();
    // What the last applyForTraining() said; "glibc defaults" before it ran.
    static const std::string& state();
};

} // namespace attnlab
