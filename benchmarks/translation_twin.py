#!/usr/bin/python3
"""The training step of `attnlab-cli train` on Multi30k de->en as a plain PyTorch (Python) loop, for the
side-by-side in docs/BENCHMARKS.md: the Bahdanau GRU encoder-decoder and the pre-LN Transformer encoder-decoder with
the lab's shapes and parameter counts (core/nn/models/RecurrentSeq2Seq, TransformerSeq2Seq), batches of 128 pairs
drawn at random with replacement (TranslationTask::trainStep), <bos> y / y <eos> with padding 0, cross-entropy that
ignores padding, Adam 1e-3, no dropout (the lab's side is run with --dropout-keep 1). Then, as the lab's run does at
its end, dev and test decoded greedily in length-ordered batches of 128 up to 2 x source length + 10 tokens.
Words: the lab's "words" tokenizer ported (punctuation, quotes, elisions and contractions split off), lowercased with
--lowercase as the lab's option, kept when seen twice: both sides have the same vocabularies and sentence lengths.
    python benchmarks/translation_twin.py --data-dir ../shared/datasets --model bahdanau|transformer-seq2seq
        [--steps 30] [--d-model 256] [--layers 3] [--heads 8] [--ffn 512] [--threads 2] [--seed 1] [--no-decode] [--lowercase]
Prints one JSON line: parameters, vocabulary sizes, seconds per step (steps 11..N), train seconds, decode seconds.
"""
import argparse, gzip, json, math, os, random, re, time, warnings

warnings.filterwarnings("ignore", message=".*(NumPy|nested_tensor).*")

import torch
import torch.nn as nn
import torch.nn.functional as F

BOS, EOS = 2, 3

# The lab's "words" tokenizer (core/data/Tokenizer.cpp, Style::Words), ported line for line so both sides see the
# same tokens, sentence lengths and vocabularies: whitespace chunks; typographic quotes always their own token;
# leading quotes and brackets, trailing punctuation runs, French elisions and English contractions split off.
QUOTES = ["\u201e", "\u201c", "\u201d", "\u00ab", "\u00bb", "\u2039", "\u203a", "\u2018"]
ELISIONS = ["jusqu'", "lorsqu'", "puisqu'", "quelqu'", "qu'", "l'", "d'", "j'", "m'", "n'", "s'", "t'", "c'"]
CONTRACTIONS = ["n't", "'s", "'m", "'re", "'ve", "'ll", "'d"]
SPACES = re.compile(r"[ \t\n\r\f\v]+")  # ASCII whitespace only, as Tokenizer's isSpace
BRACKETS = {"-LRB-": "(", "-RRB-": ")", "-LSB-": "[", "-RSB-": "]", "-LCB-": "{", "-RCB-": "}"}


def ascii_lower(text):  # Tokenizer::lowercased: ASCII and U+00C0..U+00DE but the multiplication sign
    return "".join(chr(ord(c) + 32) if ("A" <= c <= "Z" or ("\u00c0" <= c <= "\u00de" and c != "\u00d7")) else c
                   for c in text)


def is_alpha(c):  # std::isalpha on a byte: ASCII letters, or (as the C++ also accepts) any non-ASCII byte
    return c.isascii() and c.isalpha() or ord(c) >= 0x80


def is_word_char(c):
    return (c.isascii() and c.isalnum()) or c == "_" or ord(c) >= 0x80


def is_entity(s):
    if len(s) < 3 or s[0] != "&" or s[-1] != ";":
        return False
    start = 2 if s[1] == "#" else 1
    return len(s) > start + 1 and all(c.isascii() and c.isalnum() for c in s[start:-1])


