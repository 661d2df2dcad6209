#!/usr/bin/env bash
# runs per hour of a repeat (SEEDS seeds) of one model on SST-fine, three ways, on this machine:
#   sweep       attnlab-cli sweep, the local executor's default workers x threads (2 cores: 2 x 1)
#   sequential  attnlab-cli train --repeat SEEDS, one run after another with every core
#   pytorch     benchmarks/train_loop.py (the PyTorch twin: TWIN_PYTHON, default Debian's python3-torch 1.13;
#               ~/.cache/attnlab/venv-torch-2.11.0/bin/python for PyPI's 2.11) run SEEDS times, one
#               after another with every core, the way a user would loop over seeds
# Each run: d_model 300, Adam 1e-3, batch 32, shuffled epochs of length-bucketed batches, BATCHES training
# batches, random embeddings. Ours also evaluates dev and test once at the end and saves the weights; so
# does the twin by default (TWIN=same; TWIN=train: the twin only trains, which tilts the comparison against
# us, as measured until 2026-11-25). Whole processes, wall time by `date +%s.%N`.
#   benchmarks/sweep_throughput.sh [BATCHES=100] [SEEDS=5] [MODELS="ssan-rpr lstm"]
set -euo pipefail
cd "$(dirname "$0")/.."
batches=${1:-100}
seeds=${2:-5}
models=${3:-"ssan-rpr lstm"}
cli=${CLI:-build/app/attnlab-cli}
data=${ATTNLAB_DATA_DIR:-../shared/datasets}
cores=$(nproc)
twin_python=${TWIN_PYTHON:-/usr/bin/python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# What the twin does after training. TWIN=same (the default since 2026-11-25): what ours does, dev and test
# predicted once and the weights saved; TWIN=train: training only (--passes 0), as measured before.
twin=${TWIN:-same}
case $twin in
  same) twin_work="--passes 1 --with-test --save $work/twin-weights" ;;
  train) twin_work="--passes 0" ;;
  *) echo "TWIN must be same or train" >&2; exit 2 ;;
esac
now() { date +%s.%N; }
seedList=$(seq -s, 1 "$seeds")
printf '# %s cores, %s seeds, %s batches per run, SST-fine, d_model 300; ours %s, twin PyTorch %s\n' "$cores" "$seeds" \
       "$batches" "$("$cli" --version | head -1)" "$("$twin_python" -c 'import torch; print(torch.__version__)')"
printf '%-9s %-11s %9s %10s %13s\n' model way 'wall s' 'runs/hour' 'vs pytorch'
for model in $models; do
  case $model in
    ssan-rpr) m=ssan; p=rpr ;;
    lstm) m=lstm; p=none ;;
    *) echo "unknown model $model" >&2; exit 2 ;;
  esac
  set_keys="d_model=300;optimizer=adam;learning_rate=0.001;batch_size=32;sampling=epochs;steps=$batches;eval_every=$batches"
  t0=$(now)
  for s in $(seq 1 "$seeds"); do
    "$twin_python" benchmarks/train_loop.py --data-dir "$data" --models "$model" --epochs 1 --batches "$batches" \
                     $twin_work --threads "$cores" --seed "$s" >/dev/null
  done
  pytorch=$(echo "$(now) - $t0" | bc)
  t0=$(now)
  ATTNLAB_DATA_DIR=$data "$cli" sweep --datasets sst-fine --models "$m" --positions "$p" --seeds "$seedList" \
      --set "$set_keys" --db "$work/sweep-$model.sqlite" --json >/dev/null 2>&1
  sweep=$(echo "$(now) - $t0" | bc)
  t0=$(now)
  ATTNLAB_DATA_DIR=$data "$cli" train --dataset sst-fine --model "$m" --position "$p" --d-model 300 --optimizer adam \
      --lr 0.001 --batch-size 32 --sampling epochs --steps "$batches" --eval-every "$batches" --seed 1 \
      --repeat "$seeds" --threads "$cores" --db "$work/seq-$model.sqlite" --json >/dev/null 2>&1
  sequential=$(echo "$(now) - $t0" | bc)
  for way in pytorch sweep sequential; do
    wall=${!way}
    printf '%-9s %-11s %9.1f %10.0f %12.2fx\n' "$model" "$way" "$wall" "$(echo "$seeds * 3600 / $wall" | bc -l)" \
           "$(echo "$pytorch / $wall" | bc -l)"
  done
done
