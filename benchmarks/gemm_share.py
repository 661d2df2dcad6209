#!/usr/bin/python3
"""How close each model's training step is to what these cores can do: the step's useful FLOPs
(its matrix products and convolutions, forward and backward, counted on the PyTorch twin of benchmarks/model_step.py
by torch.utils.flop_counter at the same shapes: batch 32 x length 50, d_model 300) over our step's time
(attnlab-bench-models, the same shapes, forward + backward), as a share of the cores' large-GEMM rate measured by
the same program with the same BLAS (`--gemm`). Element-wise work, softmax, the embedding's gather and the
optimiser count as overhead: a share of 1.0 would be a step made only of large products at the GEMM's speed.
    ~/.cache/attnlab/venv-torch-2.11.0/bin/python benchmarks/gemm_share.py --bench build/benchmarks/attnlab-bench-models \
        [--threads 2] [--gemm 2048] [--repeats 20]
Needs PyTorch >= 2.1 (the flop counter) for the counting; the timing is the C++ program's, whichever LibTorch it has.
"""
import argparse, os, re, subprocess, sys
import torch
import torch.nn.functional as F
from torch.utils.flop_counter import FlopCounterMode

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import model_step as ms  # noqa: E402

# Table 5.4's nine models: our benchmark's label:pos, and the twin that counts its FLOPs.
MODELS = [('lstm:none', 'LSTM', lambda: ms.Recurrent('lstm')),
          ('bilstm:none', 'BiLSTM', lambda: ms.Recurrent('lstm', True)),
          ('cnn:none', 'CNN', lambda: ms.Cnn()),
          ('ssan:rpr', '1-layer SSAN + RPR', lambda: ms.Ssan('rpr')),
          ('ssan:sinusoidal', '1-layer SSAN + PE', lambda: ms.Ssan('sinusoidal')),
          ('ssan2:rpr', '2-layer SSAN + RPR', lambda: ms.Ssan('rpr', layers=2)),
          ('transformer:rpr', 'Transformer + RPR', lambda: ms.Transformer(10, 6)),
          ('essan-mean:rpr', 'ESSAN w/o AttnSeqRep', lambda: ms.Ssan('rpr', 15, True, 'mean')),
          ('essan:rpr', 'ESSAN', lambda: ms.Ssan('rpr', 15, True))]


def step_flops(make):
    torch.manual_seed(0)
    ids = torch.randint(1, ms.V, (ms.B, ms.T))
    mask = torch.ones(ms.B, ms.T, dtype=torch.bool)
    labels = torch.randint(0, ms.C, (ms.B,))
    model = make()
    model.train()
    with FlopCounterMode(display=False) as counter:
        F.cross_entropy(model(ids, mask), labels).backward()
    return counter.get_total_flops()


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--bench', required=True, help='the attnlab-bench-models program to time the steps with')
    p.add_argument('--threads', type=int, default=2)
    p.add_argument('--gemm', type=int, default=2048)
    p.add_argument('--repeats', type=int, default=20)
    a = p.parse_args()
    torch.set_num_threads(a.threads)
    labels = ','.join(label for label, _, _ in MODELS)
    out = subprocess.run([a.bench, '--threads', str(a.threads), '--gemm', str(a.gemm), '--repeats', str(a.repeats),
                          '--models', labels], check=True, capture_output=True, text=True).stdout
    gemm = re.search(r'# GEMM .*?([\d.]+) GFLOP/s \((.*)\)', out)
    if not gemm:
        sys.exit('gemm_share: no GEMM line in the benchmark\'s output:\n' + out)
    rate = float(gemm.group(1)) * 1e9
    times = {f'{m.group(1)}:{m.group(2)}': float(m.group(3))
             for m in re.finditer(r'^(\S+)\s+(\S+)\s+\d+\s+([\d.]+)$', out, re.M)}
    print(f'# {a.gemm} x {a.gemm} GEMM: {rate / 1e9:.1f} GFLOP/s ({gemm.group(2)}); FLOPs counted on PyTorch '
          f'{torch.__version__}\'s twins; batch {ms.B} x length {ms.T}, d_model {ms.D}')
    print('| model | GFLOP a step (fwd + bwd) | ms a step | GFLOP/s | share of the GEMM rate |')
    print('| --- | --- | --- | --- | --- |')
    for label, name, make in MODELS:
        flops = step_flops(make)
        ms_step = times.get(label)
        if ms_step is None:
            print(f'| {name} | {flops / 1e9:.2f} | not timed | | |')
            continue
        achieved = flops / (ms_step / 1e3)
        print(f'| {name} | {flops / 1e9:.2f} | {ms_step:.1f} | {achieved / 1e9:.1f} | {achieved / rate:.2f} |')


if __name__ == '__main__':
    main()
