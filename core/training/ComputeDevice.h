#pragma once
#include <string>

namespace attnlab {

// Device choice and runtime facts, without exposing torch.
class ComputeDevice {
public:
    static bool cudaAvailable();
    // "auto" -> "cuda" when available else "cpu"; "cuda" without CUDA throws std::invalid_argument.
    static std::string resolve(const std::string& requested);
    // Human-readable: "cpu (2 threads)" or "cuda:0 (NVIDIA H100 ...)".
    static std::string describe(const std::string& device);
    static std::string torchVersion();
    // Intra-op threads of the calling thread (OpenMP builds: each training thread keeps its own count, so
    // runs sharing a process each get a share); 0 means one per available core (Debian's LibTorch starts
    // with one; docs/ARCHITECTURE.md, Build).
    static void setThreads(int threads);
    static int threads(); // the calling thread's intra-op threads
};

} // namespace attnlab
