#include "core/training/ComputeDevice.h"

#include "core/config/DeviceSetting.h"
#include "core/nn/TorchCompat.h"
#include "core/platform/BlasLibrary.h"
#include "core/platform/OpenBlasCore.h"
#include "core/platform/SharedLibrary.h"

#include <ATen/Parallel.h>
#include <torch/torch.h>

#include <cstdio>
#include <stdexcept>
#include <thread>

namespace attnlab {
namespace {

// OpenBLAS chose its kernels as it was loaded, by a CPU model number it may not know (OpenBlasCore): chosen again
// by the CPU's features before anything computes. Every program that trains links this file (the CLI, the window,
// the tests, the benchmarks); OPENBLAS_CORETYPE, once set, carries the choice to their child processes.
const std::string kOpenBlasChoice = OpenBlasCore::useTheCpusKernels();

// The CUDA driver API, loaded at run time rather than linked: a CUDA build must start on a machine without
// a driver (it trains on the CPU there), and the binaries must not carry libcuda.so.1 as a NEEDED entry
// (tools/check-torch-link.sh). The device list, names and memory come from here, so they need no CUDA headers.
class CudaDriver {
public:
    static const CudaDriver& instance()
    {
        static const CudaDriver driver;
        return driver;
    }
    bool loaded() const { return ready_; }
    int deviceCount() const
    {
        int count = 0;
        return ready_ && getCount_(&count) == 0 ? count : 0;
    }
    GpuDevice device(int index) const
    {
        GpuDevice d;
        d.index = index;
        int handle = 0;
        char name[256] = {0};
        std::size_t bytes = 0;
        if (!ready_ || get_(&handle, index) != 0)
            return d;
        if (name_(name, sizeof name, handle) == 0)
            d.name = name;
        if (totalMem_ && totalMem_(&bytes, handle) == 0)
            d.totalBytes = static_cast<std::int64_t>(bytes);
        if (attribute_) {
            attribute_(&d.capabilityMajor, kComputeCapabilityMajor, handle);
            attribute_(&d.capabilityMinor, kComputeCapabilityMinor, handle);
        }
        return d;
    }
    int version() const // e.g. 13000 for CUDA 13.0; 0 unknown
    {
        int v = 0;
        return ready_ && driverVersion_ && driverVersion_(&v) == 0 ? v : 0;
    }

private:
    static constexpr int kComputeCapabilityMajor = 75, kComputeCapabilityMinor = 76; // CUdevice_attribute
    using InitFn = int (*)(unsigned);
    using CountFn = int (*)(int*);
    using GetFn = int (*)(int*, int);
    using NameFn = int (*)(char*, int, int);
    using TotalMemFn = int (*)(std::size_t*, int);
    using AttributeFn = int (*)(int*, int, int);
    using VersionFn = int (*)(int*);

    CudaDriver()
    {
        SharedLibrary* library = nullptr;
        try {
            // Never closed: LibTorch uses the driver too, and nothing may unload it under it at exit.
            library = new SharedLibrary("libcuda.so.1", false, true);
        } catch (const std::runtime_error&) { // no driver: the CPU only
            return;
        }
        auto init = reinterpret_cast<InitFn>(library->findSymbol("cuInit"));
        getCount_ = reinterpret_cast<CountFn>(library->findSymbol("cuDeviceGetCount"));
        get_ = reinterpret_cast<GetFn>(library->findSymbol("cuDeviceGet"));
        name_ = reinterpret_cast<NameFn>(library->findSymbol("cuDeviceGetName"));
        totalMem_ = reinterpret_cast<TotalMemFn>(library->findSymbol("cuDeviceTotalMem_v2"));
        attribute_ = reinterpret_cast<AttributeFn>(library->findSymbol("cuDeviceGetAttribute"));
        driverVersion_ = reinterpret_cast<VersionFn>(library->findSymbol("cuDriverGetVersion"));
        ready_ = init && getCount_ && get_ && name_ && init(0) == 0; // the library stays loaded: LibTorch uses it too
    }

