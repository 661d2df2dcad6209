#!/usr/bin/env python3
"""The engine's folders are a stack: each folder of core/ includes only itself and the folders below it.

Bottom to top (docs/ARCHITECTURE.md, "Layers"): platform, config, data, results, store, analysis, nn,
training, sweep. A quoted include of a folder above is an error naming the file, the line and both
folders. Run by ctest (core_layers) and by hand: tools/check-core-layers.py [SOURCE_DIR]; exit 0 or 1.
"""
import os
import re
import sys

from source_lines import lines_under, report

ORDER = ["platform", "config", "data", "results", "store", "analysis", "nn", "training", "sweep"]


def main() -> int:
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    core = os.path.join(root, "core")
    rank = {name: i for i, name in enumerate(ORDER)}
    problems = []
    for folder in sorted(os.listdir(core)):
        path = os.path.join(core, folder)
        if not os.path.isdir(path):
            continue
        if folder not in rank:
            problems.append(f"core/{folder}: not in the stack; add it to ORDER in tools/check-core-layers.py "
                            "and to docs/ARCHITECTURE.md")
            continue
        for source, number, line in lines_under(path):
            m = re.match(r'\s*#\s*include\s+"core/([A-Za-z_]+)/', line)
            if m and m.group(1) in rank and rank[m.group(1)] > rank[folder]:
                problems.append(f"{os.path.relpath(source, root)}:{number}: core/{folder} includes core/{m.group(1)}, "
                                f"which is above it ({' < '.join(ORDER)})")
    return report("check-core-layers", problems, "upward includes")


if __name__ == "__main__":
    sys.exit(main())
