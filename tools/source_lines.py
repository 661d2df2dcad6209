"""The walk the include checks share (tools/check-core-layers.py, tools/check-posix-includes.py): every line of
every C++ source (.h, .cpp, .in) under a folder, and the report both print (problems on stderr, one summary
line, exit status 0 or 1)."""
import os
import sys
from typing import Iterator, List, Tuple


def lines_under(folder: str) -> Iterator[Tuple[str, int, str]]:
    """(path, line number, line) of every C++ source below folder, in a stable order."""
    for directory, subdirectories, files in os.walk(folder):
        subdirectories.sort()
        for name in sorted(files):
            if not name.endswith((".h", ".cpp", ".in")):
                continue
            source = os.path.join(directory, name)
            with open(source, encoding="utf-8", errors="replace") as f:
                for number, line in enumerate(f, 1):
                    yield source, number, line


def report(check: str, problems: List[str], what: str) -> int:
    for p in problems:
        print(p, file=sys.stderr)
    print(f"{check}: {'ok' if not problems else str(len(problems)) + ' ' + what}")
    return 1 if problems else 0
