#!/usr/bin/python3
"""Bahdanau et al.'s Figure 2 at laptop scale (docs/RESULTS.md, "Learning to align"): a stored reversal run's
BLEU and exact match by source length. For each length from 3 to 20 words, 50 random sentences of the task's 25
words (seeded), translated with `attnlab-cli translate --run N --file`, scored per bucket with sacreBLEU (pip
install sacrebleu==2.6.0; the lab computes the same numbers, tested against it).
    python3 experiments/bleu-by-length.py --cli build/app/attnlab-cli --db align.sqlite --runs 3,8,13 [--seed 1]
Prints a Markdown table: one row per bucket, one column per run, "BLEU (exact %)".
"""
import argparse, random, subprocess, tempfile

import sacrebleu

WORDS = ("ant bee cat dog eel fox gnu hen ibis jay kiwi lynx mole newt owl pig quail rat seal toad "
         "urchin vole wolf yak zebra").split()
BUCKETS = [(3, 5), (6, 8), (9, 10), (11, 13), (14, 16), (17, 20)]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--cli", required=True)
    p.add_argument("--db", required=True)
    p.add_argument("--runs", required=True)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    rng = random.Random(a.seed)
    sentences = {n: [" ".join(rng.choice(WORDS) for _ in range(n)) for _ in range(50)] for n in range(3, 21)}
    runs = a.runs.split(",")
    table = {}
    for run in runs:
        with tempfile.NamedTemporaryFile("w", suffix=".txt") as f:
            order = [(n, s) for n in range(3, 21) for s in sentences[n]]
            f.write("\n".join(s for _, s in order) + "\n")
            f.flush()
            out = subprocess.run([a.cli, "translate", "--run", run, "--file", f.name, "--db", a.db],
                                 check=True, capture_output=True, text=True).stdout.splitlines()
        for lo, hi in BUCKETS:
            hyps = [h for (n, _), h in zip(order, out) if lo <= n <= hi]
            refs = [" ".join(reversed(s.split())) for (n, s) in order if lo <= n <= hi]
            bleu = sacrebleu.corpus_bleu(hyps, [refs]).score
            exact = 100.0 * sum(h == r for h, r in zip(hyps, refs)) / len(refs)
            table.setdefault((lo, hi), []).append(f"{bleu:.1f} ({exact:.0f}%)")
    print("| source words | " + " | ".join(f"run {r}" for r in runs) + " |")
    print("| --- |" + " --- |" * len(runs))
    for (lo, hi), cells in table.items():
        print(f"| {lo}-{hi} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
