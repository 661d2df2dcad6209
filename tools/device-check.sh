#!/usr/bin/env bash
# One command for a machine with a GPU (docs/ARCHITECTURE.md, Build; README, "Training on a GPU").
#
#   tools/device-check.sh prepare   here, on Debian 12: fetches the Debian packages the GPU machine lacks
#                                   (SQLite, nlohmann-json, libcurl, libarchive, OpenSSL, zlib, ICU, GLib, Qt 6
#                                   Core/Test and moc, GNU time) with apt-get download into one archive,
#                                   .device/sysroot.tar.xz; copies SST (from ATTNLAB_DATA_DIR, default
#                                   ../shared/datasets) to .device/data; and, when build-pypi has them, the CLI
#                                   and test_gpu built here against the pinned PyPI LibTorch, stripped, to
#                                   .device/bin (ignored by git; the device tool carries it: carry [".device"]).
#   tools/device-check.sh run       there, from the copied tree: the prebuilt CLI and test_gpu where they run
#                                   against that machine's own PyTorch (python3's torch, which must be the
#                                   version pinned in packaging/torch-pypi.txt), else builds engine + CLI + the
#                                   gpu suite there; runs test_gpu, then `attnlab-cli bench` on cuda:0 for the
#                                   nine Table 5.4 models (10 epochs of SST-fine, each model on its own), then
#                                   benchmarks/twin_rounds.sh on cuda:0 for SSAN + RPR and the LSTM against the
#                                   PyTorch twin, eager (3 rounds) and --compile (1 round). Results also go to
#                                   $OUT (the device tool brings them back) when set.
#     STEPS="..." picks the steps (default "test bench twins", the above); they run in this order, the timed
#     ones first on a quiet GPU:
#       bench     the nine models' `bench` table
#       twins     twin_rounds.sh, eager and compiled
#       graphs    the PyTorch twin eager against one CUDA graph a step (train_loop.py --cuda-graph 8), 1000 batches
#       captured  SSAN + RPR, Transformer + RPR, CNN and LSTM, 10 epochs of SST-fine: `train` eager and with
#                 --capturable-step (one CUDA graph a step where the model allows it), wall seconds and accuracy;
#                 CAPTURED="model:position:layers:pooling ..." the models, SWITCHES="eager --capturable-step" the
#                 modes, CAPTURED_CLI another attnlab-cli (an older build, to compare on the same GPU), CAPTURED_ARGS
#                 more `train` flags, LABEL a word for the table's mode column
#       amp       SSAN + RPR, 10 epochs of SST-fine: `bench`, then `train` in fp32 and with --amp (bf16)
#       sharing   benchmarks/gpu_sharing.sh: 1, 2, 4, 8 runs of SSAN + RPR at once on the one GPU
#       test      test_gpu (with multi30k beside it when both are asked: the suite checks results, not time);
#                 TESTS="fnA fnB": only those test functions
#       multi30k  the three encoder-decoder families at bentrevett/pytorch-seq2seq's sizes on Multi30k de->en,
#                 10 epochs, side by side on the GPU, each run's store in $OUT/multi30k.tar; killed at
#                 DEADLINE seconds after the step starts (default 300; the stores keep every finished epoch)
# Session 16 (2026-11-26) ran these steps on an H200 in 380 s of a 900 s lease: the prebuilt binaries ran there
# (Ubuntu 24.04); test_gpu needed GLib (Qt 6 Core's), which is in the list now.
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
            qt6-base-dev qt6-base-dev-tools libqt6core6 libqt6test6 libdouble-conversion3 libpcre2-16-0 libb2-1
            libglib2.0-0 libsentencepiece-dev libsentencepiece0 time)
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
  data=${ATTNLAB_DATA_DIR:-../shared/datasets}
  if [ -d "$data/sentiment/sst" ]; then mkdir -p .device/data/sentiment && cp -r "$data/sentiment/sst" .device/data/sentiment/; fi
  if [ -d "$data/translation/multi30k" ]; then mkdir -p .device/data/translation && cp -r "$data/translation/multi30k" .device/data/translation/; fi
  mkdir -p .device/bin
  for built in build-pypi/app/attnlab-cli build-pypi/tests/test_gpu; do
    [ -x "$built" ] && strip -o ".device/bin/$(basename "$built")" "$built"
  done
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
  libs="$torch_root/lib:$sysroot/usr/lib/x86_64-linux-gnu"
  out=${OUT:-.device/out}; mkdir -p "$out"
  # The prebuilt binaries run through a wrapper that gives them (and bench's child processes) the libraries;
  # python3 there keeps its own.
  printf '#!/bin/sh\nLD_LIBRARY_PATH=%s exec %s "$@"\n' "$libs" "$PWD/.device/bin/attnlab-cli" > .device/attnlab-cli
  chmod +x .device/attnlab-cli
  cli=$PWD/.device/attnlab-cli test_gpu=(env LD_LIBRARY_PATH="$libs" .device/bin/test_gpu)
  if ! { [ -x .device/bin/attnlab-cli ] && [ -x .device/bin/test_gpu ] && "$cli" --version; }; then
    echo "device-check: no prebuilt binaries that run here: building"
    export PATH="$sysroot/usr/lib/qt6/libexec:$sysroot/usr/bin:$PATH"
    build=build-device
    cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DATTNLAB_GUI=OFF -DATTNLAB_TORCH_ROOT="$torch_root" \
          -DCMAKE_PREFIX_PATH="$sysroot/usr;$sysroot/usr/lib/x86_64-linux-gnu/cmake" \
          -DCMAKE_INCLUDE_PATH="$sysroot/usr/include" -DCMAKE_LIBRARY_PATH="$sysroot/usr/lib/x86_64-linux-gnu" \
          -DCMAKE_BUILD_RPATH="$sysroot/usr/lib/x86_64-linux-gnu" >/dev/null
    cmake --build "$build" -j "$(nproc)" --target attnlab-cli test_gpu || exit 1
    cli=$PWD/$build/app/attnlab-cli test_gpu=("$build/tests/test_gpu")
    "$cli" --version
  fi
  status=0
  steps=${STEPS:-test bench twins}
  [ -z "${ATTNLAB_DATA_DIR:-}" ] && [ -d .device/data/sentiment/sst ] && export ATTNLAB_DATA_DIR=$PWD/.device/data
  dataset=synthetic-sentiment
  [ -n "${ATTNLAB_DATA_DIR:-}" ] && [ -d "$ATTNLAB_DATA_DIR/sentiment/sst" ] && dataset=sst-fine
  has() { [[ " $steps " == *" $1 "* ]]; }
  multi30k_started=
  multi30k() { # bentrevett's sizes: GRUs of 512 over 256-d embeddings, dropout 0.5; a 3+3 Transformer of 256
    local common=(--dataset multi30k --source de --target en --lowercase --batch-size 128 --epochs 10 --eval-every 227
                  --clip-norm 1 --device cuda:0 --seed 1 --no-checkpoint --json)
    mkdir -p "$out/multi30k"
    local -A args=(
      [seq2seq]="--model seq2seq --d-model 512 --embedding-dim 256 --dropout-keep 0.5 --lr 0.001"
      [bahdanau]="--model bahdanau --d-model 512 --embedding-dim 256 --dropout-keep 0.5 --lr 0.001"
      [transformer]="--model transformer-seq2seq --position learned --d-model 256 --layers 3 --heads 8 --ffn-hidden 512 --dropout-keep 0.9 --lr 0.0005")
    for family in seq2seq bahdanau transformer; do
      # shellcheck disable=SC2086
      timeout "${DEADLINE:-300}" "$cli" train "${common[@]}" ${args[$family]} --db "$out/multi30k/$family.sqlite" \
          > "$out/multi30k/$family.json" 2> "$out/multi30k/$family.log" &
    done
    multi30k_started=1
  }
  if has bench; then
    for model in ssan-rpr lstm bilstm cnn ssan-pe ssan2-rpr transformer-rpr essan-mean essan; do
      timeout 120 "$cli" bench --models "$model" --dataset "$dataset" --device cuda:0 --epochs 10 --no-store --json \
          > "$out/bench-$model.json" || status=1
    done
    "$python" - "$out" <<'PY' | tee "$out/gpu-table.md"
