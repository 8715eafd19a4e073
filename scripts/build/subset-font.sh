#!/usr/bin/env bash
# Regenerates src/app/inter-latin-wght-400-700.woff2, the typeface every page preloads, from the
# @fontsource-variable/inter package (run after updating that package):
#
#   apt-get install -y python3-fonttools python3-brotli   # Debian's fontTools, once
#   bash scripts/build/subset-font.sh
#
# The package's Latin file spans weights 100 to 900 and carries fraction glyphs; the pages use
# weights 400 to 700 (src/app/fonts.test.ts keeps them there) and no fractions. Limiting the weight
# axis to 400..700 (fontTools' instancer: glyphs within the range keep their shapes) and dropping the
# frac/numr/dnom features makes the file 32 KB instead of 49 KB: every first visit downloads it, and
# on a phone it competes with the page's first paint.
set -euo pipefail
cd "$(dirname "$0")/.."
src=node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2
out=src/app/inter-latin-wght-400-700.woff2
python=/usr/bin/python3 # Debian's, where python3-fonttools installs
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$python" -m fontTools.varLib.instancer --quiet -o "$tmp/limited.ttf" "$src" wght=400:700
"$python" -m fontTools.subset "$tmp/limited.ttf" --unicodes='*' \
  --layout-features='calt,ccmp,locl,pnum,tnum,kern,mark,mkmk' --flavor=woff2 --output-file="$out"
echo "wrote $out ($(wc -c <"$out") bytes) from $src ($(wc -c <"$src") bytes)"
