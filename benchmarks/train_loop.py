#!/usr/bin/python3
"""The training side of `attnlab-cli bench` (thesis Table 5.4 protocol) as a plain PyTorch (Python) loop, for
the side-by-side in docs/BENCHMARKS.md: SST-fine sentences, shuffled epochs of length-bucketed batches of 32
(shuffle, pools of 20 batches sorted by length, batch order shuffled: BatchBuilder::epochBatches), Adam 1e-3,
zero_grad in place; then predictions for dev P times in batches of 32 sorted by length. Models are
benchmarks/model_step.py's twins at d_model 300 with the vocabulary of SST-fine train. Run with Debian's
python3-torch (the same LibTorch 1.13 as the C++ build), or with the PyTorch 2.11 users install from PyPI (
the pypi flavour's environment, ~/.cache/attnlab/venv-torch-2.11.0/bin/python), eager or --compile:
    /usr/bin/python3 benchmarks/train_loop.py [--data-dir DIR] [--epochs N] [--batches N] [--passes N] [--threads N] [--seed S]
                                              [--models lstm,bilstm,cnn,ssan-rpr,ssan-pe,transformer-rpr,ssan2-rpr,essan,essan-mean]
                                              [--with-test] [--save DIR] [--compile] [--device cpu|cuda]
                                              [--cuda-graph BUCKET]
--compile: torch.compile (inductor, dynamic shapes: every batch has its own length) for the training step's
model and for prediction; the first training batch, where compiling happens, is timed on its own ("first s")
and stays in "train s" and in the process's wall time.
--cuda-graph BUCKET (CUDA only; question "what does one graph a step give?"): every batch padded to
its length rounded up to a multiple of BUCKET tokens, and the whole step (zero_grad, forward, backward,
Adam with capturable=True) captured once per bucket as a CUDA graph, then replayed: the step launches one
graph instead of hundreds of kernels. Each bucket's capture (one warm-up step on a side stream, then the
capture, both real training steps on that batch) is in "train s"; "first s" is the time of all captures.
A model whose step cannot be captured prints its error instead of a row.
"""
import argparse, itertools, os, random, re, sys, time
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import model_step as ms  # noqa: E402

LEAF = re.compile(r'\((\d) ([^()\s]+)\)')
POOL_BATCHES = 20  # BatchBuilder::kEpochPoolBatches


def read_sst(path):
    """(tokens, label) per sentence: the leaves of each PTB tree, the root's label."""
    examples = []
    with open(path, encoding='utf-8') as f:
        for line in f:
            line = line.strip()
            if line:
                examples.append(([w for _, w in LEAF.findall(line)], int(line[1])))
    return examples


def pad(batch, device='cpu'):
    # Built on the CPU and moved once (as BatchBuilder's tensors are): with --device cuda the default device is
    # the GPU, and a tensor per row there would be a copy per row.
    t = max(len(ids) for ids, _ in batch)
    ids = torch.zeros(len(batch), t, dtype=torch.long, device='cpu')
    for i, (seq, _) in enumerate(batch):
        ids[i, :len(seq)] = torch.tensor(seq, device='cpu')
    labels = torch.tensor([label for _, label in batch], device='cpu')
    ids, labels = ids.to(device), labels.to(device)
    return ids, ids != 0, labels


def pad_to(batch, length):
    """A batch as pinned host tensors padded to a bucket's length (the graph's static shape)."""
    ids = torch.zeros(len(batch), length, dtype=torch.long, device='cpu').pin_memory()
    for i, (seq, _) in enumerate(batch):
        ids[i, :len(seq)] = torch.tensor(seq, device='cpu')
    labels = torch.tensor([label for _, label in batch], device='cpu').pin_memory()
    return ids, labels


