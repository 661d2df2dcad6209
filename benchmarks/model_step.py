#!/usr/bin/python3
"""The models of benchmarks/ModelStepBenchmark.cpp written in plain PyTorch (Python), the way one
usually writes them, timed the same way: forward + backward at batch 32 x length 50 x d_model 300 for the
classifiers, batch 32 x window 50 x 16 driving series x d_model 64 (MSE) for the time-series regressors.
Run with Debian's python3-torch (the same LibTorch 1.13 as the C++ build):
    /usr/bin/python3 benchmarks/model_step.py [--repeats N] [--warmup N] [--threads N] [--models a,b:pos,...]
"""
import argparse, math, os, time
import torch
import torch.nn as nn
import torch.nn.functional as F

D, B, T, V, C = 300, 32, 50, 20000, 5
RD, RF = 64, 16       # time series: d_model (hidden size) and driving series; window = T
MAX_LENGTH = 512      # ModelConfig::maxLength: rows of the learned position table


def swish(x):
    return x * torch.sigmoid(x)


def sinusoidal(t, d):
    # PositionEncoding::sinusoidal: sin on even, cos on odd dimensions; computed per forward as ours is.
    angles = torch.arange(t, dtype=torch.float)[:, None] * torch.exp(
        torch.arange(0, d, 2, dtype=torch.float) * (-math.log(10000.0) / d))[None, :]
    pe = torch.zeros(t, d)
    pe[:, 0::2] = angles.sin()
    pe[:, 1::2] = angles.cos()
    return pe


def rotary(x):
    # PositionEncoding::rotary: consecutive pairs (x_2i, x_2i+1) rotated by pos * 10000^(-2i/dh).
    t, dh = x.shape[2], x.shape[3]
    angles = torch.arange(t, dtype=x.dtype)[:, None] * torch.exp(
        torch.arange(0, dh, 2, dtype=x.dtype) * (-math.log(10000.0) / dh))[None, :]
    cos, sin = angles.cos(), angles.sin()
    even, odd = x[..., 0::2], x[..., 1::2]
    return torch.stack([even * cos - odd * sin, even * sin + odd * cos], -1).flatten(-2)


def alibi_bias(heads, t):
    # PositionEncoding::alibiBias: -m_h |j - i| with m_h = 2^(-8h/H), symmetric for an encoder; [H, T, T].
    slopes = 2.0 ** (-8.0 * torch.arange(1, heads + 1, dtype=torch.float) / heads)
    pos = torch.arange(t, dtype=torch.float)
    return -slopes[:, None, None] * (pos[None, :] - pos[:, None]).abs()


