#!/usr/bin/env python3
"""The Python twin of attnlab-bench-llm: what a TransformerLens or transformers user pays for the same work on the
same GGUF file. transformers' LlamaForCausalLM.from_pretrained(gguf_file=...) (dequantized to float32 by the gguf
package), eager attention, the same threads; a 64-piece prompt read with output_attentions=True; 200 pieces written by
generate (greedy, the cache on); the process's peak resident memory.

    pip install torch==2.11.0 transformers==4.57.1 gguf==0.19.0 accelerate
    python3 benchmarks/llm_twin.py MODEL.gguf [--reads 10] [--tokens 200] [--threads 2] [--loads 3]
"""
import argparse
import os
import resource
import statistics
import time

import torch
import transformers

TEXT = ("The history of the city begins with a small settlement on the river, where traders from the north "
        "met farmers from the valley. Over the centuries the market grew into a town, the town into a city, "
        "and the city into the capital of a region known for its bridges, its libraries and its music. Visitors "
        "still come for all three.")

parser = argparse.ArgumentParser()
parser.add_argument("gguf")
parser.add_argument("--reads", type=int, default=10)
parser.add_argument("--tokens", type=int, default=200)
parser.add_argument("--threads", type=int, default=2)
parser.add_argument("--loads", type=int, default=3)
a = parser.parse_args()
torch.set_num_threads(a.threads)
folder, name = os.path.split(os.path.abspath(a.gguf))
loads = []
for _ in range(a.loads):
    t = time.perf_counter()
    model = transformers.AutoModelForCausalLM.from_pretrained(folder, gguf_file=name, dtype=torch.float32,
                                                              attn_implementation="eager").eval()
    loads.append(time.perf_counter() - t)
tokenizer = transformers.AutoTokenizer.from_pretrained(folder, gguf_file=name)
ids = tokenizer(TEXT, add_special_tokens=False, return_tensors="pt").input_ids[:, :64]
with torch.no_grad():
    model(ids, output_attentions=True)  # warm-up
    reads = []
    for _ in range(a.reads):
        t = time.perf_counter()
        out = model(ids, output_attentions=True)
        reads.append(time.perf_counter() - t)
    prompt = tokenizer("Once upon a time", add_special_tokens=False, return_tensors="pt").input_ids
    t = time.perf_counter()
    written = model.generate(prompt, max_new_tokens=a.tokens, min_new_tokens=a.tokens, do_sample=False, use_cache=True)
    write = time.perf_counter() - t
new = written.shape[1] - prompt.shape[1]
print(f"transformers {transformers.__version__}, torch {torch.__version__}; {a.threads} threads")
print(f"open: first {1000 * loads[0]:.0f} ms, median {1000 * statistics.median(loads):.0f} ms over {len(loads)}")
print(f"read {ids.shape[1]} pieces keeping {sum(x.shape[1] for x in out.attentions)} maps: median "
      f"{1000 * statistics.median(reads):.1f} ms over {a.reads} reads")
print(f"write {new} pieces greedily with generate: {write:.2f} s, {1000 * write / new:.1f} ms a piece")
print(f"peak resident memory: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1000:.0f} MB")