    bool ready_ = false;
    CountFn getCount_ = nullptr;
    GetFn get_ = nullptr;
    NameFn name_ = nullptr;
    TotalMemFn totalMem_ = nullptr;
    AttributeFn attribute_ = nullptr;
    VersionFn driverVersion_ = nullptr;
};

std::string gibibytes(std::int64_t bytes)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.1f GiB", static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0));
    return text;
}

// CUDA's versions are major*1000 + minor*10 (13000 -> "13.0").
std::string cudaStyleVersion(long v)
{
    return v <= 0 ? "" : std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

} // namespace

std::string GpuDevice::label() const
{
    return id() + " - " + (name.empty() ? "unknown GPU" : name) + (totalBytes > 0 ? ", " + gibibytes(totalBytes) : "");
}

bool ComputeDevice::cudaBuilt()
{
    return torch_compat::cudaBackendBuilt();
}

bool ComputeDevice::cudaAvailable()
{
    return cudaBuilt() && torch::cuda::is_available();
}

int ComputeDevice::cudaDeviceCount()
{
    return cudaAvailable() ? static_cast<int>(torch::cuda::device_count()) : 0;
}

std::vector<GpuDevice> ComputeDevice::gpus()
{
    std::vector<GpuDevice> out;
    const int count = cudaDeviceCount();
    for (int i = 0; i < count; ++i)
        out.push_back(CudaDriver::instance().device(i));
    return out;
}

int ComputeDevice::cudaIndex(const std::string& device)
{
    if (device == "cuda")
        return 0;
    if (device.rfind("cuda:", 0) != 0)
        return -1;
    return std::stoi(device.substr(5));
}

std::string ComputeDevice::resolve(const std::string& requested)
{
    if (auto problem = DeviceSetting::problem(requested); !problem.empty())
        throw std::invalid_argument(problem);
    if (requested == "cpu")
        return "cpu";
    const int count = cudaDeviceCount();
    if (requested == "auto")
        return count > 0 ? "cuda:0" : "cpu";
    if (!cudaBuilt())
        throw std::invalid_argument("device: " + requested + " was requested but this LibTorch (" + torchVersion() +
                                    ") was built without CUDA; build the PyPI flavour (ATTNLAB_TORCH=pypi ./setup.sh)");
    const int index = cudaIndex(requested);
    if (count == 0)
        throw std::invalid_argument("device: " + requested + " was requested but no CUDA device is usable here (" +
                                    (CudaDriver::instance().loaded() ? "the driver reports none" : "no CUDA driver") + ")");
    if (index >= count)
        throw std::invalid_argument("device: " + requested + " was requested but this machine has " + std::to_string(count) +
                                    " CUDA device" + (count == 1 ? "" : "s") + " (cuda:0" +
                                    (count > 1 ? " to cuda:" + std::to_string(count - 1) : "") + ")");
    return "cuda:" + std::to_string(index);
}

std::string ComputeDevice::describe(const std::string& device)
{
    const int index = cudaIndex(device);
    if (index < 0)
    {
        const int threads = torch::get_num_threads();
        return "cpu (" + std::to_string(threads) + (threads == 1 ? " thread)" : " threads)");
    }
    const GpuDevice gpu = CudaDriver::instance().device(index);
    std::string versions = "driver " + (driverVersion().empty() ? std::string("unknown") : driverVersion()) + ", CUDA " +
                           cudaVersion() + (cudnnVersion().empty() ? "" : ", cuDNN " + cudnnVersion());
    return "cuda:" + std::to_string(index) + " (" + (gpu.name.empty() ? "unknown GPU" : gpu.name) +
           (gpu.totalBytes > 0 ? ", " + gibibytes(gpu.totalBytes) : "") + "; " + versions + ")";
}

std::map<std::string, std::string> ComputeDevice::environment(const std::string& device)
{
    std::map<std::string, std::string> facts{{"torch_build", buildDescription()}};
    const int index = cudaIndex(device);
    if (index < 0)
        return facts;
    const GpuDevice gpu = CudaDriver::instance().device(index);
    facts["gpu_name"] = gpu.name;
    facts["gpu_memory_mib"] = std::to_string(gpu.totalBytes >> 20);
    facts["gpu_capability"] = std::to_string(gpu.capabilityMajor) + "." + std::to_string(gpu.capabilityMinor);
    facts["cuda_driver"] = driverVersion();
    facts["cuda_runtime"] = cudaVersion();
    facts["cudnn"] = cudnnVersion();
    return facts;
}

std::string ComputeDevice::torchVersion()
{
    return std::to_string(TORCH_VERSION_MAJOR) + "." + std::to_string(TORCH_VERSION_MINOR) + "." +
           std::to_string(TORCH_VERSION_PATCH);
}

std::string ComputeDevice::cudaVersion()
{
    return cudaBuilt() ? cudaStyleVersion(at::detail::getCUDAHooks().versionCUDART()) : "";
}

std::string ComputeDevice::cudnnVersion()
{
    if (!cudaBuilt())
        return "";
    try {
        // cuDNN 9 writes its version as major*10000 + minor*100 + patch, cuDNN 8 as major*1000 + minor*100 + patch.
        const long v = at::detail::getCUDAHooks().versionCuDNN();
        const long major = v >= 90000 ? v / 10000 : v / 1000, rest = v >= 90000 ? v % 10000 : v % 1000;
        return v <= 0 ? "" : std::to_string(major) + "." + std::to_string(rest / 100) + "." + std::to_string(rest % 100);
    } catch (const std::exception&) {
        return ""; // built without cuDNN
    }
}

std::string ComputeDevice::driverVersion()
{
    return cudaStyleVersion(CudaDriver::instance().version());
}

std::string ComputeDevice::buildDescription()
{
    std::string math = at::hasMKL() ? "MKL" : BlasLibrary::name(BlasLibrary::classify(BlasLibrary::loadedPath()));
    if (const std::string kernels = OpenBlasCore::current(); !kernels.empty() && !at::hasMKL())
        math += " (" + kernels + " kernels" + (kOpenBlasChoice.empty() ? "" : ", chosen by the CPU's features") + ")";
    if (at::hasMKLDNN())
        math += " + oneDNN";
    std::string cuda = "CPU only";
    if (cudaBuilt()) {
        const int count = cudaDeviceCount();
        cuda = "CUDA " + cudaVersion() + " built, " +
               (count == 0 ? std::string("no device") : std::to_string(count) + (count == 1 ? " device" : " devices"));
    }
    return "LibTorch " + torchVersion() + ", " + math + ", " + cuda;
}

std::optional<std::int64_t> ComputeDevice::memoryInUse(const std::string& device)
{
    const int index = cudaIndex(device);
    if (index < 0 || !cudaAvailable())
        return std::nullopt;
    return torch_compat::cudaBytesAllocated(index);
}

std::optional<std::pair<std::int64_t, std::int64_t>> ComputeDevice::memoryInfo(const std::string& device)
{
    const int index = cudaIndex(device);
    if (index < 0 || !cudaAvailable())
        return std::nullopt;
    return torch_compat::cudaMemoryInfo(index);
}

bool ComputeDevice::limitMemory(const std::string& device, double fraction)
{
    const int index = cudaIndex(device);
    if (index < 0 || !cudaAvailable() || !(fraction > 0.0 && fraction <= 1.0))
        return false;
    return torch_compat::setCudaMemoryFraction(index, fraction);
}

void ComputeDevice::setThreads(int threads)
{
    const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    // With OpenMP the count is per calling thread, but a thread's first parallel op re-applies the count
    // the process set last (LibTorch's lazy per-thread init): a run that set 1 thread then trained with
    // the 2 another run had set since (measured: two trainings in one process). Doing that
    // init first makes this thread's own count stick. It is done through a call into LibTorch, not the
    // inline at::internal::lazy_init_num_threads(): its thread_local flag is per shared object where the
    // library hides its inline symbols (the 2.11 wheel does), so our copy's init would not be the library's
    // (measured: test_platform threadCountsArePerTrainingThread read the other thread's count on 2.11).
    (void)at::get_num_threads();
    torch::set_num_threads(threads > 0 ? threads : cores);
}

int ComputeDevice::threads()
{
    return torch::get_num_threads();
}

} // namespace attnlab