class SelfAttention(nn.Module):
    def __init__(self, d, heads, act, rpr_k=0, out_proj=False, mask_proj=False, position='none', d_in=None):
        super().__init__()
        d_in = d_in or d
        self.q, self.k, self.v = nn.Linear(d_in, d), nn.Linear(d_in, d), nn.Linear(d_in, d)
        self.o = nn.Linear(d, d) if out_proj else None
        self.h, self.act, self.k_clip, self.mask_proj, self.position = heads, act, rpr_k, mask_proj, position
        if rpr_k:
            self.rel_k = nn.Parameter(torch.randn(2 * rpr_k + 1, d // heads) * 0.05)
            self.rel_v = nn.Parameter(torch.randn(2 * rpr_k + 1, d // heads) * 0.05)

    def forward(self, x, mask):
        b, t, _ = x.shape
        d = self.q.out_features
        dh = d // self.h
        def proj(layer):
            y = self.act(layer(x))
            if self.mask_proj:
                y = y * mask.unsqueeze(-1)
            return y.view(b, t, self.h, dh).transpose(1, 2)
        q, k, v = proj(self.q), proj(self.k), proj(self.v)
        if self.position == 'rope':
            q, k = rotary(q), rotary(k)
        scores = q @ k.transpose(-1, -2)
        if self.k_clip:
            pos = torch.arange(t)
            idx = (pos[None, :] - pos[:, None]).clamp(-self.k_clip, self.k_clip) + self.k_clip
            ak, av = self.rel_k[idx], self.rel_v[idx]                       # [T, T, dh]
            scores = scores + torch.einsum('bhid,ijd->bhij', q, ak)
        scores = scores / math.sqrt(dh)
        if self.position == 'alibi':
            scores = scores + alibi_bias(self.h, t)
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


def attention_pooling(x, mask, ffq, act, mask_proj):
    # ESSAN's AttnSeqRep (SequencePooling "attention"): q = mean_t act(FF_q x_t), weights softmax(q.x_t / sqrt(d)).
    projected = act(ffq(x))
    if mask_proj:
        projected = projected * mask.unsqueeze(-1)
    q = masked_mean(projected, mask)
    w = ((x @ q.unsqueeze(-1)).squeeze(-1) / math.sqrt(x.shape[2])).masked_fill(~mask, -1e9).softmax(-1)
    return (w.unsqueeze(1) @ x).squeeze(1)


class Ssan(nn.Module):
    def __init__(self, position, heads=1, extended=False, pooling=None, layers=1):
        super().__init__()
        self.emb = nn.Embedding(V, D, padding_idx=0)
        self.position = position
        if position == 'learned':   # 'pos', not 'emb.': ours counts it as a trainable parameter
            self.pos = nn.Embedding(MAX_LENGTH, D)
        self.act = swish if extended else F.relu
        self.att = SelfAttention(D, heads, self.act, 10 if position == 'rpr' else 0, mask_proj=extended,
                                 position=position)
        self.ff = nn.Linear(D, D)
        # Layers after the first (ours: attention<l>, ff<l>), each followed by its dropout like the first.
        self.deeper = nn.ModuleList([nn.ModuleList([
            SelfAttention(D, heads, self.act, 10 if position == 'rpr' else 0, mask_proj=extended, position=position),
            nn.Linear(D, D)]) for _ in range(layers - 1)])
        self.extended = extended
        self.pooling = pooling or ('attention' if extended else 'mean')
        if self.pooling == 'attention':
            self.ffq = nn.Linear(D, D)
        self.sent, self.out, self.drop = nn.Linear(D, D), nn.Linear(D, C), nn.Dropout(0.2)

    def forward(self, ids, mask):
        x = self.emb(ids)
        if self.position == 'sinusoidal':
            x = x + sinusoidal(ids.shape[1], D)
        elif self.position == 'learned':
            x = x + self.pos(torch.arange(ids.shape[1]))
        x = self.drop(x)
        x = self.act(self.ff(self.att(x, mask)))
        if self.extended:
            x = x * mask.unsqueeze(-1)
        x = self.drop(x)
        for att, ff in self.deeper:
            x = self.act(ff(att(x, mask)))
            if self.extended:
                x = x * mask.unsqueeze(-1)
            x = self.drop(x)
        if self.pooling == 'attention':
            pooled = attention_pooling(x, mask, self.ffq, self.act, self.extended)
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
    def __init__(self, cell, bidirectional=False, attention=False):
        super().__init__()
        self.emb = nn.Embedding(V, D, padding_idx=0)
        self.rnn = {'rnn': nn.RNN, 'lstm': nn.LSTM, 'gru': nn.GRU}[cell](D, D, batch_first=True,
                                                                        bidirectional=bidirectional)
        self.bi, self.attention = bidirectional, attention
        width = 2 * D if bidirectional else D
        if attention:   # rnn-attention: e_t = v^T tanh(W h_t + b), v without bias
            self.att_hidden, self.att_score = nn.Linear(width, D), nn.Linear(D, 1, bias=False)
        self.hidden, self.out, self.drop = nn.Linear(width, 50), nn.Linear(50, C), nn.Dropout(0.2)

    def forward(self, ids, mask):
        packed = nn.utils.rnn.pack_padded_sequence(self.drop(self.emb(ids)), mask.sum(1).cpu(), batch_first=True,
                                                   enforce_sorted=False)
        out, h = self.rnn(packed)
        if self.attention:
            states, _ = nn.utils.rnn.pad_packed_sequence(out, batch_first=True, total_length=ids.shape[1])
            scores = self.att_score(torch.tanh(self.att_hidden(states))).squeeze(-1)
            w = scores.masked_fill(~mask, -1e9).softmax(-1)
            return self.out(F.relu(self.hidden((w.unsqueeze(1) @ states).squeeze(1))))
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


class LogisticRegression(nn.Module):
    def __init__(self, bag_of_words):
        super().__init__()
        self.bag = bag_of_words
        if bag_of_words:   # Bow: a class-score row per word, counted as parameters (ours names it word_weights)
            self.word_weights = nn.Embedding(V, C, padding_idx=0)
            self.bias = nn.Parameter(torch.zeros(C))
        else:              # Ave: no dropout, as ours
            self.emb = nn.Embedding(V, D, padding_idx=0)
            self.out = nn.Linear(D, C)

    def forward(self, ids, mask):
        if self.bag:
            return (self.word_weights(ids) * mask.unsqueeze(-1)).sum(1) + self.bias
        return self.out(masked_mean(self.emb(ids), mask))


class EssanRegressor(nn.Module):
    # Registry defaults: 1 head, RPR k = 10, Swish, attention pooling; no mask after FFs (windows are full).
    def __init__(self):
        super().__init__()
        self.att = SelfAttention(RD, 1, swish, 10, d_in=RF + 1)
        self.ff, self.ffq, self.sent = nn.Linear(RD, RD), nn.Linear(RD, RD), nn.Linear(RD, RD)
        self.out, self.drop = nn.Linear(RD, 1), nn.Dropout(0.2)

    def forward(self, drivers, history):
        mask = torch.ones(drivers.shape[:2], dtype=torch.bool)
        x = self.drop(torch.cat([drivers, history.unsqueeze(-1)], -1))
        x = self.drop(swish(self.ff(self.att(x, mask))))
        pooled = attention_pooling(x, mask, self.ffq, swish, False)
        return self.out(self.drop(swish(self.sent(pooled)))).squeeze(-1)


class RecurrentRegressor(nn.Module):
    def __init__(self, kind):
        super().__init__()
        self.kind = kind
        if kind == 'narx':
            self.encoder = nn.LSTM(RF + 1, RD, batch_first=True)
            self.out = nn.Linear(RD, 1)
            return
        self.encoder, self.decoder = nn.LSTM(RF, RD, batch_first=True), nn.LSTM(1, RD, batch_first=True)
        if kind == 'attn-rnn':
            self.att_hidden, self.att_score = nn.Linear(2 * RD, RD), nn.Linear(RD, 1, bias=False)
        self.out = nn.Linear(2 * RD if kind == 'attn-rnn' else RD, 1)

    def forward(self, drivers, history):
        if self.kind == 'narx':
            states, _ = self.encoder(torch.cat([drivers, history.unsqueeze(-1)], -1))
            return self.out(states[:, -1]).squeeze(-1)
        encoded, state = self.encoder(drivers)
        decoded, _ = self.decoder(history[:, :-1].unsqueeze(-1), state)   # y_1..y_{T-1}
        last = decoded[:, -1]
        if self.kind != 'attn-rnn':
            return self.out(last).squeeze(-1)
        query = last.unsqueeze(1).expand_as(encoded)
        w = self.att_score(torch.tanh(self.att_hidden(torch.cat([query, encoded], -1)))).squeeze(-1).softmax(-1)
        context = (w.unsqueeze(1) @ encoded).squeeze(1)
        return self.out(torch.cat([last, context], -1)).squeeze(-1)


class Darnn(nn.Module):
    def __init__(self):
        super().__init__()
        m = RD
        self.enc_cell, self.dec_cell = nn.LSTMCell(RF, m), nn.LSTMCell(1, m)
        self.in_w, self.in_u, self.in_v = nn.Linear(2 * m, T), nn.Linear(T, T, bias=False), nn.Linear(T, 1, bias=False)
        self.tm_w, self.tm_u, self.tm_v = nn.Linear(2 * m, m), nn.Linear(m, m, bias=False), nn.Linear(m, 1, bias=False)
        self.dec_in, self.out_w, self.out_v = nn.Linear(m + 1, 1), nn.Linear(2 * m, m), nn.Linear(m, 1)

    def forward(self, drivers, history):
        b, t, _ = drivers.shape
        h = s = torch.zeros(b, RD)
        series_term = self.in_u(drivers.transpose(1, 2))                     # U_e x^k once: [B, F, T]
        states = []
        for step in range(t):
            e = self.in_v(torch.tanh(self.in_w(torch.cat([h, s], 1)).unsqueeze(1) + series_term)).squeeze(-1)
            h, s = self.enc_cell(e.softmax(1) * drivers[:, step], (h, s))
            states.append(h)
        encoded = torch.stack(states, 1)
        encoded_term = self.tm_u(encoded)
        d = sd = torch.zeros(b, RD)
        def attend():
            l = self.tm_v(torch.tanh(self.tm_w(torch.cat([d, sd], 1)).unsqueeze(1) + encoded_term)).squeeze(-1)
            return (l.softmax(1).unsqueeze(1) @ encoded).squeeze(1)
        for step in range(t - 1):
            context = attend()
            d, sd = self.dec_cell(self.dec_in(torch.cat([history[:, step:step + 1], context], 1)), (d, sd))
        return self.out_v(self.out_w(torch.cat([d, attend()], 1))).squeeze(-1)


def median_ms(step, warmup, repeats):
    times = []
    for r in range(warmup + repeats):
        start = time.perf_counter()
        step()
        if r >= warmup:
            times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return times[len(times) // 2]


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--repeats', type=int, default=20)
    p.add_argument('--warmup', type=int, default=3)
    p.add_argument('--threads', type=int, default=os.cpu_count())
    p.add_argument('--models', default='', help='comma-separated "model" or "model:pos" labels; default all')
    a = p.parse_args()
    torch.set_num_threads(a.threads)
    wanted = [w for w in a.models.split(',') if w]
    # Labels are unique: essan-mean is ESSAN with mean pooling (the "w/o AttnSeqRep" ablation),
    # essan-ts the time-series ESSAN.
    classifiers = [('ssan', 'none', lambda: Ssan('none')), ('ssan', 'rpr', lambda: Ssan('rpr')),
                   ('ssan', 'sinusoidal', lambda: Ssan('sinusoidal')), ('ssan', 'learned', lambda: Ssan('learned')),
                   ('ssan', 'rope', lambda: Ssan('rope')), ('ssan', 'alibi', lambda: Ssan('alibi')),
                   ('ssan2', 'rpr', lambda: Ssan('rpr', layers=2)),
                   ('essan', 'rpr', lambda: Ssan('rpr', 15, True)),
                   ('essan-mean', 'rpr', lambda: Ssan('rpr', 15, True, 'mean')),
                   ('transformer', 'rpr', lambda: Transformer(10, 6)),
                   ('rnn', 'none', lambda: Recurrent('rnn')), ('lstm', 'none', lambda: Recurrent('lstm')),
                   ('bilstm', 'none', lambda: Recurrent('lstm', True)), ('gru', 'none', lambda: Recurrent('gru')),
                   ('rnn-attention', 'none', lambda: Recurrent('lstm', True, True)), ('cnn', 'none', lambda: Cnn()),
                   ('bow', 'none', lambda: LogisticRegression(True)), ('ave', 'none', lambda: LogisticRegression(False))]
    regressors = [('essan-ts', 'rpr', EssanRegressor), ('narx', 'none', lambda: RecurrentRegressor('narx')),
                  ('encdec', 'none', lambda: RecurrentRegressor('encdec')),
                  ('attn-rnn', 'none', lambda: RecurrentRegressor('attn-rnn')), ('darnn', 'none', Darnn)]
    def chosen(cases):
        return [c for c in cases if not wanted or c[0] in wanted or f'{c[0]}:{c[1]}' in wanted]
    known = {x for name, pos, _ in classifiers + regressors for x in (name, f'{name}:{pos}')}
    for w in wanted:
        if w not in known:
            print(f'# no case is labelled {w}')
    torch.manual_seed(0)
    ids = torch.randint(1, V, (B, T))
    mask = torch.ones(B, T, dtype=torch.bool)
    labels = torch.randint(0, C, (B,))
    drivers, history, target = torch.randn(B, T, RF), torch.randn(B, T), torch.randn(B)
    row = '{:<14} {:<10} {:>12} {:>10}'
    print(f'# PyTorch {torch.__version__}, {torch.get_num_threads()} threads, median of {a.repeats}')
    for title, cases, inputs, loss, truth in (
            (f'classification: batch {B} x length {T}, d_model {D}, cross-entropy', classifiers, (ids, mask),
             F.cross_entropy, labels),
            (f'time series: batch {B} x window {T}, {RF} driving series, d_model {RD}, MSE', regressors,
             (drivers, history), F.mse_loss, target)):
        cases = chosen(cases)
        if not cases:
            continue
        print(f'# {title}')
        print(row.format('model', 'pos', 'params', 'ms/step'))
        for name, pos, make in cases:
            model = make()
            model.train()
            params = sum(p.numel() for n, p in model.named_parameters() if not n.startswith('emb.'))
            def step():
                model.zero_grad()
                loss(model(*inputs), truth).backward()
            print(row.format(name, pos, params, f'{median_ms(step, a.warmup, a.repeats):.1f}'), flush=True)


if __name__ == '__main__':
    main()
