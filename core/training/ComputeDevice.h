#pragma once
#include "core/training/GpuDevice.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace attnlab {

// Device choice and runtime facts, without exposing torch. Device names are LibTorch's: "cpu", "cuda:N".
class ComputeDevice {
public:
    // This LibTorch was built with CUDA (its CUDA backend is linked), whether or not a device is present.
    static bool cudaBuilt();
    static bool cudaAvailable(); // built, and at least one device usable
    static int cudaDeviceCount();
    // The CUDA devices, named and sized by the driver; empty without CUDA.
    static std::vector<GpuDevice> gpus();
    // The setting as a device: "auto" -> "cuda:0" when a device is usable, else "cpu"; "cuda" -> "cuda:0";
    // "cuda:N" checked against the devices present. Throws std::invalid_argument naming what is wrong.
    static std::string resolve(const std::string& requested);
    // Human-readable, stored with each run: "cpu (2 threads)" or
    // "cuda:0 (NVIDIA H100 80GB HBM3, 79.2 GiB; driver 13.0, CUDA 13.0, cuDNN 9.19.0)".
    static std::string describe(const std::string& device);
    static std::string torchVersion();
    // What a run stores about where it ran: "torch_build", and for a CUDA device "gpu_name", "gpu_memory_mib",
    // "gpu_capability", "cuda_driver", "cuda_runtime", "cudnn".
    static std::map<std::string, std::string> environment(const std::string& device);
    // The build in one phrase for --version: "LibTorch 2.11.0, MKL + oneDNN, CUDA 13.0 built, no device".
    static std::string buildDescription();
    // CUDA and cuDNN versions this LibTorch was built with ("13.0", "9.19.0"), "" where none.
    static std::string cudaVersion();
    static std::string cudnnVersion();
    static std::string driverVersion(); // the installed driver's CUDA version ("13.0"), "" without a driver
    // Bytes the caching allocator holds for tensors on a CUDA device now; nullopt on the CPU or where this
    // LibTorch cannot say. For the status bar while training.
    static std::optional<std::int64_t> memoryInUse(const std::string& device);
    // (free, total) bytes of a CUDA device; nullopt where unknown.
    static std::optional<std::pair<std::int64_t, std::int64_t>> memoryInfo(const std::string& device);
    // The share (0, 1] of a CUDA device's memory this process may take, as PyTorch's
    // torch.cuda.set_per_process_memory_fraction: past it an allocation fails as out of memory. For sharing a
    // GPU, and for the test that a run out of memory fails cleanly on a GPU of any size. False where this
    // LibTorch has no CUDA backend or the device is not a CUDA one.
    static bool limitMemory(const std::string& device, double fraction);
    // Intra-op threads of the calling thread (OpenMP builds: each training thread keeps its own count, so
    // runs sharing a process each get a share); 0 means one per available core (Debian's LibTorch starts
    // with one; docs/ARCHITECTURE.md, Build).
    static void setThreads(int threads);
    static int threads(); // the calling thread's intra-op threads
    // "cuda:3" -> 3; "cpu" -> -1.
    static int cudaIndex(const std::string& device);
};

} // namespace attnlab
