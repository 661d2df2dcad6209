#include "core/platform/OpenBlasCore.h"

#include <cstdlib>

#include <dlfcn.h>

namespace attnlab {
namespace {

template <typename Function>
Function exported(const char* name)
{
    return reinterpret_cast<Function>(::dlsym(RTLD_DEFAULT, name));
}

// The kernels this CPU can run that OpenBLAS 0.3.21 knows by name ("" for none better than its fallback).
std::string kernelsForThisCpu()
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512cd"))
        return "SKYLAKEX";
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return "HASWELL";
#endif
    return {};
}

} // namespace

std::string OpenBlasCore::current()
{
    const auto corename = exported<char* (*)()>("openblas_get_corename");
    const char* name = corename ? corename() : nullptr;
    return name ? name : "";
}

std::string OpenBlasCore::useTheCpusKernels()
{
    const std::string before = current();
    if (before != "Prescott" || std::getenv("OPENBLAS_CORETYPE"))
        return {};
    const std::string kernels = kernelsForThisCpu();
    const auto quit = exported<void (*)()>("gotoblas_dynamic_quit");
    const auto init = exported<void (*)()>("gotoblas_dynamic_init");
    if (kernels.empty() || !quit || !init)
        return {};
    ::setenv("OPENBLAS_CORETYPE", kernels.c_str(), /*overwrite=*/0);
    quit(); // forgets the choice (and nothing else)
    init(); // chooses again, by OPENBLAS_CORETYPE
    return before + " -> " + current();
}

} // namespace attnlab
