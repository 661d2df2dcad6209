# Which LibTorch the project builds against (docs/ARCHITECTURE.md, Build):
#   debian (default): Debian's libtorch-dev 1.13.1, CPU only, OpenBLAS; what the .deb depends on.
#   pypi: the LibTorch inside PyPI's torch wheel (packaging/torch-pypi.txt: 2.11.0, CUDA 13.0, MKL, oneDNN),
#         installed by `ATTNLAB_TORCH=pypi ./setup.sh` into a virtual environment; ATTNLAB_TORCH_ROOT is its
#         site-packages/torch folder.
# The traps of linking the wheel from C++, each handled here:
#   - Debian's libtorch.so shadows the wheel's: TorchConfig finds its libraries with find_library(... PATHS
#     <wheel>/lib), which searches the system folders first; the wheel's folder goes first on the prefix path.
#   - The C++11 ABI: the wheel is built with the new ABI since 2.7, like Debian's g++ and Qt; 2.11's
#     TORCH_CXX_FLAGS is empty (1.13's said -D_GLIBCXX_USE_CXX11_ABI=1). An old-ABI LibTorch (=0) would link and
#     then fail on every std::string crossing the boundary, so it is refused here.
#   - The CUDA backend is a library nobody calls by name: TorchConfig links libtorch_cuda.so with
#     --no-as-needed, else torch::cuda::is_available() is false. The CUDA toolkit's libraries it also lists
#     (cudart, nvrtc, the driver stub) are dropped by --as-needed: our code calls none of them, the driver is
#     dlopen'ed at run time (ComputeDevice), so no binary has libcuda.so.1 NEEDED (tools/check-torch-link.sh).
#   - RUNPATH: CMake would add every linked library's folder, toolkit and MKL leftovers included; the pypi
#     build's binaries get exactly one entry, the wheel's torch/lib (whose libraries find the nvidia-* wheels'
#     CUDA, cuDNN and NCCL through their own $ORIGIN RUNPATHs). No stub folder, no /usr/local/cuda at run time.
#   - cuDNN: the wheel links its own (nvidia-cudnn-cu13); Caffe2's cmake reports "USE_CUDNN is set to 0", which
#     only means we compile no cuDNN calls of our own. The version in use is asked at run time.
#   - TORCH_CUDA_ARCH_LIST: with no GPU present Caffe2's cmake guesses; we compile no CUDA kernels of our own
#     (LibTorch's are in the wheel), so it only sets the flags a future .cu file would get: Turing to Blackwell,
#     as CUDA 13 supports (7.5 students' RTX 20xx, 8.6 RTX 30xx, 8.9 RTX 40xx, 9.0 H100, 10.0 B200, 12.0 RTX 50xx).
#   - NVTX: 2.x's cmake wants CUDA::nvtx3 (header only, in the toolkit); the old nvToolsExt library is gone
#     from CUDA 13 and is not needed.
set(ATTNLAB_TORCH_ROOT "" CACHE PATH "site-packages/torch of a PyPI torch install (the pypi flavour); empty = Debian's LibTorch")
if(ATTNLAB_TORCH_ROOT)
  if(NOT EXISTS "${ATTNLAB_TORCH_ROOT}/share/cmake/Torch/TorchConfig.cmake")
    message(FATAL_ERROR "ATTNLAB_TORCH_ROOT=${ATTNLAB_TORCH_ROOT}: no share/cmake/Torch/TorchConfig.cmake there; "
                        "give the torch folder of a pip install (python -c 'import torch,os;print(os.path.dirname(torch.__file__))')")
  endif()
  list(PREPEND CMAKE_PREFIX_PATH "${ATTNLAB_TORCH_ROOT}" "${ATTNLAB_TORCH_ROOT}/share/cmake")
  if(NOT DEFINED ENV{TORCH_CUDA_ARCH_LIST} AND NOT TORCH_CUDA_ARCH_LIST)
    set(TORCH_CUDA_ARCH_LIST "7.5;8.0;8.6;8.9;9.0;10.0;12.0")
  endif()
  if(NOT DEFINED CUDAToolkit_ROOT AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CUDAToolkit_ROOT /usr/local/cuda)
  endif()
endif()

find_package(Torch REQUIRED)
if(Torch_VERSION AND Torch_VERSION VERSION_LESS 1.13)
  message(FATAL_ERROR "LibTorch ${Torch_VERSION} found; Attention Lab needs >= 1.13")
endif()

set(ATTNLAB_TORCH_FLAVOUR debian)
if(ATTNLAB_TORCH_ROOT)
  set(ATTNLAB_TORCH_FLAVOUR pypi)
  get_filename_component(torch_lib "${ATTNLAB_TORCH_ROOT}/lib" REALPATH)
  if(NOT TORCH_LIBRARY MATCHES "^${torch_lib}/" AND NOT TORCH_LIBRARY MATCHES "^${ATTNLAB_TORCH_ROOT}/")
    message(FATAL_ERROR "TORCH_LIBRARY is ${TORCH_LIBRARY}, not the wheel's: delete the build folder's CMakeCache.txt")
  endif()
  if("${TORCH_CXX_FLAGS}" MATCHES "_GLIBCXX_USE_CXX11_ABI=0")
    message(FATAL_ERROR "this LibTorch is built with the old C++ ABI (${TORCH_CXX_FLAGS}); Debian's Qt and libraries use the new one")
  endif()
  # One run-time path, the wheel's libraries; nothing from the build machine's CUDA toolkit.
  set(CMAKE_SKIP_BUILD_RPATH ON)
  set(CMAKE_SKIP_INSTALL_RPATH ON)
  add_link_options("LINKER:--as-needed" "LINKER:-rpath,${torch_lib}")
  set(ATTNLAB_TORCH_CUDA OFF)
  if(EXISTS "${torch_lib}/libtorch_cuda.so" AND TORCH_CUDA_LIBRARIES)
    set(ATTNLAB_TORCH_CUDA ON)
    add_compile_definitions(ATTNLAB_TORCH_CUDA) # core/nn/TorchCompat.h: the CUDA headers are there
  endif()
  message(STATUS "LibTorch flavour: pypi, ${Torch_VERSION} at ${ATTNLAB_TORCH_ROOT} (CUDA backend: ${ATTNLAB_TORCH_CUDA})")
else()
  message(STATUS "LibTorch flavour: debian, ${Torch_VERSION}")
endif()