def split_chunk(chunk, out):
    if is_entity(chunk):
        out.append(chunk)
        return
    core, tail, lead = chunk, [], 0
    while lead < len(core):
        c = core[lead]
        if c == '"' or c in "([{":
            out.append(c)
            lead += 1
        elif c == "`" and lead + 1 < len(core) and core[lead + 1] == "`":
            out.append("``")
            lead += 2
        elif c == "'" and lead + 1 < len(core) and core[lead + 1] not in "sS" and not (core[lead + 1].isascii() and core[lead + 1].isdigit()):
            out.append("'")
            lead += 1
        else:
            break
    core = core[lead:]
    while core:
        c = core[-1]
        if c == '"' or c in ")]}":
            tail.append(c)
            core = core[:-1]
            continue
        if c in ".,!?;:":
            if c == "." and len(core) > 1 and core.find(".") < len(core) - 1 and core.strip(".") and core[-2] != ".":
                break
            run = 1
            while run < len(core) and core[-1 - run] == c:
                run += 1
            if run == len(core) and not tail and not out:
                break
            tail.append(core[-run:])
            core = core[:-run]
            continue
        if c == "'" and len(core) > 1 and core[-2] not in "sS":
            tail.append("'")
            core = core[:-1]
            continue
        break
    lower = ascii_lower(core)
    for k in ELISIONS:
        if len(lower) > len(k) and lower.startswith(k) and is_alpha(lower[len(k)]):
            out.append(core[:len(k)])
            core = core[len(k):]
            break
    if core:
        lower = ascii_lower(core)
        for k in CONTRACTIONS:
            if len(lower) > len(k) and lower.endswith(k) and is_word_char(lower[-len(k) - 1]):
                tail.append(core[-len(k):])
                core = core[:-len(k)]
                break
    if core:
        out.append(BRACKETS.get(core.upper(), core) if len(core) == 5 else core)
    out.extend(reversed(tail))


def words(line, lowercase):
    tokens = []
    for chunk in SPACES.split(line):
        if not chunk:
            continue
        chunk = chunk.replace("\u2019", "'")
        start = 0
        for k, c in enumerate(chunk):
            if c in QUOTES:
                if k > start:
                    split_chunk(chunk[start:k], tokens)
                tokens.append(c)
                start = k + 1
        if start < len(chunk):
            split_chunk(chunk[start:], tokens)
    return [ascii_lower(t) for t in tokens] if lowercase else tokens


def read(folder, split, lang, lowercase):
    with gzip.open(os.path.join(folder, f"{split}.{lang}.gz"), "rt", encoding="utf-8") as f:
        return [words(line, lowercase) for line in f]


def vocabulary(sentences, target):
    counts = {}
    for s in sentences:
        for w in s:
            counts[w] = counts.get(w, 0) + 1
    words = ["<pad>", "<unk>"] + (["<bos>", "<eos>"] if target else [])
    seen = set(words)
    for s in sentences:  # first appearance order, min count 2 (Vocabulary::fromPairs)
        for w in s:
            if counts[w] >= 2 and w not in seen:
                seen.add(w)
                words.append(w)
    return {w: i for i, w in enumerate(words)}


def ids(sentences, vocab):
    return [[vocab.get(w, 1) for w in s] for s in sentences]


def batch(src, tgt, rows):
    s_len = max(1, max(len(src[r]) for r in rows))
    t_len = max(len(tgt[r]) + 1 for r in rows)
    source = torch.zeros(len(rows), s_len, dtype=torch.long)
    t_in = torch.zeros(len(rows), t_len, dtype=torch.long)
    t_out = torch.zeros(len(rows), t_len, dtype=torch.long)
    for i, r in enumerate(rows):
        source[i, :len(src[r])] = torch.tensor(src[r], dtype=torch.long) if src[r] else source[i, :0]
        t_in[i, 0] = BOS
        if tgt[r]:
            t_in[i, 1:len(tgt[r]) + 1] = torch.tensor(tgt[r])
            t_out[i, :len(tgt[r])] = torch.tensor(tgt[r])
        t_out[i, len(tgt[r])] = EOS
    return source, t_in, t_out


