#!/usr/bin/env python3
"""Every relative link of the documentation resolves.

Scans every *.md file of the source tree (build folders, .git and .device left out) and checks:
- markdown links and images, [text](target) and ![alt](target), reference definitions ([id]: target) and
  HTML src/href attributes: a relative target must name a file or folder that exists (relative to the file,
  or to the source root when it starts with "/"); web addresses (http:, https:, mailto:) are not fetched;
- anchors: "#heading" in the same file, or "FILE.md#heading", must be a heading of that file, spelt as
  GitHub spells its anchors (lower case, punctuation dropped, spaces to hyphens, -1, -2 for repeats);
- every picture in docs/screenshots/ is shown by some document, and its name ends with its real size in pixels
  (side-by-side-1280x720.png is 1280 x 720);
- with --code-paths, also paths in backticks that start with one of the tree's top-level folders
  (`core/data/readers/`, `tools/check-core-layers.py`, `core/platform/AtomicFile`: a file, a folder, or a
  source named without its .h/.cpp). Placeholders (<Name>, {h,cpp}, *, ...) are skipped. The dated
  benchmark log and the changelog are history and keep the paths they were written with, so they are only
  checked for links.
Code blocks and code spans are not links. A broken one is reported as FILE:LINE: the target and why.
Run by ctest (doc_links) and by hand: tools/check-doc-links.py [SOURCE_DIR] [--code-paths]; exit 0 or 1.
"""
import os
import re
import sys
import unicodedata
from typing import Dict, Iterator, List, Set, Tuple

SKIPPED_FOLDERS = {".git", ".device", ".cache", "node_modules", "__pycache__"}
HISTORY = {os.path.join("docs", "benchmarks-log.md"), "CHANGELOG.md"}
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*(<[^>]*>|[^()\s]*(?:\([^()\s]*\)[^()\s]*)*)(?:\s+(?:\"[^\"]*\"|'[^']*'|\([^)]*\)))?\s*\)")
REFERENCE_DEFINITION = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)")
HTML_ATTRIBUTE = re.compile(r"""<(?:img|a|source)\b[^>]*?\b(?:src|href)\s*=\s*["']([^"']+)["']""", re.IGNORECASE)
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")


def markdown_files(root: str) -> Iterator[str]:
    for directory, subdirectories, files in os.walk(root):
        subdirectories[:] = sorted(d for d in subdirectories
                                   if d not in SKIPPED_FOLDERS and not (directory == root and d.startswith("build")))
        for name in sorted(files):
            if name.endswith(".md"):
                yield os.path.join(directory, name)


