#!/usr/bin/env python3
"""Which head aligns? The alignment error rate of each cross-attention head of stored runs of a built-in
sequence task (reverse, copy, sort), measured as training measures dev AER: teacher-forced on the right answer,
one argmax link per target word, counts summed over the sentences, AER = 1 - 2|A∩S| / (|A| + |S|).

Random sentences of the task's words (SyntheticTranslation::words(), seeded) are scored with
`attnlab-cli translate --text S --force ANSWER --json`, whose "cross_attention" holds every layer and head and
"gold_alignment" the right answer's links. Prints one row per run: each head's AER, the mean of the last
layer's heads (what the run's stored AER reads), and how many sentences.

  python3 experiments/alignment-by-head.py --cli build/app/attnlab-cli --db lessons.sqlite --runs 16,17,18
"""
import argparse
import json
import random
import subprocess
import sys

# SyntheticTranslation::words(): the 25 words of the sequence tasks.
WORDS = ["ant", "bee", "cat", "dog", "eel", "fox", "gnu", "hen", "ibis", "jay", "kiwi", "lynx", "mole", "newt", "owl",
         "pig", "quail", "rat", "seal", "toad", "urchin", "vole", "wolf", "yak", "zebra"]


def answer(task, words):
    if task == "reverse":
        return list(reversed(words))
    if task == "copy":
        return list(words)
    if task == "sort":
        return sorted(words, key=lambda w: WORDS.index(w) if w in WORDS else len(WORDS))
    sys.exit(f"no rule for the task '{task}' (reverse, copy, sort)")


def links(weights, rows, gold_targets):
    """One (source, target) link per gold-linked target row: its argmax, the first of equal maxima."""
    out = set()
    for t in range(rows):
        if t in gold_targets:
            row = weights[t]
            out.add((max(range(len(row)), key=lambda s: (row[s], -s)), t))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cli", required=True)
    parser.add_argument("--db", required=True)
    parser.add_argument("--runs", required=True, help="comma-separated run ids")
    parser.add_argument("--sentences", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--min-words", type=int, default=3)
    parser.add_argument("--max-words", type=int, default=10)
    args = parser.parse_args()
    for run in [int(r) for r in args.runs.split(",")]:
        shown = json.loads(subprocess.run([args.cli, "runs", "show", str(run), "--db", args.db, "--json"], check=True,
                                          capture_output=True, text=True).stdout)["runs"][0]
        task = shown["config"]["dataset"].removeprefix("synthetic-")
        rng = random.Random(args.seed)
        counts = {}  # key -> [|A|, |S|, |A∩S|]
        for _ in range(args.sentences):
            n = rng.randint(args.min_words, args.max_words)
            words = rng.sample(WORDS, n) if task == "sort" else [rng.choice(WORDS) for _ in range(n)]
            out = subprocess.run([args.cli, "translate", "--run", str(run), "--db", args.db, "--text", " ".join(words),
                                  "--force", " ".join(answer(task, words)), "--json"], check=True, capture_output=True, text=True)
            t = json.loads(out.stdout.strip().splitlines()[-1])
            gold = {tuple(link) for link in t["gold_alignment"]}
            targets = {link[1] for link in gold}
            rows = len(t["target_tokens"])
            maps = t["cross_attention"]
            last = maps[-1]["layer"]
            last_maps = [m["weights"] for m in maps if m["layer"] == last]
            mean = [[sum(m[r][c] for m in last_maps) / len(last_maps) for c in range(len(last_maps[0][0]))] for r in range(rows)]
            views = [(f"L{m['layer'] + 1}H{m['head'] + 1}", m["weights"]) for m in maps] + [("mean", mean)]
            for key, weights in views:
                predicted = links(weights, rows, targets)
                c = counts.setdefault(key, [0, 0, 0])
                c[0] += len(predicted)
                c[1] += len(gold)
                c[2] += len(predicted & gold)
        aer = {k: 100.0 * (1 - 2 * c[2] / (c[0] + c[1])) for k, c in counts.items()}
        heads = "  ".join(f"{k} {v:5.1f}" for k, v in aer.items())
        print(f"run {run} ({shown['config']['model']}, {shown['config'].get('layers', 1)} layers x "
              f"{shown['config'].get('heads', 1)} heads, seed {shown['config']['seed']}), {args.sentences} sentences, AER %: {heads}")


if __name__ == "__main__":
    main()
