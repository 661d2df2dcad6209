#!/usr/bin/env bash
# One command for a machine with a GPU (docs/ARCHITECTURE.md, Build; README, "Training on a GPU").
#
#   tools/device-check.sh prepare   here, on Debian 12: fetches the Debian packages the GPU machine lacks
#                                   (SQLite, nlohmann-json, libcurl, libarchive, OpenSSL, zlib, Qt 6 Core/Test
#                                   and moc) with apt-get download into one archive, .device/sysroot.tar.xz
#                                   (ignored by git; the device tool carries it: carry [".device"]).
#   tools/device-check.sh run       there, from the copied tree: builds engine + CLI + the gpu suite against
#                                   that machine's own PyTorch (python3's torch, which must be the version
#                                   pinned in packaging/torch-pypi.txt), runs `ctest -L gpu`, then the GPU
#                                   benchmarks: `attnlab-cli bench` on cuda:0 for the nine Table 5.4 models
#                                   (SST-fine where ATTNLAB_DATA_DIR has it, else the built-in data), and the
#                                   same on the CPU for the speed-up; prints the table for docs/BENCHMARKS.md.
#                                   Results also go to $OUT (the device tool brings them back) when set.
# Exit codes: 0 all ran and passed, 1 a build or test failed, 2 usage or a missing prerequisite.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-}
sysroot=$PWD/.device/sysroot

case "$mode" in
prepare)
  packages=(libsqlite3-dev libsqlite3-0 nlohmann-json3-dev zlib1g-dev libssl-dev libssl3 libcurl4-openssl-dev libcurl4
            libarchive-dev libarchive13 libnghttp2-14 libpsl5 librtmp1 libssh2-1 libldap-2.5-0 libbrotli1 libsasl2-2
            libxml2 libicu72 libicu-dev icu-devtools liblz4-1 libacl1 libnettle8 libgnutls30 libhogweed6 libidn2-0 libunistring2 libp11-kit0
            libtasn1-6 libgmp10 libkrb5-3 libk5crypto3 libkrb5support0 libgssapi-krb5-2 libkeyutils1 libcom-err2
            qt6-base-dev qt6-base-dev-tools libqt6core6 libqt6test6 libdouble-conversion3 libpcre2-16-0 libb2-1)
  rm -rf .device && mkdir -p .device/debs "$sysroot"
  grep -qx '/.device/' .git/info/exclude 2>/dev/null || echo '/.device/' >> .git/info/exclude
  (cd .device/debs && apt-get download "${packages[@]}" >/dev/null)
  for deb in .device/debs/*.deb; do dpkg-deb -x "$deb" "$sysroot"; done
  # Headless: Qt's Core and Test are all the engine, the CLI and the gpu suite use; the rest of qt6-base-dev's
  # headers go, and the tree travels as one xz archive (the device tool carries at most 64 MiB).
  rm -rf .device/debs "$sysroot"/usr/share/{doc,man,locale,lintian,bug} "$sysroot"/usr/lib/x86_64-linux-gnu/*.a
  for module in Gui Widgets OpenGL OpenGLWidgets Sql Network DBus Xml PrintSupport Concurrent; do
    rm -rf "$sysroot/usr/include/x86_64-linux-gnu/qt6/Qt$module"
  done
  tar -C .device -cJf .device/sysroot.tar.xz sysroot && rm -rf "$sysroot"
  echo "device-check: prepared .device/sysroot.tar.xz ($(du -sh .device/sysroot.tar.xz | cut -f1)): run it there with carry [\".device\"]"
  ;;
run)
  command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
  python=${PYTHON:-python3}
  pin=$(grep -v '^#' packaging/torch-pypi.txt | grep -m1 .)
  have=$("$python" -c 'import torch; print(torch.__version__)' 2>/dev/null) || { echo "device-check: no torch in $python" >&2; exit 2; }
  [ "${have%%+*}" = "${pin#torch==}" ] || echo "device-check: warning: this machine has torch $have, the pin is $pin" >&2
  torch_root=$("$python" -c 'import os, torch; print(os.path.dirname(torch.__file__))')
  if [ ! -d "$sysroot" ]; then
    [ -f .device/sysroot.tar.xz ] || { echo "device-check: no .device/sysroot.tar.xz (hint: tools/device-check.sh prepare, then carry .device)" >&2; exit 2; }
    tar -C .device -xJf .device/sysroot.tar.xz
  fi
  export PATH="$sysroot/usr/lib/qt6/libexec:$sysroot/usr/bin:$PATH"
  export LD_LIBRARY_PATH="$sysroot/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  build=build-device
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DATTNLAB_GUI=OFF -DATTNLAB_TORCH_ROOT="$torch_root" \
        -DCMAKE_PREFIX_PATH="$sysroot/usr;$sysroot/usr/lib/x86_64-linux-gnu/cmake" \
        -DCMAKE_INCLUDE_PATH="$sysroot/usr/include" -DCMAKE_LIBRARY_PATH="$sysroot/usr/lib/x86_64-linux-gnu" \
        -DCMAKE_BUILD_RPATH="$sysroot/usr/lib/x86_64-linux-gnu" >/dev/null
  cmake --build "$build" -j "$(nproc)" --target attnlab-cli test_gpu
  "$build/app/attnlab-cli" --version
  status=0
  (cd "$build" && ctest --output-on-failure -L gpu) || status=1
  dataset=synthetic-sentiment
  [ -n "${ATTNLAB_DATA_DIR:-}" ] && [ -d "$ATTNLAB_DATA_DIR/sst" ] && dataset=sst-fine
  models=lstm,bilstm,cnn,ssan-rpr,ssan-pe,ssan2-rpr,transformer-rpr,essan-mean,essan
  out=${OUT:-$build}
  for device in cuda:0 cpu; do
    threads=$([ "$device" = cpu ] && echo 2 || echo 0)
    "$build/app/attnlab-cli" bench --models "$models" --dataset "$dataset" --device "$device" --threads "$threads" \
        --epochs "$([ "$device" = cpu ] && echo 1 || echo 10)" --no-store --json > "$out/bench-${device/:/}.json" || status=1
  done
  "$python" - "$out/bench-cuda0.json" "$out/bench-cpu.json" <<'PY' | tee "$out/gpu-table.md"
import json, sys
gpu, cpu = (json.load(open(p)) for p in sys.argv[1:3])
rows = {m["id"]: m for m in cpu.get("models", [])}
print("| model | GPU s/epoch | CPU (2 threads) s/epoch | GPU speed-up |\n|---|---|---|---|")
for m in gpu.get("models", []):
    c = rows.get(m["id"], {})
    g_epoch, c_epoch = m.get("seconds_per_epoch"), c.get("seconds_per_epoch")
    ratio = f"{c_epoch / g_epoch:.1f}x" if g_epoch and c_epoch else "-"
    print(f"| {m['id']} | {g_epoch} | {c_epoch} | {ratio} |")
PY
  exit $status
  ;;
*)
  echo "usage: tools/device-check.sh prepare|run" >&2
  exit 2
  ;;
esac
