#!/usr/bin/env bash
# Redraws docs/report.png, the README's picture: the HTML report of
# corpus/classic/worked-example-abcd.edn as Debian's headless Chromium draws it.
# Run from anywhere after a build; the page's look changes only with report/page/.
#   scripts/report_picture.sh [ARIADNE]    (default: build/ariadne)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ariadne="${1:-$root/build/ariadne}"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
cd "$root"
# Exit 1 is the verdict (not linearizable), not a failure.
"$ariadne" check corpus/classic/worked-example-abcd.edn --model register --init 0 \
  --html "$scratch/report.html" >/dev/null || [ $? -eq 1 ]
# The window's height holds the explanation and the timeline with its legend; the
# virtual time budget lets the canvas draw before the shot is taken.
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1100,760 \
  --virtual-time-budget=3000 --screenshot="$scratch/report.png" "file://$scratch/report.html" \
  >/dev/null 2>&1
cp "$scratch/report.png" docs/report.png
echo "docs/report.png: $(stat -c %s docs/report.png) bytes"
