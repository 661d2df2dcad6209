#!/usr/bin/env bash
# Attention Lab set-up: installs missing Debian packages, builds, then either launches the app
# (./setup.sh run, the default) or runs the whole test suite (./setup.sh test).
# Environment: BUILD_DIR (default build), ATTNLAB_GUI=OFF for a headless build,
# CMAKE_PREFIX_PATH / Torch_DIR to build against another LibTorch (a CUDA one, say).
set -euo pipefail
cd "$(dirname "$0")"
mode=${1:-run}
case "$mode" in run|test|build) ;; *) echo "usage: $0 [run|test|build]" >&2; exit 2 ;; esac
build_dir=${BUILD_DIR:-build}
gui=${ATTNLAB_GUI:-ON}

packages=(cmake ninja-build g++ ccache git pkg-config libtorch-dev libopenblas0-openmp libsqlite3-dev
          nlohmann-json3-dev qt6-base-dev zlib1g-dev libssl-dev libcurl4-openssl-dev libarchive-dev python3
          help2man)
# The Debian package and its checks (cpack's dpkg-shlibdeps and file, the desktop and AppStream validators).
if [ "$mode" = test ]; then
  packages+=(dpkg-dev file desktop-file-utils appstream)
fi
if [ "$gui" = ON ]; then
  packages+=(qt6-base-dev-tools libgl-dev libqcustomplot-dev libqcustomplot2.1-qt6 libqt6svg6-dev fonts-dejavu-core
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
if [ -n "${ATTNLAB_SHARED_DATASETS:-}" ]; then
  cmake_args+=(-DATTNLAB_SHARED_DATASETS="$ATTNLAB_SHARED_DATASETS")
fi
echo "== configuring ($build_dir)"
cmake "${cmake_args[@]}" >/dev/null
echo "== building with $jobs jobs"
start=$(date +%s)
cmake --build "$build_dir" -j "$jobs"
echo "== built in $(( $(date +%s) - start )) s"

case "$mode" in
  build) ;;
  test)
    echo "== testing"
    (cd "$build_dir" && ctest --output-on-failure --timeout 900)
    ;;
  run)
    if [ "$gui" = ON ]; then
      exec "$build_dir/app/attnlab"
    else
      exec "$build_dir/app/attnlab-cli" train --dataset synthetic-sentiment --model ssan --position rpr
    fi
    ;;
esac
