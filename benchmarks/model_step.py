#!/usr/bin/python3
"""The models of benchmarks/ModelStepBenchmark.cpp written in plain PyTorch (Python), the way one
usually writes them, timed the same way: forward + backward at batch 32 x length 50 x d_model 300.
Run with Debian's python3-torch (the same LibTorch 1.13 as the C++ build):
    /usr/bin/python3 benchmarks/model_step.py [--repeats N] [--threads N]
"""
import argparse, math, os, time
import torch
import torch.nn as nn
import torch.nn.functional as F

D, B, T, V, C = 300, 32, 50, 20000, 5


class SelfAttention(nn.Module):
    def __init__(self, d, heads, act, rpr_k=0, out_proj=False, mask_proj=False):
        super().__init__()
        self.q, self.k, self.v = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)
        self.o = nn.Linear(d, d) if out_proj else None
        self.h, self.act, self.k_clip, self.mask_proj = heads, act, rpr_k, mask_proj
        if rpr_k:
            self.rel_k = nn.Parameter(torch.randn(2 * rpr_k + 1, d // heads) * 0.05)
            self.rel_v = nn.Parameter(torch.randn(2 * rpr_k + 1, d // heads) * 0.05)

    def forward(self, x, mask):
        b, t, d = x.shape
        dh = d // self.h
        def proj(layer):
            y = self.act(layer(x))
            if self.mask_proj:
                y = y * mask.unsqueeze(-1)
            return y.view(b, t, self.h, dh).transpose(1, 2)
        q, k, v = proj(self.q), proj(self.k), proj(self.v)
        scores = q @ k.transpose(-1, -2)
        if self.k_clip:
            pos = torch.arange(t)
            idx = (pos[None, :] - pos[:, None]).clamp(-self.k_clip, self.k_clip) + self.k_clip
            ak, av = self.rel_k[idx], self.rel_v[idx]                       # [T, T, dh]
            scores = scores + torch.einsum('bhid,ijd->bhij', q, ak)
        scores = scores / math.sqrt(dh)
        scores = scores.masked_fill(~mask[:, None, None, :], -1e9)
        w = scores.softmax(-1)
        out = w @ v
        if self.k_clip:
            out = out + torch.einsum('bhij,ijd->bhid', w, av)
        out = out.transpose(1, 2).reshape(b, t, d)
        return self.o(out) if self.o is not None else out


def masked_mean(x, mask):
    m = mask.unsqueeze(-1).float()
    return (x * m).sum(1) / m.sum(1).clamp_min(1)


class Ssan(nn.Module):
    def __init__(self, rpr_k, heads=1, extended=False):
        super().__init__()
        self.emb = nn.Embedding(V, D, padding_idx=0)
        self.act = (lambda x: x * torch.sigmoid(x)) if extended else F.relu
        self.att = SelfAttention(D, heads, self.act, rpr_k, mask_proj=extended)
        self.ff = nn.Linear(D, D)
        self.extended = extended
        if extended:
            self.ffq = nn.Linear(D, D)
        self.sent, self.out, self.drop = nn.Linear(D, D), nn.Linear(D, C), nn.Dropout(0.2)

    def forward(self, ids, mask):
        x = self.drop(self.emb(ids))
        x = self.act(self.ff(self.att(x, mask)))
        if self.extended:
            x = x * mask.unsqueeze(-1)
        x = self.drop(x)
        if self.extended:
            q = masked_mean(self.act(self.ffq(x)) * mask.unsqueeze(-1), mask)
            w = ((x @ q.unsqueeze(-1)).squeeze(-1) / math.sqrt(D)).masked_fill(~mask, -1e9).softmax(-1)
            pooled = (w.unsqueeze(1) @ x).squeeze(1)
        else:
            pooled = masked_mean(x, mask)
        return self.out(self.drop(self.act(self.sent(pooled))))


class Transformer(nn.Module):
    def __init__(self, rpr_k, heads):
        super().__init__()
        self.emb = nn.Embedding(V, D, padding_idx=0)
        self.att = SelfAttention(D, heads, lambda x: x, rpr_k, out_proj=True)
        self.n1, self.n2 = nn.LayerNorm(D), nn.LayerNorm(D)
        self.f1, self.f2 = nn.Linear(D, 4 * D), nn.Linear(4 * D, D)
        self.out, self.drop = nn.Linear(D, C), nn.Dropout(0.2)

    def forward(self, ids, mask):
        x = self.drop(self.emb(ids))
        x = self.n1(x + self.drop(self.att(x, mask)))
        x = self.n2(x + self.drop(self.f2(self.drop(F.relu(self.f1(x))))))
        return self.out(self.drop(masked_mean(x, mask)))


class Recurrent(nn.Module):
    def __init__(self, cell, bidirectional=False):
        super().__init__()
        self.emb = nn.Embedding(V, D, padding_idx=0)
        self.rnn = {'lstm': nn.LSTM, 'gru': nn.GRU}[cell](D, D, batch_first=True, bidirectional=bidirectional)
        self.bi = bidirectional
        self.hidden, self.out, self.drop = nn.Linear(2 * D if bidirectional else D, 50), nn.Linear(50, C), nn.Dropout(0.2)

    def forward(self, ids, mask):
        packed = nn.utils.rnn.pack_padded_sequence(self.drop(self.emb(ids)), mask.sum(1), batch_first=True,
                                                   enforce_sorted=False)
        _, h = self.rnn(packed)
        if isinstance(h, tuple):
            h = h[0]
        final = torch.cat([h[-2], h[-1]], 1) if self.bi else h[-1]
        return self.out(F.relu(self.hidden(final)))


class Cnn(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, D, padding_idx=0)
        self.convs = nn.ModuleList([nn.Conv1d(D, 100, w) for w in (2, 3, 4)])
        self.hidden, self.out, self.drop = nn.Linear(300, 50), nn.Linear(50, C), nn.Dropout(0.2)

    def forward(self, ids, mask):
        x = (self.drop(self.emb(ids)) * mask.unsqueeze(-1)).transpose(1, 2)
        x = F.pad(x, (0, 3))
        t = ids.shape[1]
        lengths = mask.sum(1, keepdim=True)
        starts = torch.arange(t)[None, :]
        pooled = []
        for w, conv in zip((2, 3, 4), self.convs):
            maps = F.relu(conv(x))[:, :, :t]
            valid = (starts < (lengths - w + 1).clamp_min(1)).unsqueeze(1)
            pooled.append(maps.masked_fill(~valid, -1e9).amax(2))
        return self.out(F.relu(self.hidden(self.drop(torch.cat(pooled, 1)))))


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--repeats', type=int, default=20)
    p.add_argument('--warmup', type=int, default=3)
    p.add_argument('--threads', type=int, default=os.cpu_count())
    a = p.parse_args()
    torch.set_num_threads(a.threads)
    torch.manual_seed(0)
    ids = torch.randint(1, V, (B, T))
    mask = torch.ones(B, T, dtype=torch.bool)
    labels = torch.randint(0, C, (B,))
    cases = [('ssan', 'none', lambda: Ssan(0)), ('ssan', 'rpr', lambda: Ssan(10)),
             ('essan', 'rpr', lambda: Ssan(10, 15, True)), ('transformer', 'rpr', lambda: Transformer(10, 6)),
             ('lstm', 'none', lambda: Recurrent('lstm')), ('bilstm', 'none', lambda: Recurrent('lstm', True)),
             ('gru', 'none', lambda: Recurrent('gru')), ('cnn', 'none', lambda: Cnn())]
    print(f'# PyTorch {torch.__version__}, {torch.get_num_threads()} threads, batch {B} x length {T}, '
          f'd_model {D}, median of {a.repeats}')
    print(f"{'model':<12} {'pos':<6} {'params':>12} {'ms/step':>10}")
    for name, pos, make in cases:
        model = make()
        model.train()
        params = sum(p.numel() for n, p in model.named_parameters() if not n.startswith('emb.'))
        times = []
        for r in range(a.warmup + a.repeats):
            start = time.perf_counter()
            model.zero_grad()
            F.cross_entropy(model(ids, mask), labels).backward()
            if r >= a.warmup:
                times.append((time.perf_counter() - start) * 1000)
        times.sort()
        print(f'{name:<12} {pos:<6} {params:>12} {times[len(times) // 2]:>10.1f}')


if __name__ == '__main__':
    main()