class Bahdanau(nn.Module):
    """BiGRU encoder, additive attention by s_{i-1}, s_i = GRU([y; c], s), p = softmax(W_o [y; s; c])."""

    def __init__(self, vs, vt, d):
        super().__init__()
        self.src = nn.Embedding(vs, d, padding_idx=0)
        self.tgt = nn.Embedding(vt, d, padding_idx=0)
        self.encoder = nn.GRU(d, d, batch_first=True, bidirectional=True)
        self.bridge = nn.Linear(2 * d, d)
        self.query = nn.Linear(d, d, bias=False)
        self.key = nn.Linear(2 * d, d, bias=False)
        self.energy = nn.Linear(d, 1, bias=False)
        self.decoder = nn.GRUCell(d + 2 * d, d)
        self.output = nn.Linear(d + d + 2 * d, vt)

    def encode(self, source):
        mask = source.ne(0)
        lengths = mask.sum(1).clamp(min=1).cpu()
        packed = nn.utils.rnn.pack_padded_sequence(self.src(source), lengths, batch_first=True, enforce_sorted=False)
        states, final = self.encoder(packed)
        states, _ = nn.utils.rnn.pad_packed_sequence(states, batch_first=True, total_length=source.size(1))
        hidden = torch.tanh(self.bridge(torch.cat([final[0], final[1]], 1)))
        return states, self.key(states), mask, hidden

    def step(self, memory, keys, mask, hidden, previous):
        y = self.tgt(previous)
        scores = self.energy(torch.tanh(self.query(hidden).unsqueeze(1) + keys)).squeeze(2)
        weights = torch.softmax(scores.masked_fill(~mask, -1e9), 1)
        context = torch.bmm(weights.unsqueeze(1), memory).squeeze(1)
        hidden = self.decoder(torch.cat([y, context], 1), hidden)
        return self.output(torch.cat([y, hidden, context], 1)), hidden

    def forward(self, source, t_in):
        memory, keys, mask, hidden = self.encode(source)
        logits = []
        for t in range(t_in.size(1)):
            out, hidden = self.step(memory, keys, mask, hidden, t_in[:, t])
            logits.append(out)
        return torch.stack(logits, 1)

    @torch.no_grad()
    def greedy(self, source, limit):
        memory, keys, mask, hidden = self.encode(source)
        previous = torch.full((source.size(0),), BOS, dtype=torch.long)
        done = torch.zeros(source.size(0), dtype=torch.bool)
        for _ in range(limit):
            out, hidden = self.step(memory, keys, mask, hidden, previous)
            previous = out.argmax(1)
            done |= previous.eq(EOS)
            if bool(done.all()):
                break


class Transformer(nn.Module):
    """Pre-LN encoder-decoder as the lab's: sinusoidal positions, embeddings x sqrt(d), final norms, W_o."""

    def __init__(self, vs, vt, d, layers, heads, ffn):
        super().__init__()
        self.d = d
        self.src = nn.Embedding(vs, d, padding_idx=0)
        self.tgt = nn.Embedding(vt, d, padding_idx=0)
        self.core = nn.Transformer(d, heads, layers, layers, ffn, dropout=0.0, batch_first=True, norm_first=True)
        self.output = nn.Linear(d, vt)

    def positions(self, x):
        length = x.size(1)
        pos = torch.arange(length, dtype=x.dtype).unsqueeze(1)
        rates = torch.exp(torch.arange(0, self.d, 2, dtype=x.dtype) * (-math.log(10000.0) / self.d))
        table = torch.zeros(length, self.d, dtype=x.dtype)
        table[:, 0::2] = torch.sin(pos * rates)
        table[:, 1::2] = torch.cos(pos * rates)
        return x + table.unsqueeze(0)

    def forward(self, source, t_in):
        causal = torch.ones(t_in.size(1), t_in.size(1), dtype=torch.bool).triu(1)
        out = self.core(self.positions(self.src(source) * math.sqrt(self.d)), self.positions(self.tgt(t_in) * math.sqrt(self.d)),
                        tgt_mask=causal, src_key_padding_mask=source.eq(0), tgt_key_padding_mask=t_in.eq(0),
                        memory_key_padding_mask=source.eq(0))
        return self.output(out)

    @torch.no_grad()
    def greedy(self, source, limit):  # the whole prefix again at each step, as nn.Transformer users write it
        memory = self.core.encoder(self.positions(self.src(source) * math.sqrt(self.d)), src_key_padding_mask=source.eq(0))
        prefix = torch.full((source.size(0), 1), BOS, dtype=torch.long)
        for _ in range(limit):
            causal = torch.ones(prefix.size(1), prefix.size(1), dtype=torch.bool).triu(1)
            out = self.core.decoder(self.positions(self.tgt(prefix) * math.sqrt(self.d)), memory, tgt_mask=causal,
                                    memory_key_padding_mask=source.eq(0))
            nxt = self.output(out[:, -1]).argmax(1)
            prefix = torch.cat([prefix, nxt.unsqueeze(1)], 1)
            if bool(prefix.eq(EOS).any(1).all()):
                break


