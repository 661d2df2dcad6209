#pragma once
#include <string>

namespace attnlab {

// Which BLAS LibTorch got. Debian's LibTorch calls whatever libblas.so.3 the alternatives system gives;
// without libopenblas0-openmp that is the reference BLAS, about 13x slower for this work (measured:
// docs/ARCHITECTURE.md, Build, trap 3). Both programs read it from the process's own mappings at start and
// warn when it is slow.
class BlasLibrary {
public:
    enum class Kind { OpenBlas, Blis, Mkl, Reference, Unknown };

    // The libblas/openblas/blis/mkl library mapped into this process (resolved through symlinks), "" when none.
    static std::string loadedPath();
    static Kind classify(const std::string& path); // by Debian's layout: .../blas/libblas.so.3 is the reference
    static std::string name(Kind kind);
    // One line to print when the BLAS in use is the reference one; "" otherwise.
    static std::string slowWarning();
};

} // namespace attnlab
