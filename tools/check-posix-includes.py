#!/usr/bin/env python3
"""Only core/platform/ calls the operating system: no file of core/, cli/, ui/, app/ or benchmarks/ outside it
includes a POSIX header.

Each OS call (processes, pipes, memory maps, file facts, file sync, dynamic loading, signals, the user's
folders, process facts) sits behind a small class in core/platform/ with its POSIX implementation
(docs/ARCHITECTURE.md, "Porting"), so a port to another OS rewrites that folder and nothing else. An include
of one of HEADERS elsewhere is an error naming the file, the line and the header. tests/ and fuzz/ are
exempt: tests simulate crashes and kill processes with the raw calls on purpose, and neither ships.
Run by ctest (posix_includes) and by hand: tools/check-posix-includes.py [SOURCE_DIR]; exit 0 or 1.
"""
import os
import re
import sys

from source_lines import lines_under, report

FOLDERS = ["core", "cli", "ui", "app", "benchmarks"]
ALLOWED = os.path.join("core", "platform")
# <csignal> is standard C++, but what it is used for (handlers for SIGINT/SIGTERM) differs by OS.
HEADERS = re.compile(r"\s*#\s*include\s*<(unistd\.h|sys/[A-Za-z0-9_/]+\.h|fcntl\.h|dlfcn\.h|spawn\.h|poll\.h|"
                     r"signal\.h|csignal|pthread\.h|dirent\.h|pwd\.h|termios\.h|syslog\.h|sched\.h|"
                     r"semaphore\.h|netdb\.h|arpa/[A-Za-z0-9_]+\.h|netinet/[A-Za-z0-9_]+\.h)>")


def main() -> int:
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    problems = []
    for folder in FOLDERS:
        for source, number, line in lines_under(os.path.join(root, folder)):
            shown = os.path.relpath(source, root)
            if shown.startswith(ALLOWED + os.sep):
                continue
            m = HEADERS.match(line)
            if m:
                problems.append(f"{shown}:{number}: <{m.group(1)}> outside core/platform/ (hint: put the call behind "
                                "a class in core/platform/, or use one there: docs/ARCHITECTURE.md, Porting)")
    return report("check-posix-includes", problems, "POSIX includes outside core/platform/")


if __name__ == "__main__":
    sys.exit(main())