def main():
    start = time.perf_counter()
    p = argparse.ArgumentParser()
    p.add_argument("--data-dir", required=True)
    p.add_argument("--model", default="bahdanau", choices=["bahdanau", "transformer-seq2seq"])
    p.add_argument("--steps", type=int, default=30)
    p.add_argument("--d-model", type=int, default=256)
    p.add_argument("--layers", type=int, default=3)
    p.add_argument("--heads", type=int, default=8)
    p.add_argument("--ffn", type=int, default=512)
    p.add_argument("--batch-size", type=int, default=128)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--no-decode", action="store_true")
    p.add_argument("--lowercase", action="store_true", help="as the lab's --lowercase")
    a = p.parse_args()
    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    folder = os.path.join(a.data_dir, "translation", "multi30k")
    train_s, train_t = read(folder, "train", "de", a.lowercase), read(folder, "train", "en", a.lowercase)
    vs, vt = vocabulary(train_s, False), vocabulary(train_t, True)
    src, tgt = ids(train_s, vs), ids(train_t, vt)
    if a.model == "bahdanau":
        model = Bahdanau(len(vs), len(vt), a.d_model)
    else:
        model = Transformer(len(vs), len(vt), a.d_model, a.layers, a.heads, a.ffn)
    params = sum(x.numel() for x in model.parameters() if x.requires_grad)
    tables = model.src.weight.numel() + model.tgt.weight.numel()  # the lab counts parameters without them
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    rng = random.Random(a.seed)
    model.train()
    marks = []
    train_start = time.perf_counter()
    for step in range(a.steps):
        rows = [rng.randrange(len(src)) for _ in range(a.batch_size)]
        source, t_in, t_out = batch(src, tgt, rows)
        logits = model(source, t_in)
        loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), t_out.reshape(-1), ignore_index=0)
        optimizer.zero_grad(set_to_none=False)
        loss.backward()
        optimizer.step()
        marks.append(time.perf_counter())
    train_seconds = time.perf_counter() - train_start
    first = min(10, a.steps - 1)
    per_step = (marks[-1] - marks[first - 1]) / (a.steps - first) if a.steps > first else train_seconds / a.steps
    decode_seconds = 0.0
    if not a.no_decode:
        model.eval()
        t0 = time.perf_counter()
        for split in ("val", "test_2016_flickr"):
            sentences = ids(read(folder, split, "de", a.lowercase), vs)
            order = sorted(range(len(sentences)), key=lambda i: len(sentences[i]))
            for i in range(0, len(order), 128):
                rows = order[i:i + 128]
                source, _, _ = batch(sentences, [[]] * len(sentences), rows)
                model.greedy(source, min(200, 2 * max(len(sentences[r]) for r in rows) + 10))
        decode_seconds = time.perf_counter() - t0
    print(json.dumps({"model": a.model, "torch": torch.__version__, "params": params, "params_without_word_tables": params - tables,
                      "source_vocabulary": len(vs),
                      "target_vocabulary": len(vt), "seconds_per_step": per_step, "train_seconds": train_seconds,
                      "decode_seconds": decode_seconds, "loss": loss.item(), "wall_seconds": time.perf_counter() - start}))


if __name__ == "__main__":
    main()
