#!/usr/bin/env bash
# whole-process `attnlab-cli train` against the PyTorch twin (benchmarks/train_loop.py, Debian's
# python3-torch, the same LibTorch), model by model, in alternating rounds; the median of each, with the
# kernel's share of the CPU, page faults and peak memory, from /usr/bin/time.
# Each process: SST-fine, d_model 300, Adam 1e-3, batch 32, shuffled length-bucketed epochs, BATCHES
# training batches, random embeddings, THREADS threads; ours also evaluates dev and test once at the end
# and stores the run (--no-checkpoint: the twin saves nothing either); the twin predicts dev and test once
# (--with-test: the same work; until 2026-11-25 it predicted dev only, a third of ours).
#   benchmarks/twin_rounds.sh [BATCHES=100] [ROUNDS=5] [MODELS="lstm bilstm cnn ssan-rpr ssan-pe ssan2-rpr transformer-rpr essan essan-mean"]
# The twin's flavour: TWIN_PYTHON (default Debian's /usr/bin/python3 with python3-torch 1.13; the pypi
# flavour's ~/.cache/attnlab/venv-torch-2.11.0/bin/python for PyTorch 2.11) and TWIN_ARGS (e.g. --compile).
# Ours: CLI (default build/app/attnlab-cli; build-pypi/app/attnlab-cli for LibTorch 2.11).
# Several flavours in one sweep: CLI="build/app/attnlab-cli build-pypi/app/attnlab-cli" and
# TWINS="eager compile" run every one of them in each round, in that order, and print a Markdown table: each
# side's median seconds and peak MiB, and every CLI's ratio to every twin.
# DEVICE (e.g. cuda:0; default: neither side is told, so both run on the CPU as before) goes to both sides' --device.
# TIME: GNU time (default /usr/bin/time; a GPU machine without it can carry Debian's).
set -euo pipefail
cd "$(dirname "$0")/.."
batches=${1:-100}
rounds=${2:-5}
models=${3:-"lstm bilstm cnn ssan-rpr ssan-pe ssan2-rpr transformer-rpr essan essan-mean"}
cli=${CLI:-build/app/attnlab-cli}
data=${ATTNLAB_DATA_DIR:-../shared/datasets}
threads=${THREADS:-$(nproc)}
gnu_time=${TIME:-/usr/bin/time}
device_args=(); [ -n "${DEVICE:-}" ] && device_args=(--device "$DEVICE")
twin_python=${TWIN_PYTHON:-/usr/bin/python3}
read -r -a twin_args <<<"${TWIN_ARGS:-}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
printf '# %s threads, %s batches, %s rounds (median), SST-fine, d_model 300, device %s; ours %s (%s), twin %s %s (PyTorch %s)\n' \
       "$threads" "$batches" "$rounds" "${DEVICE:-cpu}" "$cli" "$(for c in $cli; do "$c" --version | head -1; done | paste -sd,)" "$twin_python" "${TWIN_ARGS:-eager}" \
       "$("$twin_python" -c 'import torch; print(torch.__version__)')"
