#!/bin/sh
# select-rows.sh CORPUS_DIR OUT_DIR MODEL...
#
# Writes OUT_DIR/expected.tsv listing every history under CORPUS_DIR whose
# "; model:" header names one of MODEL (the name before any "(init)"), with its
# "; expected:" verdict and full model spec: the input `ariadne convert --corpus`
# wants when only some families or models of a corpus are to be converted.
#
# The rows must be plain relative paths inside OUT_DIR: `ariadne convert`
# writes each converted file at OUT/<row path>, so a row starting with ../ or /
# would be written outside its --out-dir. OUT_DIR therefore gets one symlink
# per top-level entry of CORPUS_DIR (edge-cases -> CORPUS_DIR/edge-cases, ...).
#
# Example: select-rows.sh corpus /tmp/ph/kv-src kv
set -eu
if [ $# -lt 3 ]; then
	echo "usage: $0 CORPUS_DIR OUT_DIR MODEL..." >&2
	exit 64
fi
corpus=$(cd "$1" && pwd)
out=$2
shift 2
mkdir -p "$out"
for entry in "$corpus"/*/; do
	ln -sfn "${entry%/}" "$out/$(basename "$entry")"
done
: >"$out/expected.tsv"
# One row per file whose header names a wanted model; sorted for stable output.
(cd "$corpus" && find . -type f \( -name '*.edn' -o -name '*.json' -o -name '*.log' -o -name '*.txt' \) | sort) |
	while IFS= read -r path; do
		path=${path#./}
		spec=$(sed -n 's/^; model: *//p' "$corpus/$path" | head -n 1)
		verdict=$(sed -n 's/^; expected: *//p' "$corpus/$path" | head -n 1)
		[ -n "$spec" ] && [ -n "$verdict" ] || continue
		name=${spec%%(*}
		for want in "$@"; do
			if [ "$name" = "$want" ]; then
				printf '%s\t%s\t%s\n' "$path" "$verdict" "$spec" >>"$out/expected.tsv"
			fi
		done
	done
echo "$0: $(wc -l <"$out/expected.tsv") rows in $out/expected.tsv" >&2
