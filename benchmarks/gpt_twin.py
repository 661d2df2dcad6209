#!/usr/bin/python3
"""The lab's GPT on tiny Shakespeare (`attnlab-cli train --preset teach-lm-gpt`) as a plain PyTorch (Python) loop, for
the side-by-side in docs/BENCHMARKS.md. The same model and parameter count (core/nn/models/GptModel,
core/nn/layers/TransformerBlock): token embedding and learned positions, pre-LN blocks of causal self-attention
(q, k, v and output projections with biases) and a GELU MLP of 4 d, a final LayerNorm, the output tied to the token
embedding without a bias; 801,664 parameters without the position table at nanoGPT's laptop sizes. Training as
LanguageModelTask: windows of the context's length at random offsets of the first 90% of the characters (nanoGPT's
split), cross-entropy over every position, AdamW (weight decay on every parameter, as the lab), linear warm-up then
cosine decay to 0, gradients clipped at norm 1. Attention through F.scaled_dot_product_attention (PyTorch's fused
kernel, as nanoGPT uses it). Then `--tokens` characters written after "ROMEO:" one at a time by sampling at
temperature 1 over a key/value cache, as `attnlab-cli generate` writes, and again as nanoGPT's generate() writes (no
cache: the whole context run again for each character).
    python benchmarks/gpt_twin.py --data-dir $ATTNLAB_DATA_DIR [--steps 200] [--tokens 500] [--threads 2] [--seed 1]
                                  [--compile]
--compile: the training step through torch.compile (inductor; compiled within the first 10 steps, outside the timing).
Prints one JSON line: parameters, seconds per training step (steps 11..N), the last training loss, seconds to write.
"""
import argparse, gzip, json, math, os, time

