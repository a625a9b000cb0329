#!/usr/bin/env bash
# Runs ariadne's fuzz targets: first the regressions of corpus/fuzz/ (each saved input
# through its target, each saved history through the whole check), then every target
# for a while from seeds written out of corpus/ and, when present, ../shared/corpus.
# `make test` runs it for 8 s a target; docs/fuzzing.md describes longer runs.
#
#   fuzz/run.sh [--seconds N] [--parallel P] [--build DIR] [--work DIR]
#               [--max-seed-bytes N] [TARGET...]
#
# --build is the fuzz build (default build-fuzz; see fuzz/CMakeLists.txt), --work
# where seeds, the growing corpora, logs and crashes go (default DIR/work). Targets
# run P at a time (default 2). Each target stops at its first bug; the script then
# prints the input that triggered it (path and base64, so a CI log is enough to get it
# back) and exits 1; so does a regression of corpus/fuzz/ that fails again, after the
# fuzzing.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds=8
parallel=2
build="$root/build-fuzz"
work=""
max_seed_bytes=4096
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --parallel) parallel="$2"; shift 2 ;;
    --build) build="$(cd "$2" && pwd)"; shift 2 ;;
    --work) work="$2"; shift 2 ;;
    --max-seed-bytes) max_seed_bytes="$2"; shift 2 ;;
    -*) echo "fuzz/run.sh: unknown option $1" >&2; exit 64 ;;
    *) targets+=("$1"); shift ;;
  esac
done
work="${work:-$build/work}"
all_targets=(fuzz_read_edn fuzz_read_jepsen_log fuzz_read_porcupine_kv fuzz_read_json
             fuzz_read_violin_log fuzz_read_fastlin fuzz_edn_value fuzz_check fuzz_check_events)
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")

# Each target's seeds (a folder written by fuzz_corpus_tool) and its libFuzzer limits.
# -timeout is per input. The check's search stops at 0.5 s (fuzz/harness.hpp), but the
# explanation of a refutation does not look at the deadline, and under ASan on a busy
# 2-core machine some corpus histories take 9 s (docs/fuzzing.md): 25 s is a hang.
# -rss_limit_mb bounds the whole process (ASan's shadow memory included), -max_len the
# input size.
seeds_of() {
  case "$1" in
    fuzz_read_edn) echo edn ;;
    fuzz_read_jepsen_log) echo jepsen-log ;;
    fuzz_read_porcupine_kv) echo porcupine-kv ;;
    fuzz_read_json) echo json ;;
    fuzz_read_violin_log) echo violin-log ;;
    fuzz_read_fastlin) echo fastlin ;;
    fuzz_edn_value) echo edn-value ;;
    fuzz_check | fuzz_check_events) echo check ;;
  esac
}
limits_of() {
  case "$1" in
    fuzz_check | fuzz_check_events) echo "-timeout=25 -rss_limit_mb=1024 -max_len=4096" ;;
    *) echo "-timeout=5 -rss_limit_mb=512 -max_len=8192" ;;
  esac
}

for target in "${targets[@]}"; do
  if [ ! -x "$build/$target" ]; then
    echo "fuzz/run.sh: $build/$target is missing: build the fuzz targets first (make fuzz-build)" >&2
    exit 64
  fi
done

report_crash() {
  local target="$1" log="$2"
  echo "fuzz/run.sh: $target found a bug; the end of its log ($log):"
  tail -n 40 "$log"
  for input in "$work/crashes/$target/"*; do
    [ -f "$input" ] || continue
    echo "--- input $input, $(wc -c <"$input") bytes, base64:"
    base64 "$input"
  done
}

# 1. Regressions: saved inputs through their target (libFuzzer runs files given as
# arguments once each), saved histories through the whole check.
regressions="$root/corpus/fuzz"
mkdir -p "$work"
status=0
for target in "${targets[@]}"; do
  inputs=()
  if [ -d "$regressions/$target" ]; then
    while IFS= read -r -d '' file; do inputs+=("$file"); done \
      < <(find "$regressions/$target" -type f ! -name 'README*' -print0 | sort -z)
  fi
  [ ${#inputs[@]} -gt 0 ] || continue
  # shellcheck disable=SC2046
  if ! "$build/$target" $(limits_of "$target") "${inputs[@]}" >"$work/replay.log" 2>&1; then
    echo "fuzz/run.sh: a regression input of $target fails again:"; tail -n 40 "$work/replay.log"; status=1
  fi
  echo "fuzz/run.sh: replayed ${#inputs[@]} saved inputs of $target"
done
if grep -rqls --include='*.edn' '^; expected:' "$regressions"; then
  "$build/fuzz_corpus_tool" replay "$regressions" || status=1
fi
# A regression that fails again does not stop the fuzzing: one run reports both, and
# a known open bug in corpus/fuzz/ does not hide new ones.

# 2. Seeds, rewritten on every run from the corpora as they are now.
corpora=("$root/corpus")
for tsv in "$root/../shared/corpus/knossos/expected.tsv" "$root/../shared/corpus/porcupine/expected.tsv" \
           "$root/../shared/corpus/collections/expected.tsv"; do
  [ -f "$tsv" ] && corpora+=("$tsv")
done
rm -rf "$work/seeds"
"$build/fuzz_corpus_tool" seeds "$work/seeds" --max-bytes "$max_seed_bytes" "${corpora[@]}"

# 3. Fuzzing, P targets at a time. The first corpus folder of each target is where
# libFuzzer keeps what it finds (it grows from run to run); the seeds are read only.
run_target() {
  local target="$1"
  local log="$work/logs/$target.log"
  mkdir -p "$work/corpus/$target" "$work/crashes/$target" "$work/logs"
  # shellcheck disable=SC2046
  if "$build/$target" "$work/corpus/$target" "$work/seeds/$(seeds_of "$target")" \
       $(limits_of "$target") -max_total_time="$seconds" -print_final_stats=1 \
       -artifact_prefix="$work/crashes/$target/" >"$log" 2>&1; then
    local runs
    runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")"
    echo "fuzz/run.sh: $target: ${runs:-?} inputs in ${seconds} s, $(find "$work/corpus/$target" -type f | wc -l) in its corpus, peak $(sed -n 's/^stat::peak_rss_mb: *//p' "$log") MB, no bug"
  else
    report_crash "$target" "$log"
    return 1
  fi
}

failed=0
running=0
for target in "${targets[@]}"; do
  run_target "$target" &
  running=$((running + 1))
  if [ $running -ge "$parallel" ]; then
    wait -n || failed=1
    running=$((running - 1))
  fi
done
while [ $running -gt 0 ]; do
  wait -n || failed=1
  running=$((running - 1))
done
[ $failed -eq 0 ] || exit 1
if [ $status -ne 0 ]; then
  echo "fuzz/run.sh: every target ran ${seconds} s without finding a new bug, but a regression of corpus/fuzz/ fails again (above)"
  exit 1
fi
echo "fuzz/run.sh: every target ran ${seconds} s without finding a bug"
