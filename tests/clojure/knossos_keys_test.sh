#!/usr/bin/env bash
# `check --edn` read back by Clojure's own EDN reader (clojure.edn, what a Jepsen
# checker reads it with) on Knossos' rethink-fail-minimal.edn, and the keys Knossos'
# result map has compared with what Knossos answers on that file (its :op, the read
# of 3 completed at event 4; its :previous-ok, the write of 0 completed at event 1),
# beside ariadne's own keys, which must stay; and every double printed in the fewest
# digits that read back as it (knossos_keys_test.clj says how that is checked).
#
# Usage: knossos_keys_test.sh ARIADNE SOURCE_DIR
# Exit status: 0 passed, 1 failed, 77 skipped (no clojure on PATH, which
# scripts/install-deps.sh installs; or no ../shared/corpus beside the repository), as
# ctest's SKIP_RETURN_CODE reads it.
set -uo pipefail

ariadne=$1
source_dir=$2
readonly skip=77
history="$source_dir/../shared/corpus/knossos/data/cas-register/bad/rethink-fail-minimal.edn"

if ! command -v clojure >/dev/null 2>&1; then
  echo "skipped: no clojure on PATH (scripts/install-deps.sh installs Debian's)"
  exit $skip
fi
if [[ ! -f $history ]]; then
  echo "skipped: $history is absent (a plain clone has no ../shared)"
  exit $skip
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$ariadne" check "$history" --model 'cas-register(nil)' --edn >"$work/answer.edn" 2>"$work/stderr"
status=$?
if [[ $status -ne 1 ]]; then
  echo "FAILED: check --edn exited $status, not 1 (not linearizable)"
  cat "$work/answer.edn" "$work/stderr"
  exit 1
fi
clojure "$(dirname "$0")/knossos_keys_test.clj" "$work/answer.edn"
