#!/usr/bin/env bash
# The Debian package as a user gets it: build it with cpack, install it with apt-get (dependencies from
# Debian), then run what was installed: attnlab-cli --version and a short train, the window offscreen for a
# few seconds, and the validators on the desktop entry and AppStream metadata. Needs root (or sudo).
# Usage: packaging/smoke-test.sh [BUILD_DIR]
set -euo pipefail
build_dir=$(cd "${1:-build}" && pwd)
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if ! sudo -n true 2>/dev/null; then
    echo "== package smoke test SKIPPED: installing a package needs root or passwordless sudo" >&2
    exit 0
  fi
  sudo="sudo"
fi
echo "== packaging"
(cd "$build_dir" && rm -f attnlab_*.deb && cpack -G DEB >/dev/null)
deb=$(ls "$build_dir"/attnlab_*_*.deb)
echo "   $(basename "$deb"): $(du -h "$deb" | cut -f1)"
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --reinstall "$deb" >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== installed attnlab-cli"
/usr/bin/attnlab-cli --version
/usr/bin/attnlab-cli train --dataset synthetic-sentiment --model ssan --position rpr --steps 20 --eval-every 10 \
  --db "$work/runs.sqlite" --json 2>/dev/null | grep -q '"status":"completed"' || { echo "installed train failed" >&2; exit 1; }
echo "   a 20-step train completed into $work/runs.sqlite"
echo "== installed subwords (SentencePiece's module from the package; the build tree's hidden meanwhile)"
module="$build_dir/lib/libattnlab_sentencepiece.so"
mv "$module" "$work/hidden.so"
# Put back if anything below fails. A function with an if: under set -e a failing command in an EXIT trap
# becomes the script's exit status (a bare `mv` here once failed a passing smoke test after the module was back).
restore() { if [ -f "$work/hidden.so" ]; then mv "$work/hidden.so" "$module"; fi; rm -rf "$work"; }
trap restore EXIT
for i in $(seq 1 60); do printf 'Hund Katze %d Maus\tdog cat %d mouse\n' "$i" "$i"; done > "$work/pairs.tsv"
/usr/bin/attnlab-cli train --dataset csv-pairs --file "$work/pairs.tsv" --model seq2seq --subwords bpe --subword-vocabulary 30 \
  --steps 4 --eval-every 4 --d-model 8 --db "$work/runs.sqlite" --json 2>"$work/subwords.err" | grep -q '"status":"completed"' ||
  { echo "installed subword train failed:" >&2; cat "$work/subwords.err" >&2; exit 1; }
mv "$work/hidden.so" "$module"
echo "   a BPE run on pairs completed with $(dpkg -L attnlab | grep libattnlab_sentencepiece)"
test -s /usr/share/man/man1/attnlab-cli.1.gz && test -s /usr/share/man/man1/attnlab.1.gz
test -s /usr/share/bash-completion/completions/attnlab-cli
test -s /usr/share/icons/hicolor/scalable/apps/org.attnlab.AttentionLab.svg

echo "== installed attnlab (offscreen, 8 s)"
/usr/bin/attnlab --version
set +e
QT_QPA_PLATFORM=offscreen timeout 8 /usr/bin/attnlab --db "$work/window.sqlite" 2>"$work/window.err"
code=$?
set -e
if [ "$code" -ne 124 ]; then # 124: still running when timeout stopped it, which is what a smoke start wants
  echo "installed attnlab exited early with $code:" >&2
  cat "$work/window.err" >&2
  exit 1
fi
echo "   started and kept running"

echo "== validators"
desktop-file-validate /usr/share/applications/org.attnlab.AttentionLab.desktop
appstreamcli validate --no-net /usr/share/metainfo/org.attnlab.AttentionLab.metainfo.xml
echo "== package smoke test passed"