import glob, json, sys
print("| model | params | GPU train 10 epochs s | s/epoch | predict 10x dev s | GPU peak MiB |\n|---|---|---|---|---|---|")
for path in sorted(glob.glob(sys.argv[1] + "/bench-*.json")):
    try:
        m = json.load(open(path))["models"][0]
    except (ValueError, KeyError, IndexError):
        print(f"| {path} | failed | | | | |"); continue
    print(f"| {m['id']} | {m['params']} | {m['train_seconds']:.2f} | {m['seconds_per_epoch']:.3f} | "
          f"{m['predict_seconds']:.3f} | {m.get('peak_memory_mib') or 0:.0f} |")
PY
    # The device tool brings back at most 8 files: the nine models' JSON travel as one archive.
    (cd "$out" && tar -cf bench.tar bench-*.json && rm -f bench-*.json)
  fi
  if has twins && [ "$dataset" = sst-fine ]; then
    for twin in "" --compile; do # inductor's warnings (TF32, online softmax) filtered out of the table
      CLI=$cli TWIN_PYTHON=$python TWIN_ARGS=$twin DEVICE=cuda:0 THREADS=2 TIME=$sysroot/usr/bin/time \
          timeout 300 bash benchmarks/twin_rounds.sh 100 "$([ -z "$twin" ] && echo 3 || echo 1)" "ssan-rpr lstm" \
          > "$out/twins-raw.txt" 2>&1 || status=1
      grep -v -i 'warn\|online softmax\|split the\|important use\|^$' "$out/twins-raw.txt" | tee -a "$out/twins.txt"
    done
    rm -f "$out/twins-raw.txt"
  fi
  if has graphs && [ "$dataset" = sst-fine ]; then
    for graph in "" "--cuda-graph 8"; do
      # shellcheck disable=SC2086
      timeout 150 "$python" benchmarks/train_loop.py --device cuda:0 --threads 2 --batches 1000 --passes 1 \
          --models ssan-rpr,transformer-rpr,cnn,lstm $graph 2>&1 | grep -v -i 'warn' | tee -a "$out/graphs.txt" || status=1
    done
  fi
  if has captured && [ "$dataset" = sst-fine ]; then
    # model:position:layers:pooling, CAPTURED="..." to choose
    captured_cli=("$cli")
    [ -n "${CAPTURED_CLI:-}" ] && captured_cli=(env LD_LIBRARY_PATH="$libs" "$CAPTURED_CLI")
    for spec in ${CAPTURED:-ssan:rpr:1: transformer:rpr:1: cnn:none:1: lstm:none:1:}; do
      IFS=: read -r model position layers pooling <<< "$spec"
      set -- "$model" "$position" --layers "$layers" ${pooling:+--pooling "$pooling"}
      for switch in ${SWITCHES-"eager --capturable-step"}; do
        [ "$switch" = eager ] && switch=
        start=$EPOCHREALTIME
        # shellcheck disable=SC2086
        timeout 90 "${captured_cli[@]}" train --dataset sst-fine --model "$1" --position "$2" "${@:3}" --epochs 10 --device cuda:0 \
            --seed 1 --no-checkpoint --db "$out/captured.sqlite" --json $switch ${CAPTURED_ARGS:-} > "$out/captured-run.json" 2>/dev/null || status=1
        "$python" - "$out/captured-run.json" "$spec" "${switch:-eager} ${LABEL:-}" "$start" "$EPOCHREALTIME" <<'PY' | tee -a "$out/captured.txt"
