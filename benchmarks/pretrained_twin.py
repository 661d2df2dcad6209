#!/usr/bin/env python3
"""The Python twin of attnlab-bench-pretrained: what a BertViz user's notebook pays for the same work.
transformers' BertModel.from_pretrained on the same folder, then the tokenizer + a forward pass with
output_attentions=True on 30-piece sentences of the same words, 2 threads, eager attention.

    ~/.cache/attnlab/venv-torch-2.11.0/bin/pip install transformers==4.57.1 tokenizers
    ~/.cache/attnlab/venv-torch-2.11.0/bin/python benchmarks/pretrained_twin.py MODEL_DIR [--inputs 100] [--threads 2]
"""
import argparse
import random
import statistics
import time

t0 = time.perf_counter()
import torch  # noqa: E402
import transformers  # noqa: E402
imported = time.perf_counter() - t0

parser = argparse.ArgumentParser()
parser.add_argument("folder")
parser.add_argument("--inputs", type=int, default=100)
parser.add_argument("--tokens", type=int, default=30)
parser.add_argument("--threads", type=int, default=2)
parser.add_argument("--loads", type=int, default=5)
a = parser.parse_args()
torch.set_num_threads(a.threads)
loads = []
for _ in range(a.loads):
    t = time.perf_counter()
    model = transformers.BertModel.from_pretrained(a.folder, attn_implementation="eager").eval()
    tokenizer = transformers.BertTokenizerFast.from_pretrained(a.folder)
    loads.append(time.perf_counter() - t)
words = ["the", "movie", "was", "not", "good", "but", "acting", "great", "plot", "and", "a", "bit", "slow", "I",
         "liked", "it", "very", "much", "story", "bad"]
rng = random.Random(7)
sentences = [" ".join(rng.choice(words) for _ in range(a.tokens - 2)) for _ in range(a.inputs)]
times = []
with torch.no_grad():
    model(**tokenizer(sentences[0], return_tensors="pt"), output_attentions=True)  # warm-up
    for s in sentences:
        t = time.perf_counter()
        out = model(**tokenizer(s, return_tensors="pt"), output_attentions=True)
        maps = [m[0].numpy() for m in out.attentions]  # the 72 maps as arrays, as a viewer needs them
        times.append(time.perf_counter() - t)
print(f"transformers {transformers.__version__}, torch {torch.__version__}, {a.threads} threads; import {1000 * imported:.0f} ms")
print(f"open (from_pretrained + tokenizer): first {1000 * loads[0]:.0f} ms, median of the later "
      f"{1000 * statistics.median(loads[1:] or loads):.0f} ms")
print(f"explain a {len(maps[0][0])}-piece sentence, {sum(m.shape[0] for m in maps)} maps: median "
      f"{1000 * statistics.median(times):.1f} ms, slowest {1000 * max(times):.1f} ms over {a.inputs} sentences")
