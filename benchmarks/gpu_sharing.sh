#!/usr/bin/env bash
# several small runs sharing one GPU (a class of students, a sweep's workers). For each N, N processes
# of `attnlab-cli train` (SSAN + RPR, d_model 300, SST-fine, EPOCHS epochs, Table 5.4's protocol, 2 CPU threads
# each, their own store) start at once on DEVICE; the wall time until the last one ends gives runs per hour,
# against N = 1 (one at a time). A run's own seconds (its JSON) show how much each one slowed down.
#   CLI=build-pypi/app/attnlab-cli DEVICE=cuda:0 benchmarks/gpu_sharing.sh [EPOCHS=3] ["1 2 4 8"]
# Needs SST (ATTNLAB_DATA_DIR) and a CUDA build; tools/device-check.sh runs it (STEPS=sharing).
set -euo pipefail
epochs=${1:-3}
counts=${2:-"1 2 4 8"}
cli=${CLI:-build-pypi/app/attnlab-cli}
device=${DEVICE:-cuda:0}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "| runs at once | wall s | runs/hour | vs one at a time | each run's own s (min-max) |"
echo "|---|---|---|---|---|"
single=
for n in $counts; do
  start=$(date +%s.%N)
  for i in $(seq 1 "$n"); do
    "$cli" train --dataset sst-fine --model ssan --position rpr --epochs "$epochs" --device "$device" --threads 2 \
        --seed "$i" --no-checkpoint --db "$work/run-$n-$i.sqlite" --json > "$work/run-$n-$i.json" 2>/dev/null &
  done
  wait || true # a failed run is counted as not completed
  end=$(date +%s.%N)
  row=$(python3 - "$n" "$start" "$end" "${single:-0}" "$work"/run-"$n"-*.json <<'PY'
import json, sys
n, start, end, single = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
own = []
for path in sys.argv[5:]:
    try:
        own.append(json.load(open(path))["seconds"])
    except (ValueError, KeyError):
        pass
wall = end - start
per_hour = n * 3600 / wall
print(f"{per_hour} | {n} | {wall:.1f} | {per_hour:.0f} | {per_hour / (single or per_hour):.2f}x | "
      f"{min(own):.1f}-{max(own):.1f} ({len(own)} of {n} completed) |" if own else f"{per_hour} | {n} | failed |")
PY
)
  [ -z "$single" ] && single=${row%% |*}
  echo "| ${row#* | }"
done
echo "($cli train --dataset sst-fine --model ssan --position rpr --epochs $epochs --device $device --threads 2, N at once)"