import json, sys
path, model, mode, start, end = sys.argv[1:]
try:
    r = json.load(open(path))
    print(f"| {model} | {mode} | {float(end) - float(start):.2f} | {r.get('seconds', 0):.2f} | {r.get('dev_accuracy', 0):.4f} | "
          f"{r.get('test_accuracy', 0):.4f} | {r.get('message', '')} |")
except (ValueError, OSError):
    print(f"| {model} | {mode} | failed | | |")
PY
      done
    done
    rm -f "$out/captured.sqlite" "$out/captured-run.json"
  fi
  if has amp && [ "$dataset" = sst-fine ]; then
    { timeout 60 "$cli" bench --models ssan-rpr --dataset sst-fine --device cuda:0 --epochs 10 --no-store --json
      for amp in "" --amp; do
        # shellcheck disable=SC2086
        timeout 90 "$cli" train --dataset sst-fine --model ssan --position rpr --epochs 10 --device cuda:0 --seed 1 \
            --no-checkpoint --db "$out/amp.sqlite" --json $amp
      done; } > "$out/amp.txt" 2>/dev/null || status=1
    rm -f "$out/amp.sqlite"
  fi
  if has sharing && [ "$dataset" = sst-fine ]; then
    CLI=$cli DEVICE=cuda:0 timeout 200 bash benchmarks/gpu_sharing.sh 3 "1 2 4 8" | tee "$out/sharing.txt" || status=1
  fi
  if has multi30k && has test; then multi30k; fi
  # shellcheck disable=SC2086
  if has test; then QT_QPA_PLATFORM=offscreen "${test_gpu[@]}" ${TESTS:-} 2>&1 | tee "$out/test_gpu.txt" | grep -v '^PASS' || true
    grep -q '^Totals: .* 0 failed' "$out/test_gpu.txt" || status=1; fi
  if has multi30k; then
    [ -n "$multi30k_started" ] || multi30k
    wait || true
    (cd "$out" && tar -cf multi30k.tar multi30k && rm -rf multi30k)
  fi
  exit $status
  ;;
*)
  echo "usage: tools/device-check.sh prepare|run" >&2
  exit 2
  ;;
esac
