#!/usr/bin/env bash
# Builds the libFuzzer harnesses (clang, ASan + UBSan) in build-fuzz and runs each for SECONDS on its
# seed corpus (docs/RELIABILITY.md):
#   fuzz/run.sh 20                    CI's smoke run of every harness
#   fuzz/run.sh 600 fuzz_sst          the 10-minute run of one harness
# The corpus grows in build-fuzz/corpus/<harness> (seeded from fuzz/corpus/<harness>, which stays as
# committed); a crash, UB report, uncaught exception, leak or an input slower than 10 s is saved under
# build-fuzz/artifacts/<harness>/ and fails the run. Prints one line per harness: runs, exec/s, cov, ft.
# Environment: BUILD_DIR (default build-fuzz), JOBS (build jobs; default the cores), FUZZ_TIMEOUT (seconds
# one input may take, default 10), FUZZ_JOBS (harnesses run at once, default the cores), TMPDIR (default /dev/shm).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-20}
shift || true
build_dir=${BUILD_DIR:-build-fuzz}
harnesses=("$@")
if [ ${#harnesses[@]} -eq 0 ]; then
  harnesses=(fuzz_sst fuzz_labelled_lines fuzz_semeval fuzz_csv_text fuzz_csv_series fuzz_embeddings fuzz_config
             fuzz_sweep_spec fuzz_manifest fuzz_run_import fuzz_run_store fuzz_safetensors fuzz_wordpiece fuzz_csv_pairs
             fuzz_subword_model fuzz_text_corpus fuzz_forecast)
fi

if ! command -v clang++ >/dev/null || ! ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends clang libclang-rt-14-dev
fi
export CCACHE_SLOPPINESS=${CCACHE_SLOPPINESS:-pch_defines,time_macros,include_file_mtime,include_file_ctime}
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD}
export CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-true}
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DATTNLAB_FUZZ=ON -DATTNLAB_GUI=OFF -DATTNLAB_TESTS=OFF >/dev/null
start=$(date +%s)
cmake --build "$build_dir" -j "${JOBS:-$(nproc)}" --target attnlab_fuzzers
echo "== fuzzers built in $(( $(date +%s) - start )) s"

# The harnesses write each input to a scratch folder (and the store ones create a database per input,
# with fsyncs): on tmpfs that costs no disk I/O, which on a busy machine stalled single inputs past the
# timeout (docs/RELIABILITY.md).
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then
  export TMPDIR=/dev/shm
fi
# One harness: its run, then one summary line (and the report's key lines when it failed) in $build_dir/artifacts/$h.summary.
fuzz_one() {
  local h=$1 corpus="$build_dir/corpus/$1" artifacts="$build_dir/artifacts/$1" log="$build_dir/artifacts/$1.log" status
  mkdir -p "$corpus" "$artifacts"
  cp -n fuzz/corpus/"$h"/* "$corpus"/ 2>/dev/null || true
  # -max_len 32768: room for the store seeds (a small SQLite file) and several files per input.
  # -seed=1: the same mutations on every run, so a CI failure is a regression, not a new random find.
  if "$build_dir/fuzz/$h" "$corpus" -seed=1 -max_total_time="$seconds" -timeout="${FUZZ_TIMEOUT:-10}" -rss_limit_mb=2048 -max_len=32768 \
       -print_final_stats=1 -artifact_prefix="$artifacts/" >"$log" 2>&1; then
    status=ok
  else
    status=FAILED
  fi
  local done_line runs speed cov ft
  done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -1 || true)
  runs=$(grep -oP 'stat::number_of_executed_units:\s+\K[0-9]+' "$log" || echo "?")
  speed=$(grep -oP 'stat::average_exec_per_sec:\s+\K[0-9]+' "$log" || echo "?")
  cov=$(echo "$done_line" | grep -oP 'cov: \K[0-9]+' || true)
  ft=$(echo "$done_line" | grep -oP 'ft: \K[0-9]+' || true)
  {
    printf '%-22s %-6s runs %-10s exec/s %-7s cov %-6s ft %-6s corpus %s\n' "$h" "$status" "$runs" "$speed" \
           "${cov:-?}" "${ft:-?}" "$(ls "$corpus" | wc -l)"
    if [ "$status" = FAILED ]; then
      grep -E 'ERROR|runtime error|SUMMARY|uncaught|Test unit written' "$log" | head -8 || true
    fi
  } >"$build_dir/artifacts/$h.summary"
  [ "$status" = ok ]
}
# A libFuzzer run is one thread: FUZZ_JOBS of them at once (default the cores), each still SECONDS long, so the
# smoke run takes SECONDS x harnesses / jobs (CI's time). The summaries print in the list's order.
jobs=${FUZZ_JOBS:-$(nproc)}
running=0
for h in "${harnesses[@]}"; do
  if [ "$running" -ge "$jobs" ]; then
    wait -n || true
    running=$((running - 1))
  fi
  fuzz_one "$h" &
  running=$((running + 1))
done
wait || true
failed=()
for h in "${harnesses[@]}"; do
  cat "$build_dir/artifacts/$h.summary"
  grep -q " FAILED " "$build_dir/artifacts/$h.summary" && failed+=("$h")
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "== fuzzing found problems in: ${failed[*]} (logs and inputs in $build_dir/artifacts/)" >&2
  exit 1
fi