def prose_lines(path: str) -> Iterator[Tuple[int, str, List[str]]]:
    """(line number, the line without its code spans, the code spans) of every line outside fenced code."""
    fence = None
    with open(path, encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            m = FENCE.match(line)
            if m:
                marker = m.group(1)
                if fence is None:
                    fence = marker[0] * len(marker)
                    continue
                if marker.startswith(fence):
                    fence = None
                    continue
            if fence is not None:
                continue
            spans = [s.group(2).strip() for s in CODE_SPAN.finditer(line)]
            yield number, CODE_SPAN.sub(lambda s: " " * len(s.group(0)), line), spans


def slug(heading: str) -> str:
    """GitHub's anchor of a heading's text."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text only
    text = re.sub(r"<[^>]+>", "", text)
    text = text.strip().lower()
    kept = []
    for ch in text:
        if ch in " -_" or unicodedata.category(ch)[0] in "LN":
            kept.append(ch)
        elif unicodedata.category(ch) == "Mn":
            kept.append(ch)
    return "".join(kept).replace(" ", "-")


def anchors_of(path: str, cache: Dict[str, Set[str]]) -> Set[str]:
    if path not in cache:
        found: Set[str] = set()
        seen: Dict[str, int] = {}
        fence = None
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                m = FENCE.match(line)
                if m:
                    marker = m.group(1)
                    if fence is None:
                        fence = marker[0] * len(marker)
                    elif marker.startswith(fence):
                        fence = None
                    continue
                if fence is not None:
                    continue
                h = HEADING.match(line.rstrip("\n"))
                if not h:
                    continue
                base = slug(h.group(2))
                n = seen.get(base, 0)
                seen[base] = n + 1
                found.add(base if n == 0 else f"{base}-{n}")
        for m in re.finditer(r"""<a\s+(?:name|id)\s*=\s*["']([^"']+)["']""", open(path, encoding="utf-8", errors="replace").read()):
            found.add(m.group(1))
        cache[path] = found
    return cache[path]


def check_target(root: str, source: str, target: str, cache: Dict[str, Set[str]]) -> str:
    """'' when the target resolves, else why not."""
    target = target.strip()
    if target.startswith("<") and target.endswith(">"):
        target = target[1:-1]
    if not target or SCHEME.match(target) or target.startswith("//"):
        return ""
    path_part, _, anchor = target.partition("#")
    path_part = re.sub(r"\?.*$", "", path_part)
    from urllib.parse import unquote
    path_part = unquote(path_part)
    if path_part:
        base = root if path_part.startswith("/") else os.path.dirname(source)
        resolved = os.path.normpath(os.path.join(base, path_part.lstrip("/")))
        if not os.path.exists(resolved):
            return "no such file or folder"
        if os.path.relpath(resolved, root).startswith(".."):
            return "outside the source tree"
    else:
        resolved = source
    if anchor and resolved.endswith(".md") and os.path.isfile(resolved):
        if unquote(anchor) not in anchors_of(resolved, cache):
            return f"no heading with the anchor #{anchor} in {os.path.relpath(resolved, root)}"
    return ""


def code_path_problem(root: str, span: str, top_folders: Set[str]) -> str:
    """'' unless the code span names a path of the tree that does not exist."""
    if any(c in span for c in " <>{}*|$~=,;\"'()[]") or "..." in span or "…" in span:
        return ""
    candidate = span.rstrip(".:")
    candidate = re.sub(r":\d+$", "", candidate)  # file:line
    first = candidate.split("/", 1)[0]
    if "/" not in candidate or first not in top_folders:
        return ""
    full = os.path.join(root, candidate)
    if os.path.exists(full):
        return ""
    for ext in (".h", ".cpp", ".cmake", ".py", ".sh", ".json", ".md", ".in"):
        if os.path.exists(full + ext):
            return ""
    return "no such file or folder"


def png_size(path: str) -> Tuple[int, int]:
    with open(path, "rb") as f:
        header = f.read(24)
    if header[:8] != b"\x89PNG\r\n\x1a\n":
        return 0, 0
    return int.from_bytes(header[16:20], "big"), int.from_bytes(header[20:24], "big")


def screenshot_problems(root: str, shown: Set[str]) -> List[str]:
    folder = os.path.join(root, "docs", "screenshots")
    problems = []
    if not os.path.isdir(folder):
        return problems
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        relative = os.path.relpath(path, root)
        if not name.endswith(".png"):
            continue
        if os.path.normpath(path) not in shown:
            problems.append(f"{relative}: shown by no document (use it or remove it)")
        width, height = png_size(path)
        if not name.endswith(f"-{width}x{height}.png"):
            problems.append(f"{relative}: is {width} x {height} pixels; its name should end with -{width}x{height}.png")
    return problems


def main() -> int:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    code_paths = "--code-paths" in sys.argv[1:]
    root = os.path.abspath(args[0] if args else os.path.join(os.path.dirname(__file__), ".."))
    top_folders = {d for d in os.listdir(root)
                   if os.path.isdir(os.path.join(root, d)) and not d.startswith((".", "build"))}
    cache: Dict[str, Set[str]] = {}
    problems = []
    pictures: Set[str] = set()
    files = 0
    for source in markdown_files(root):
        files += 1
        shown = os.path.relpath(source, root)
        for number, prose, spans in prose_lines(source):
            targets = [m.group(1) for m in INLINE_LINK.finditer(prose)]
            targets += [m.group(1) for m in HTML_ATTRIBUTE.finditer(prose)]
            d = REFERENCE_DEFINITION.match(prose)
            if d:
                targets.append(d.group(1))
            for target in targets:
                why = check_target(root, source, target, cache)
                if why:
                    problems.append(f"{shown}:{number}: {target}: {why}")
                elif not SCHEME.match(target.strip("<> ")):
                    path_part = target.strip("<> ").partition("#")[0]
                    if path_part:
                        base = root if path_part.startswith("/") else os.path.dirname(source)
                        pictures.add(os.path.normpath(os.path.join(base, path_part.lstrip("/"))))
            if code_paths and shown not in HISTORY:
                for span in spans:
                    why = code_path_problem(root, span, top_folders)
                    if why:
                        problems.append(f"{shown}:{number}: `{span}`: {why}")
    problems += screenshot_problems(root, pictures)
    print(f"check-doc-links: {files} markdown files")
    for p in problems:
        print(p, file=sys.stderr)
    print(f"check-doc-links: {'ok' if not problems else str(len(problems)) + ' broken links or paths'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