read -r -a clis <<<"$cli"
read -r -a twins <<<"${TWINS:-eager}"
several=$(( ${#clis[@]} * ${#twins[@]} > 1 ))
label() { case $1 in build/app/*) echo "Debian 1.13" ;; build-pypi/*) echo "LibTorch 2.11" ;; *) echo "$1" ;; esac; }
if [ "$several" = 1 ]; then
  printf '| model |'; for c in "${clis[@]}"; do printf ' ours %s s |' "$(label "$c")"; done
  for t in "${twins[@]}"; do printf ' twin %s s |' "$t"; done
  for c in "${clis[@]}"; do for t in "${twins[@]}"; do printf ' %s / %s |' "$(label "$c")" "$t"; done; done
  printf ' MiB (same order) |\n|---|'; for _ in $(seq 1 $(( ${#clis[@]} + ${#twins[@]} + ${#clis[@]} * ${#twins[@]} + 1 ))); do printf -- '---:|'; done; echo
else
  printf '%-16s %8s %8s %7s %9s %9s %10s %10s %8s %8s\n' model 'C++ s' 'twin s' ratio 'C++ sys%' 'twin sys%' \
         'C++ faults' 'twin flt' 'C++ MiB' 'twin MiB'
fi
median_of() { awk -v c="$2" '{print $c}' "$1" | median; }
sysshare() { awk '{print 100 * $3 / ($2 + $3)}' "$1" | median; }
div() { awk -v a="$1" -v b="$2" 'BEGIN {print a / b}'; } # awk, not bc: GPU machines may lack bc
for model in $models; do
  case $model in
    lstm) args=(--model lstm --position none) ;;
    bilstm) args=(--model bilstm --position none) ;;
    cnn) args=(--model cnn --position none) ;;
    ssan-rpr) args=(--model ssan --position rpr) ;;
    ssan-pe) args=(--model ssan --position sinusoidal) ;;
    transformer-rpr) args=(--model transformer --position rpr --heads 4) ;;
    ssan2-rpr) args=(--model ssan --position rpr --layers 2) ;;
    essan) args=(--model essan --position rpr --heads 15) ;;
    essan-mean) args=(--model essan --position rpr --heads 15 --pooling mean) ;;
    *) echo "no twin for $model" >&2; continue ;;
  esac
  for i in "${!clis[@]}"; do : >"$work/cpp$i"; done
  for j in "${!twins[@]}"; do : >"$work/py$j"; done
  for r in $(seq 1 "$rounds"); do
    for i in "${!clis[@]}"; do
      "$gnu_time" -f '%e %U %S %R %M' -o "$work/t" env ATTNLAB_DATA_DIR="$data" "${clis[$i]}" train --dataset sst-fine "${args[@]}" \
          --d-model 300 --optimizer adam --lr 0.001 --batch-size 32 --sampling epochs --steps "$batches" \
          --eval-every "$batches" --threads "$threads" ${device_args[@]+"${device_args[@]}"} --no-checkpoint --db "$work/runs.sqlite" --json >/dev/null 2>&1
      cat "$work/t" >>"$work/cpp$i"
    done
    for j in "${!twins[@]}"; do
      variant=(); [ "${twins[$j]}" = compile ] && variant=(--compile)
      "$gnu_time" -f '%e %U %S %R %M' -o "$work/t" "$twin_python" benchmarks/train_loop.py --data-dir "$data" \
          --models "$model" --epochs 1 --batches "$batches" --passes 1 --with-test --threads "$threads" \
          ${device_args[@]+"${device_args[@]}"} ${variant[@]+"${variant[@]}"} ${twin_args[@]+"${twin_args[@]}"} >/dev/null
      cat "$work/t" >>"$work/py$j"
    done
  done
  if [ "$several" = 1 ]; then
    printf '| %s |' "$model"
    for i in "${!clis[@]}"; do printf ' %.2f |' "$(median_of "$work/cpp$i" 1)"; done
    for j in "${!twins[@]}"; do printf ' %.2f |' "$(median_of "$work/py$j" 1)"; done
    for i in "${!clis[@]}"; do for j in "${!twins[@]}"; do
      printf ' **%.2f** |' "$(div "$(median_of "$work/cpp$i" 1)" "$(median_of "$work/py$j" 1)")"; done; done
    mib=""; for i in "${!clis[@]}"; do mib+="$(printf '%.0f' "$(div "$(median_of "$work/cpp$i" 5)" 1024)") / "; done
    for j in "${!twins[@]}"; do mib+="$(printf '%.0f' "$(div "$(median_of "$work/py$j" 5)" 1024)") / "; done
    printf ' %s |\n' "${mib% / }"
  else
    cw=$(median_of "$work/cpp0" 1); pw=$(median_of "$work/py0" 1)
    printf '%-16s %8.2f %8.2f %7.2f %8.1f%% %8.1f%% %10.0f %10.0f %8.0f %8.0f\n' "$model" "$cw" "$pw" \
           "$(div "$cw" "$pw")" "$(sysshare "$work/cpp0")" "$(sysshare "$work/py0")" \
           "$(median_of "$work/cpp0" 4)" "$(median_of "$work/py0" 4)" "$(div "$(median_of "$work/cpp0" 5)" 1024)" \
           "$(div "$(median_of "$work/py0" 5)" 1024)"
  fi
done
