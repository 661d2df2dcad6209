#!/usr/bin/env bash
# Renders the scalable icon into the hicolor PNG sizes committed beside it (needs librsvg2-bin).
# Run again after changing org.attnlab.AttentionLab.svg.
set -euo pipefail
cd "$(dirname "$0")"
for size in 16 32 48 64 128 256; do
  rsvg-convert -w "$size" -h "$size" org.attnlab.AttentionLab.svg -o "org.attnlab.AttentionLab-$size.png"
done
