#!/usr/bin/env bash
# Training on a machine whose cores are busy elsewhere (a build, a browser): a lesson's run timed idle and with
# every core taken by a spinning process, for each threading choice:
#   auto      the default (threads 0): the run picks its thread count from its own step times (ThreadGovernor)
#   all       --threads $(nproc): one thread per core, the default before the governor
#   one       --threads 1
#   passive   --threads $(nproc) with OMP_WAIT_POLICY=PASSIVE (OpenMP's threads sleep at a barrier instead of spinning)
# Each line: wall seconds of the whole `attnlab-cli train` process for STEPS steps, and the run's notes (what the
# governor decided). A run of `all` under load can take many minutes: it is stopped at LIMIT seconds and its rate
# reported from the steps it reached.
#   benchmarks/busy_machine.sh [PRESET=teach-align-bahdanau] [STEPS=400] [LIMIT=300] [MODES="auto all one passive"]
# CLI=build-pypi/app/attnlab-cli for the PyPI LibTorch flavour.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-teach-align-bahdanau}
steps=${2:-400}
limit=${3:-300}
modes=${4:-"auto all one passive"}
cli=${CLI:-build/app/attnlab-cli}
cores=$(nproc)
work=$(mktemp -d)
spinners=()
stop_load() { for p in "${spinners[@]}"; do kill "$p" 2>/dev/null || true; done; spinners=(); }
trap 'stop_load; rm -rf "$work"' EXIT

run() { # mode load
  local mode=$1 load=$2 args=(--threads "$cores") envs=()
  case $mode in
    auto) args=() ;;
    one) args=(--threads 1) ;;
    passive) envs=(OMP_WAIT_POLICY=PASSIVE) ;;
  esac
  local db="$work/$mode-$load.sqlite" start end code=0
  start=$(date +%s.%N)
  env "${envs[@]}" timeout "$limit" "$cli" train --preset "$preset" --steps "$steps" --eval-every "$steps" --repeat 1 \
    --no-checkpoint --device cpu --db "$db" "${args[@]}" --json >"$work/out.json" 2>"$work/err.log" || code=$?
  end=$(date +%s.%N)
  local reached=$steps note=""
  if [ "$code" = 124 ]; then # stopped: the steps it reached, from the last progress line
    reached=$(grep -o '"step":[0-9]*' "$work/err.log" | tail -1 | cut -d: -f2)
    note="stopped at ${limit} s"
  elif [ "$code" != 0 ]; then
    echo "$mode/$load failed ($code): $(tail -2 "$work/err.log")" >&2; return
  else
    note=$(sqlite3 "$db" "SELECT replace(notes, char(10), ' | ') FROM runs" 2>/dev/null || true)
  fi
  printf '%-8s %-5s %8.1f s %6s steps %8.1f ms/step  %s\n' "$mode" "$load" "$(echo "$end - $start" | bc)" "${reached:-?}" \
    "$(echo "($end - $start) * 1000 / ${reached:-1}" | bc -l)" "$note"
}

echo "preset $preset, $steps steps, $cores cores, $("$cli" --version | head -1)"
for mode in $modes; do run "$mode" idle; done
for ((i = 0; i < cores; i++)); do (while :; do :; done) & spinners+=($!); done
sleep 1
for mode in $modes; do run "$mode" busy; done
stop_load