class GraphedStep:
    """The training step as one CUDA graph per (batch size, bucket length): static input buffers on the device,
    gradients allocated once outside every graph (zeroed inside it), Adam's state and step count on the device."""

    def __init__(self, model, opt, device):
        self.model, self.opt, self.device, self.graphs = model, opt, device, {}
        self.capture_s, self.failed = 0.0, False

    def _body(self, ids, labels):
        self.opt.zero_grad(set_to_none=False)
        loss = F.cross_entropy(self.model(ids, ids != 0), labels)
        loss.backward()
        self.opt.step()
        return loss

    def __call__(self, host_ids, host_labels):
        key = tuple(host_ids.shape)
        if key not in self.graphs:
            start = time.perf_counter()
            ids = torch.empty(key, dtype=torch.long, device=self.device)
            labels = torch.empty(host_labels.shape, dtype=torch.long, device=self.device)
            ids.copy_(host_ids), labels.copy_(host_labels)
            side = torch.cuda.Stream(self.device)
            side.wait_stream(torch.cuda.current_stream(self.device))
            with torch.cuda.stream(side):  # warm-up: cuBLAS/cuDNN handles, gradients and Adam's state exist after it
                self._body(ids, labels)
            torch.cuda.current_stream(self.device).wait_stream(side)
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(graph):
                loss = self._body(ids, labels)
            self.graphs[key] = (graph, ids, labels, loss)
            torch.cuda.synchronize(self.device)
            self.capture_s += time.perf_counter() - start
        graph, ids, labels, _ = self.graphs[key]
        ids.copy_(host_ids, non_blocking=True)
        labels.copy_(host_labels, non_blocking=True)
        graph.replay()


