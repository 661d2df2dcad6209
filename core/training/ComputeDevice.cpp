#include "core/training/ComputeDevice.h"

#include <ATen/Parallel.h>
#include <torch/torch.h>

#include <dlfcn.h>

#include <stdexcept>
#include <thread>

namespace attnlab {
namespace {

// The GPU's marketing name through the CUDA driver API, loaded at run time: LibTorch 1.13's C++ API
// has no device-name call that builds without the CUDA toolkit headers, and CPU builds must compile.
std::string cudaDeviceName(int index)
{
    void* driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (!driver)
        return "unknown GPU";
    using InitFn = int (*)(unsigned);
    using GetFn = int (*)(int*, int);
    using NameFn = int (*)(char*, int, int);
    auto init = reinterpret_cast<InitFn>(dlsym(driver, "cuInit"));
    auto get = reinterpret_cast<GetFn>(dlsym(driver, "cuDeviceGet"));
    auto name = reinterpret_cast<NameFn>(dlsym(driver, "cuDeviceGetName"));
    std::string result = "unknown GPU";
    int device = 0;
    char buffer[256] = {0};
    if (init && get && name && init(0) == 0 && get(&device, index) == 0 && name(buffer, sizeof buffer, device) == 0)
        result = buffer;
    dlclose(driver);
    return result;
}

} // namespace

bool ComputeDevice::cudaAvailable()
{
    return torch::cuda::is_available();
}

std::string ComputeDevice::resolve(const std::string& requested)
{
    if (requested == "auto")
        return cudaAvailable() ? "cuda" : "cpu";
    if (requested == "cpu")
        return "cpu";
    if (requested == "cuda") {
        if (!cudaAvailable())
            throw std::invalid_argument("device: cuda was requested but this LibTorch build or machine has no CUDA device");
        return "cuda";
    }
    throw std::invalid_argument("device: unknown '" + requested + "' (known: auto, cpu, cuda)");
}

std::string ComputeDevice::describe(const std::string& device)
{
    if (device == "cuda")
        return "cuda:0 (" + cudaDeviceName(0) + ")";
    return "cpu (" + std::to_string(torch::get_num_threads()) + " threads)";
}

std::string ComputeDevice::torchVersion()
{
    return std::to_string(TORCH_VERSION_MAJOR) + "." + std::to_string(TORCH_VERSION_MINOR) + "." +
           std::to_string(TORCH_VERSION_PATCH);
}

void ComputeDevice::setThreads(int threads)
{
    const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    // With OpenMP the count is per calling thread, but a thread's first parallel op re-applies the count
    // the process set last (LibTorch's lazy per-thread init): a run that set 1 thread then trained with
    // the 2 another run had set since (measured: two trainings in one process, issue 11). Doing that
    // init first makes this thread's own count stick.
    at::internal::lazy_init_num_threads();
    torch::set_num_threads(threads > 0 ? threads : cores);
}

int ComputeDevice::threads()
{
    return torch::get_num_threads();
}

} // namespace attnlab
