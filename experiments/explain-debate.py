#!/usr/bin/env python3
"""The attention-as-explanation debate on real data, from the runs of experiments/explain-debate*.json in one store:
accuracy with learned and uniform attention, faithfulness (deletion AOPC, the random floor), the seeds'
agreement (Jensen-Shannon distances) and the permutation test, as the Markdown tables of docs/RESULTS.md.

  ATTNLAB_DATA_DIR=../shared/datasets build/app/attnlab-cli sweep experiments/explain-debate.json --db debate.sqlite
  ATTNLAB_DATA_DIR=../shared/datasets build/app/attnlab-cli sweep experiments/explain-debate-uniform.json --db debate.sqlite
  ATTNLAB_DATA_DIR=../shared/datasets python3 experiments/explain-debate.py build/app/attnlab-cli debate.sqlite [LIMIT]

LIMIT (default 300): the first LIMIT dev sentences of each dataset are measured (all of them: 0).
"""
import json
import statistics
import subprocess
import sys
from collections import defaultdict

cli, db = sys.argv[1], sys.argv[2]
limit = sys.argv[3] if len(sys.argv) > 3 else "300"
METHODS = ["attention", "rollout", "attngrad", "grad", "gradxinput", "ig", "occlusion"]


def run(*args):
    out = subprocess.run([cli, *args, "--db", db, "--json"], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def mean_std(values):
    return f"{statistics.mean(values):.3f} ± {statistics.stdev(values):.3f}" if len(values) > 1 else f"{values[0]:.3f}"


groups = defaultdict(list)  # (dataset, model, uniform) -> [(run id, test accuracy)]
for r in run("runs", "list"):
    if r["status"] != "completed":
        continue
    config = run("runs", "show", str(r["id"]))["runs"][0]["config"]
    groups[(r["dataset"], r["model"], bool(config.get("uniform_attention", False)))].append((r["id"], r["test_accuracy"]))

datasets = sorted({k[0] for k in groups}, key=lambda d: (d != "sst-fine", d))
models = ["ssan", "essan", "transformer"]
print("### Accuracy: learned against uniform attention (test %, mean ± sample std over seeds)\n")
print("| dataset | model | learned attention | uniform (1/n) |")
print("| --- | --- | ---: | ---: |")
for d in datasets:
    for m in models:
        cells = []
        for uniform in (False, True):
            acc = [100 * a for _, a in groups.get((d, m, uniform), [])]
            cells.append(f"{statistics.mean(acc):.1f} ± {statistics.stdev(acc):.1f} ({len(acc)})" if len(acc) > 1 else "–")
        print(f"| {d} | {m} | {cells[0]} | {cells[1]} |")

print(f"\n### Faithfulness: deletion AOPC on the first {limit} dev sentences (mean ± std over seeds; higher = more faithful)\n")
print("| dataset | model | " + " | ".join(METHODS + ["random"]) + " |")
print("| --- | --- |" + " ---: |" * (len(METHODS) + 1))
for d in datasets:
    for m in models:
        per = defaultdict(list)
        for rid, _ in groups.get((d, m, False), []):
            report = run("faithfulness", "--run", str(rid), "--limit", limit)
            for x in report["methods"]:
                if x["sentences"] > 0:
                    per[x["method"]].append(x["deletion_aopc"])
        print(f"| {d} | {m} | " + " | ".join(mean_std(per[k]) if per[k] else "–" for k in METHODS + ["random"]) + " |")

print(f"\n### Seeds: Jensen-Shannon distance across the seeds' runs and to each run's attention ({limit} dev sentences)\n")
print("| dataset | model | attention across seeds | attention to uniform | "
      + " | ".join(f"{k}: across / to attention" for k in METHODS[1:]) + " |")
print("| --- | --- | ---: | ---: |" + " ---: |" * (len(METHODS) - 1))
for d in datasets:
    for m in models:
        ids = [str(rid) for rid, _ in groups.get((d, m, False), [])]
        if len(ids) < 2:
            continue
        a = {x["method"]: x for x in run("agreement", "--runs", ",".join(ids), "--limit", limit)["methods"]}
        cells = [f"{a[k]['js_across_seeds']:.3f} / {a[k]['js_to_attention']:.3f}" if a[k]["sentences"] else "–" for k in METHODS[1:]]
        print(f"| {d} | {m} | {a['attention']['js_across_seeds']:.3f} | {a['attention']['js_to_uniform']:.3f} | "
              + " | ".join(cells) + " |")

print(f"\n### Permutation test: attention permuted over the tokens, 20 times per sentence ({limit} dev sentences)\n")
print("| dataset | model | median TVD | sentences with median TVD < 0.05 | prediction changed |")
print("| --- | --- | ---: | ---: | ---: |")
for d in datasets:
    for m in models:
        med, low, flip = [], [], []
        for rid, _ in groups.get((d, m, False), []):
            p = run("permutation", "--run", str(rid), "--limit", limit)
            med.append(p["median_tvd"]); low.append(100 * p["share_below_0.05"]); flip.append(100 * p["share_flipped"])
        if med:
            print(f"| {d} | {m} | {mean_std(med)} | {statistics.mean(low):.1f}% | {statistics.mean(flip):.1f}% |")
