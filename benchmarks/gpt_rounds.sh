#!/usr/bin/env bash
# The GPT of tiny Shakespeare (`--preset teach-lm-gpt`: nanoGPT's laptop sizes) against its PyTorch 2.11 twin
# (benchmarks/gpt_twin.py), in alternating rounds; the median of each side's seconds per training step (steps 11
# to STEPS) and of its time to write TOKENS characters after "ROMEO:" at temperature 1 over its key/value cache (and
# the twin's time to write them as nanoGPT's generate() does, the whole context again for each character).
# Ours: the step from the JSON progress lines of `attnlab-cli train`; the writing from `attnlab-cli generate --json` on
# the round's checkpoint (every token's attention, all layers and heads, and its 5 likeliest alternatives kept), its
# own `seconds` (reading the prompt and writing; not start-up, loading or printing the JSON).
#   benchmarks/gpt_rounds.sh [STEPS=200] [ROUNDS=3] [TOKENS=500]
# CLI: our programs (default "build/app/attnlab-cli build-pypi/app/attnlab-cli"); TWIN_PYTHON: the PyTorch 2.11
# venv; THREADS (default nproc).
set -euo pipefail
cd "$(dirname "$0")/.."
steps=${1:-200}
rounds=${2:-3}
tokens=${3:-500}
read -r -a clis <<<"${CLI:-build/app/attnlab-cli build-pypi/app/attnlab-cli}"
data=${ATTNLAB_DATA_DIR:-../shared/datasets}
threads=${THREADS:-$(nproc)}
twin_python=${TWIN_PYTHON:-$HOME/.cache/attnlab/venv-torch-2.11.0/bin/python}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
label() { case $1 in build/app/*) echo "Debian 1.13" ;; build-pypi/*) echo "LibTorch 2.11" ;; *) echo "$1" ;; esac; }
per_step() { python3 -c '
import json, sys
marks = [(e["step"], e["seconds"]) for e in map(json.loads, open(sys.argv[1])) if e.get("event") == "progress"]
first = next(m for m in marks if m[0] >= 11)
print((marks[-1][1] - first[1]) / (marks[-1][0] - first[0]))' "$1"; }
printf '# %s threads, %s steps, %s tokens, %s rounds (median); twin PyTorch %s\n' "$threads" "$steps" "$tokens" "$rounds" \
       "$("$twin_python" -c 'import torch; print(torch.__version__)' 2>/dev/null)"
printf '| side | s/step | s to write %s tokens | step / twin | writing / twin | writing / nanoGPT generate |\n|---|---:|---:|---:|---:|---:|\n' "$tokens"
for i in "${!clis[@]}"; do : >"$work/cpp$i"; done
: >"$work/py"
for r in $(seq 1 "$rounds"); do
  for i in "${!clis[@]}"; do
    rm -rf "$work/runs.sqlite" "$work/ckpt"
    env ATTNLAB_DATA_DIR="$data" "${clis[$i]}" train --preset teach-lm-gpt --steps "$steps" --eval-every "$steps" \
        --sample-tokens 0 --threads "$threads" --seed "$r" --checkpoint-dir "$work/ckpt" --db "$work/runs.sqlite" \
        --json >"$work/out" 2>"$work/err"
    written=$("${clis[$i]}" generate --run 1 --db "$work/runs.sqlite" --prompt "ROMEO:" --seed 1 --tokens "$tokens" --json |
              python3 -c 'import json, sys; print(json.load(sys.stdin)["seconds"])')
    echo "$(per_step "$work/err") $written" >>"$work/cpp$i"
  done
  "$twin_python" benchmarks/gpt_twin.py --data-dir "$data" --steps "$steps" --tokens "$tokens" --threads "$threads" \
      --seed "$r" 2>/dev/null >"$work/out"
  python3 -c 'import json,sys; e=json.load(open(sys.argv[1])); print(e["seconds_per_step"], e["seconds_writing"], e["seconds_writing_recomputed"])' "$work/out" >>"$work/py"
done
col() { awk -v c="$2" '{print $c}' "$1" | median; }
ts=$(col "$work/py" 1); tw=$(col "$work/py" 2); tr=$(col "$work/py" 3)
for i in "${!clis[@]}"; do
  s=$(col "$work/cpp$i" 1); w=$(col "$work/cpp$i" 2)
  printf '| ours, %s | %.4f | %.2f | **%.2f** | **%.2f** | **%.2f** |\n' "$(label "${clis[$i]}")" "$s" "$w" \
         "$(echo "$s / $ts" | bc -l)" "$(echo "$w / $tw" | bc -l)" "$(echo "$w / $tr" | bc -l)"
done
printf '| twin, PyTorch 2.11 | %.4f | %.2f (nanoGPT generate: %.2f) | | | |\n' "$ts" "$tw" "$tr"