def epoch_batches(examples, rng, size):
    order = list(range(len(examples)))
    rng.shuffle(order)
    batches = []
    pool = POOL_BATCHES * size
    for start in range(0, len(order), pool):
        chunk = sorted(order[start:start + pool], key=lambda i: len(examples[i][0]))
        batches += [chunk[i:i + size] for i in range(0, len(chunk), size)]
    rng.shuffle(batches)
    return batches


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--data-dir', default=os.environ.get('ATTNLAB_DATA_DIR', '../shared/datasets'))
    p.add_argument('--epochs', type=int, default=10)
    p.add_argument('--passes', type=int, default=10)
    p.add_argument('--threads', type=int, default=os.cpu_count())
    p.add_argument('--models', default='lstm,bilstm,cnn,ssan-rpr,ssan-pe,transformer-rpr')
    p.add_argument('--batches', type=int, default=0, help='stop training after this many batches (0: whole epochs)')
    p.add_argument('--seed', type=int, default=1, help='initialisation and batch order')
    p.add_argument('--save', default='', help='save each trained model\'s weights (state_dict) to this folder, '
                   'as attnlab-cli keeps every run\'s weights')
    p.add_argument('--device', default='cpu', help='cpu, cuda or cuda:N (PyTorch 2.x: the default device, so '
                   'the twins\' parameters and the tensors their forward makes live there)')
    p.add_argument('--compile', action='store_true', help='torch.compile the model (PyTorch 2.x; inductor on CPU)')
    p.add_argument('--cuda-graph', type=int, default=0, metavar='BUCKET',
                   help='CUDA: pad batches to multiples of BUCKET tokens and replay one captured graph per bucket')
    p.add_argument('--with-test', action='store_true',
                   help='also predict the test set once after the dev passes (as attnlab-cli train measures test)')
    a = p.parse_args()
    torch.set_num_threads(a.threads)
    device = torch.device(a.device)
    if device.type != 'cpu':
        torch.set_default_device(device)
    sync = (lambda: torch.cuda.synchronize(device)) if device.type == 'cuda' else (lambda: None)
    sst = os.path.join(a.data_dir, 'sentiment', 'sst')
    train, dev = read_sst(os.path.join(sst, 'train.txt')), read_sst(os.path.join(sst, 'dev.txt'))
    vocab = {'<pad>': 0, '<unk>': 1}
    for tokens, _ in train:
        for w in tokens:
            vocab.setdefault(w, len(vocab))
    encode = lambda ex: [([vocab.get(w, 1) for w in t], y) for t, y in ex]  # noqa: E731
    train, dev = encode(train), encode(dev)
    ms.V = len(vocab)
    makers = {'lstm': lambda: ms.Recurrent('lstm'), 'bilstm': lambda: ms.Recurrent('lstm', True), 'cnn': ms.Cnn,
              'ssan-rpr': lambda: ms.Ssan('rpr'), 'ssan-pe': lambda: ms.Ssan('sinusoidal'),
              'transformer-rpr': lambda: ms.Transformer(10, 4), 'ssan2-rpr': lambda: ms.Ssan('rpr', layers=2),
              'essan': lambda: ms.Ssan('rpr', 15, True), 'essan-mean': lambda: ms.Ssan('rpr', 15, True, 'mean')}
    by_length = lambda s: [pad(b, device) for b in (lambda s: [s[i:i + 32] for i in range(0, len(s), 32)])(  # noqa: E731
        sorted(s, key=lambda e: len(e[0])))]
    dev_batches = by_length(dev)
    test_batches = by_length(encode(read_sst(os.path.join(sst, 'test.txt')))) if a.with_test else []
    per_epoch = (len(train) + 31) // 32
    print(f'# PyTorch {torch.__version__} on {device}, {torch.get_num_threads()} threads; SST-fine train {len(train)} sentences, '
          f'{a.epochs} epochs x {per_epoch} batches of 32, dev {a.passes} x {len(dev_batches)} batches; '
          f'vocabulary {len(vocab)}')
    row = '{:<18} {:>10} {:>10} {:>10} {:>10} {:>10}'
    print(row.format('model', 'params', 'train s', 's/epoch', 'predict s', 'first s'))
    for name in [m for m in a.models.split(',') if m]:
        if name not in makers:
            print(f'# no twin for {name}')
            continue
        torch.manual_seed(a.seed)
        model = makers[name]()
        params = sum(p.numel() for n, p in model.named_parameters() if not n.startswith('emb.'))
        opt = torch.optim.Adam(model.parameters(), lr=1e-3, capturable=bool(a.cuda_graph))
        run = torch.compile(model, dynamic=True) if a.compile else model  # shares the parameters
        graphed = GraphedStep(model, opt, device) if a.cuda_graph else None
        rng = random.Random(a.seed)
        first_s = 0.0
        model.train()
        start = time.perf_counter()
        done = 0
        # --batches N: as many epochs as N batches take (until 2026-11-25 --epochs capped it: with --epochs 1 a
        # 1000-batch twin trained SST-fine's 267 batches only, against our 1000).
        for _ in (itertools.count() if a.batches else range(a.epochs)):
            if (a.batches and done >= a.batches) or (graphed is not None and graphed.failed):
                break
            for indices in epoch_batches(train, rng, 32):
                if a.batches and done >= a.batches:
                    break
                done += 1
                if graphed is not None:
                    batch = [train[i] for i in indices]
                    longest = max(len(ids) for ids, _ in batch)
                    try:
                        graphed(*pad_to(batch, -(-longest // a.cuda_graph) * a.cuda_graph))
                    except RuntimeError as e:
                        print(f'# {name}: the step could not be captured as a CUDA graph: {str(e).splitlines()[0]}')
                        graphed.failed = True
                        break
                    continue
                ids, mask, labels = pad([train[i] for i in indices], device)
                opt.zero_grad(set_to_none=False)
                F.cross_entropy(run(ids, mask), labels).backward()
                opt.step()
                if done == 1:
                    sync()
                    first_s = time.perf_counter() - start
        sync()
        train_s = time.perf_counter() - start
        if graphed is not None:
            if graphed.failed:
                continue
            first_s = graphed.capture_s
        model.eval()
        start = time.perf_counter()
        with torch.no_grad():
            for _ in range(a.passes):
                for ids, mask, _ in dev_batches:
                    run(ids, mask).argmax(1)
            for ids, mask, _ in test_batches:
                run(ids, mask).argmax(1)
        sync()
        predict_s = time.perf_counter() - start
        if a.save:
            os.makedirs(a.save, exist_ok=True)
            torch.save(model.state_dict(), os.path.join(a.save, f'{name}-seed{a.seed}.pt'))
        print(row.format(name, params, f'{train_s:.1f}', f'{train_s / a.epochs:.1f}', f'{predict_s:.2f}', f'{first_s:.2f}'),
              flush=True)


if __name__ == '__main__':
    main()
