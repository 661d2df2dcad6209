#!/usr/bin/env python3
"""Temperature and top-p on stored language-model runs of tiny Shakespeare: what each sampling setting does to the
text. For every run and setting, `attnlab-cli generate` writes 500 characters from "ROMEO:" with seeds 1, 2 and 3;
each text is scored by two counts a reader can check by hand (beam search draws nothing: its best text, once):
  real words: the share of its words (letters and apostrophes, two or more) that occur in the training text
              (the first 90% of tiny Shakespeare, nanoGPT's split), lowercased;
  distinct:   distinct words / words (low: the text repeats itself, as greedy decoding loops).
Prints the range over the three seeds.

  python3 experiments/sampling-temperature.py --cli build/app/attnlab-cli --db lm.sqlite --runs 7,6 \
      --data "$ATTNLAB_DATA_DIR"/lm/tinyshakespeare/input.txt.gz
"""
import argparse
import gzip
import json
import re
import subprocess

SETTINGS = [
    ("T 0.5", ["--temperature", "0.5"]),
    ("T 0.8", ["--temperature", "0.8"]),
    ("T 1.0", ["--temperature", "1.0"]),
    ("T 1.5", ["--temperature", "1.5"]),
    ("T 1.0 top-p 0.9", ["--temperature", "1.0", "--top-p", "0.9"]),
    ("T 1.0 top-k 5", ["--temperature", "1.0", "--top-k", "5"]),
    ("greedy", ["--greedy"]),
    ("beam 5", ["--beam", "5"]),
]
WORD = re.compile(r"[A-Za-z']+")


def words(text):
    return [w.lower() for w in WORD.findall(text) if len(w) >= 2]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cli", default="build/app/attnlab-cli")
    parser.add_argument("--db", required=True)
    parser.add_argument("--runs", required=True, help="run ids, comma-separated")
    parser.add_argument("--data", required=True, help="tiny Shakespeare's input.txt or input.txt.gz")
    parser.add_argument("--tokens", type=int, default=500)
    args = parser.parse_args()
    opener = gzip.open if args.data.endswith(".gz") else open
    with opener(args.data, "rt", encoding="utf-8") as f:
        text = f.read()
    vocabulary = set(words(text[: int(len(text) * 0.9)]))
    for run in args.runs.split(","):
        for label, flags in SETTINGS:
            real, distinct = [], []
            searched = "--beam" in flags  # nothing drawn: one text, the best hypothesis
            for seed in (1,) if searched else (1, 2, 3):
                out = subprocess.run([args.cli, "generate", "--run", run, "--db", args.db, "--prompt", "ROMEO:", "--tokens",
                                      str(args.tokens), "--json"] + ([] if searched else ["--seed", str(seed)]) + flags,
                                     capture_output=True, text=True, check=True)
                result = json.loads(out.stdout)
                w = words(result["beams"][0]["text"] if searched else result["text"])
                real.append(sum(x in vocabulary for x in w) / max(1, len(w)))
                distinct.append(len(set(w)) / max(1, len(w)))
            print(f"run {run:>4} {label:16s} real words {min(real) * 100:.0f}-{max(real) * 100:.0f}%  "
                  f"distinct {min(distinct) * 100:.0f}-{max(distinct) * 100:.0f}%")


if __name__ == "__main__":
    main()
