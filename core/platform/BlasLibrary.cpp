#include "core/platform/BlasLibrary.h"

#include <filesystem>
#include <fstream>
#include <string>

namespace attnlab {
namespace {

bool contains(const std::string& text, const char* part) { return text.find(part) != std::string::npos; }

} // namespace

std::string BlasLibrary::loadedPath()
{
    std::ifstream maps("/proc/self/maps");
    std::string line;
    while (std::getline(maps, line)) {
        const auto slash = line.find('/');
        if (slash == std::string::npos)
            continue;
        const std::string path = line.substr(slash);
        const std::string file = std::filesystem::path(path).filename().string();
        if (file.rfind("libblas.so", 0) == 0 || file.rfind("libopenblas", 0) == 0 || file.rfind("libblis", 0) == 0 ||
            file.rfind("libmkl_rt", 0) == 0) {
            std::error_code error;
            const auto real = std::filesystem::canonical(path, error);
            return error ? path : real.string();
        }
    }
    return {};
}

BlasLibrary::Kind BlasLibrary::classify(const std::string& path)
{
    if (path.empty())
        return Kind::Unknown;
    if (contains(path, "openblas"))
        return Kind::OpenBlas;
    if (contains(path, "blis"))
        return Kind::Blis;
    if (contains(path, "mkl"))
        return Kind::Mkl;
    // Debian's reference implementation lives in .../blas/ (libblas3), each fast one in a folder of its name.
    const std::string folder = std::filesystem::path(path).parent_path().filename().string();
    if (folder == "blas" && contains(std::filesystem::path(path).filename().string(), "libblas.so"))
        return Kind::Reference;
    return Kind::Unknown;
}

std::string BlasLibrary::name(Kind kind)
{
    switch (kind) {
    case Kind::OpenBlas: return "OpenBLAS";
    case Kind::Blis: return "BLIS";
    case Kind::Mkl: return "MKL";
    case Kind::Reference: return "reference BLAS";
    case Kind::Unknown: break;
    }
    return "unknown BLAS";
}

std::string BlasLibrary::slowWarning()
{
    const std::string path = loadedPath();
    if (classify(path) != Kind::Reference)
        return {};
    return "LibTorch is using the reference BLAS (" + path +
           "), about 13x slower on CPU; install libopenblas0-openmp (sudo apt-get install libopenblas0-openmp)";
}

} // namespace attnlab