import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.norm1, self.norm2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.q, self.k, self.v, self.o = (nn.Linear(d, d) for _ in range(4))
        self.ffn_in, self.ffn_out = nn.Linear(d, 4 * d), nn.Linear(4 * d, d)

    def split(self, x):  # [B, T, d] -> [B, H, T, d/H]
        b, t, d = x.shape
        return x.view(b, t, self.heads, d // self.heads).transpose(1, 2)

    def forward(self, x, cache=None):
        h = self.norm1(x)
        q, k, v = self.split(self.q(h)), self.split(self.k(h)), self.split(self.v(h))
        if cache is not None:  # generation: this block's keys and values so far, the new ones appended
            if cache:
                k, v = torch.cat([cache[0], k], 2), torch.cat([cache[1], v], 2)
            cache[:] = [k, v]
        a = F.scaled_dot_product_attention(q, k, v, is_causal=cache is None)
        x = x + self.o(a.transpose(1, 2).reshape(x.shape))
        return x + self.ffn_out(F.gelu(self.ffn_in(self.norm2(x))))


class Gpt(nn.Module):
    def __init__(self, vocabulary, d, layers, heads, context):
        super().__init__()
        self.tokens = nn.Embedding(vocabulary, d)
        self.positions = nn.Embedding(context, d)
        self.blocks = nn.ModuleList(Block(d, heads) for _ in range(layers))
        self.final = nn.LayerNorm(d)
        # GPT-2's initialisation, as the lab's GptModel (nanoGPT's _init_weights): N(0, 0.02), biases 0, LayerNorms
        # 1 and 0, the residual projections (attention output, MLP out) N(0, 0.02 / sqrt(2 layers)).
        with torch.no_grad():
            for name, t in self.named_parameters():
                if "norm" in name or name.startswith("final"):
                    continue
                if name.endswith(".bias"):
                    t.zero_()
                elif name.endswith("o.weight") or name.endswith("ffn_out.weight"):
                    t.normal_(0.0, 0.02 / math.sqrt(2 * layers))
                else:
                    t.normal_(0.0, 0.02)

    def forward(self, ids, caches=None, start=0):
        x = self.tokens(ids) + self.positions(torch.arange(start, start + ids.size(1)))
        for i, block in enumerate(self.blocks):
            x = block(x, None if caches is None else caches[i])
        return self.final(x) @ self.tokens.weight.t()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--data-dir", default=os.environ.get("ATTNLAB_DATA_DIR", "../shared/datasets"))
    p.add_argument("--steps", type=int, default=200)
    p.add_argument("--tokens", type=int, default=500)
    p.add_argument("--threads", type=int, default=os.cpu_count())
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--d-model", type=int, default=128)
    p.add_argument("--layers", type=int, default=4)
    p.add_argument("--heads", type=int, default=4)
    p.add_argument("--context", type=int, default=64)
    p.add_argument("--batch-size", type=int, default=12)
    p.add_argument("--compile", action="store_true", help="torch.compile the training step's model (inductor on the CPU)")
    a = p.parse_args()
    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    with gzip.open(os.path.join(a.data_dir, "lm", "tinyshakespeare", "input.txt.gz"), "rt", encoding="utf-8") as f:
        text = f.read()
    chars = sorted(set(text))
    index = {c: i for i, c in enumerate(chars)}
    data = torch.tensor([index[c] for c in text], dtype=torch.long)
    train = data[: int(0.9 * len(data))]
    model = Gpt(len(chars), a.d_model, a.layers, a.heads, a.context)
    params = sum(t.numel() for t in model.parameters()) - model.positions.weight.numel()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, betas=(0.9, 0.999), weight_decay=0.1)
    warmup = 100

    def rate(step):  # step 1-based: linear warm-up, then cosine to 0 at the last step
        if step <= warmup:
            return step / warmup
        return 0.5 * (1 + math.cos(math.pi * (step - warmup) / max(1, a.steps - warmup)))

    model.train()
    trained = torch.compile(model) if a.compile else model  # one shape (batch x context): compiled once, in steps 1-10
    started = None
    for step in range(1, a.steps + 1):
        if step == 11:
            started = time.perf_counter()
        starts = torch.randint(len(train) - a.context - 1, (a.batch_size,))
        rows = torch.stack([train[s : s + a.context + 1] for s in starts.tolist()])
        logits = trained(rows[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), rows[:, 1:].reshape(-1))
        for g in optimizer.param_groups:
            g["lr"] = 1e-3 * rate(step)
        optimizer.zero_grad(set_to_none=False)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
    per_step = (time.perf_counter() - started) / (a.steps - 10) if started else float("nan")
    last = loss.item()

    model.eval()
    written = time.perf_counter()
    with torch.no_grad():
        generator = torch.Generator().manual_seed(a.seed)
        caches = [[] for _ in model.blocks]
        history = [index[c] for c in "ROMEO:"]
        logits = model(torch.tensor([history]), caches, 0)[:, -1]
        position = len(history)
        for _ in range(a.tokens):
            if position >= a.context:  # the cache is full: keep the latest half, as the lab's GPT does
                recent = history[-(a.context // 2) :]
                caches = [[] for _ in model.blocks]
                logits = model(torch.tensor([recent]), caches, 0)[:, -1]
                position = len(recent)
            token = torch.multinomial(F.softmax(logits, -1), 1, generator=generator)
            history.append(token.item())
            logits = model(token, caches, position)[:, -1]
            position += 1
    seconds_writing = time.perf_counter() - written
    # nanoGPT's own generate(): no cache, the whole context (its last `context` characters) run again for every new
    # character.
    written = time.perf_counter()
    with torch.no_grad():
        generator = torch.Generator().manual_seed(a.seed)
        ids = torch.tensor([[index[c] for c in "ROMEO:"]])
        for _ in range(a.tokens):
            logits = model(ids[:, -a.context :])[:, -1]
            ids = torch.cat([ids, torch.multinomial(F.softmax(logits, -1), 1, generator=generator)], 1)
    seconds_recomputed = time.perf_counter() - written
    print(json.dumps({"torch": torch.__version__, "threads": a.threads, "params": params, "steps": a.steps,
                      "compiled": a.compile, "seconds_per_step": per_step, "last_loss": last, "tokens": a.tokens,
                      "seconds_writing": seconds_writing, "seconds_writing_recomputed": seconds_recomputed}))


if __name__ == "__main__":
    main()
