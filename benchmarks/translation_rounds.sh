#!/usr/bin/env bash
# whole-process `attnlab-cli train` on Multi30k de->en against its PyTorch 2.11 twin
# (benchmarks/translation_twin.py), model by model, in alternating rounds; the median of each side's wall time,
# seconds per training step and peak memory, and each of our flavours' ratio to the twin.
# Both sides: the lab's words tokenizer, lowercased, words seen twice; d_model 256 (the Transformer: 3+3 layers,
# 8 heads, FFN 512, sinusoidal positions); batches of 128 pairs drawn at random; Adam 1e-3; no dropout, label
# smoothing or clipping; STEPS training steps, then dev and test decoded greedily in batches of 128. Ours also
# scores both splits (loss, BLEU, chrF) and stores the run (--no-checkpoint: the twin saves nothing either).
# Seconds per step: ours from the progress events (step 11 to the last), the twin's over steps 11..STEPS.
#   benchmarks/translation_rounds.sh [STEPS=30] [ROUNDS=3] [MODELS="bahdanau transformer-seq2seq"]
# CLI: our programs, one or several (default "build/app/attnlab-cli build-pypi/app/attnlab-cli"); TWIN_PYTHON: the
# PyTorch 2.11 venv (~/.cache/attnlab/venv-torch-2.11.0/bin/python); THREADS (default nproc); TIME: GNU time.
set -euo pipefail
cd "$(dirname "$0")/.."
steps=${1:-30}
rounds=${2:-3}
models=${3:-"bahdanau transformer-seq2seq"}
read -r -a clis <<<"${CLI:-build/app/attnlab-cli build-pypi/app/attnlab-cli}"
data=${ATTNLAB_DATA_DIR:-../shared/datasets}
threads=${THREADS:-$(nproc)}
gnu_time=${TIME:-/usr/bin/time}
twin_python=${TWIN_PYTHON:-$HOME/.cache/attnlab/venv-torch-2.11.0/bin/python}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
div() { awk -v a="$1" -v b="$2" 'BEGIN {print a / b}'; }
label() { case $1 in build/app/*) echo "Debian 1.13" ;; build-pypi/*) echo "LibTorch 2.11" ;; *) echo "$1" ;; esac; }
# Ours: seconds per step from the JSON progress lines on stderr, from the first at step >= 11 to the last.
per_step() { python3 -c '
import json, sys
marks = [(e["step"], e["seconds"]) for e in map(json.loads, open(sys.argv[1])) if e.get("event") == "progress"]
first = next(m for m in marks if m[0] >= 11)
print((marks[-1][1] - first[1]) / (marks[-1][0] - first[0]))' "$1"; }
printf '# %s threads, %s steps, %s rounds (median), Multi30k de->en, lowercased, d_model 256; twin %s (PyTorch %s)\n' \
       "$threads" "$steps" "$rounds" "$twin_python" "$("$twin_python" -c 'import torch; print(torch.__version__)')"
printf '| model | side | wall s | s/step | peak MiB | params (no word tables) | wall / twin | step / twin | MiB / twin |\n'
printf '|---|---|---:|---:|---:|---:|---:|---:|---:|\n'
for model in $models; do
  case $model in
    bahdanau) args=(--model bahdanau) ;;
    transformer-seq2seq) args=(--model transformer-seq2seq --position sinusoidal --layers 3 --heads 8 --ffn-hidden 512) ;;
    *) echo "no twin for $model" >&2; continue ;;
  esac
  for i in "${!clis[@]}"; do : >"$work/cpp$i"; done
  : >"$work/py"
  for r in $(seq 1 "$rounds"); do
    for i in "${!clis[@]}"; do
      rm -f "$work/runs.sqlite"
      "$gnu_time" -f '%e %M' -o "$work/t" env ATTNLAB_DATA_DIR="$data" "${clis[$i]}" train --dataset multi30k \
          --source de --target en --lowercase "${args[@]}" --d-model 256 --batch-size 128 --dropout-keep 1 \
          --optimizer adam --lr 0.001 --label-smoothing 0 --steps "$steps" --eval-every "$steps" --threads "$threads" \
          --seed "$r" --no-checkpoint --db "$work/runs.sqlite" --json >"$work/out" 2>"$work/err"
      params=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["params"])' "$work/out")
      echo "$(cat "$work/t") $(per_step "$work/err") $params" >>"$work/cpp$i"
    done
    "$gnu_time" -f '%e %M' -o "$work/t" "$twin_python" benchmarks/translation_twin.py --data-dir "$data" --model "$model" \
        --lowercase --steps "$steps" --d-model 256 --threads "$threads" --seed "$r" >"$work/out"
    echo "$(cat "$work/t") $(python3 -c 'import json,sys; e=json.load(open(sys.argv[1])); print(e["seconds_per_step"], e["params_without_word_tables"])' "$work/out")" >>"$work/py"
  done
  col() { awk -v c="$2" '{print $c}' "$1" | median; }
  tw=$(col "$work/py" 1); ts=$(col "$work/py" 3); tm=$(div "$(col "$work/py" 2)" 1024)
  for i in "${!clis[@]}"; do
    w=$(col "$work/cpp$i" 1); s=$(col "$work/cpp$i" 3); m=$(div "$(col "$work/cpp$i" 2)" 1024)
    printf '| %s | ours, %s | %.1f | %.3f | %.0f | %s | **%.2f** | **%.2f** | %.2f |\n' "$model" "$(label "${clis[$i]}")" \
           "$w" "$s" "$m" "$(col "$work/cpp$i" 4)" "$(div "$w" "$tw")" "$(div "$s" "$ts")" "$(div "$m" "$tm")"
  done
  printf '| %s | twin, PyTorch 2.11 | %.1f | %.3f | %.0f | %s | | | |\n' "$model" "$tw" "$ts" "$tm" "$(col "$work/py" 4)"
done
