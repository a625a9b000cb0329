#!/usr/bin/env bash
# docs/batch-systems.md's Slurm job array, run under a real Slurm: a throwaway
# one-node cluster (munged, slurmctld, slurmd from Debian's packages) started as root
# on loopback, the docs' shard.sh and submit commands taken from the docs themselves
# (only the array size, CPUs per task, the corpus path and the ariadne binary are
# substituted), then:
#   1. every shard runs, the dependent merge job runs, and its rows equal the
#      unsharded run's;
#   2. a cancelled task: the merge job never runs (its dependency fails), `corpus
#      --merge` refuses the reports and names the missing shard, and rerunning only
#      that shard (`sbatch --array=I shard.sh`, as the docs say) completes the set;
#   3. one kv history by key: the docs' key-shard.sh and merge job, whose answer must
#      be the unsharded check's (verdict, core, explanation; the witness's op ids).
# Every daemon it starts is stopped by pid when it exits, whether it passed or not,
# and it then checks that none of its processes is left.
#
# Usage: slurm_job_array_test.sh ARIADNE SOURCE_DIR
# Exit status: 0 passed, 1 failed, 77 skipped (not root, or the packages cannot be
# installed), as ctest's SKIP_RETURN_CODE reads it.
set -uo pipefail

ariadne=$(realpath "$1")
source_dir=$(realpath "$2")
readonly skip=77
started=$(date +%s.%N)

say() { echo "slurm test: $*"; }
since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
fail() {
  say "FAILED: $*"
  exit 1
}

[ "$(id -u)" = 0 ] || { say "skipped: it starts Slurm's daemons as root"; exit $skip; }

# Debian's packages, installed without letting them start their own daemons.
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null ||
  ! command -v sbatch >/dev/null; then
  policy=/usr/sbin/policy-rc.d
  saved_policy=""
  [ -e "$policy" ] && saved_policy=$(mktemp) && cp -p "$policy" "$saved_policy"
  printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy"
  installed=0
  packages=(slurmctld slurmd slurm-client munge)
  install() {
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${packages[@]}" \
      >>/tmp/ariadne-slurm-apt.log 2>&1
  }
  # A fresh machine may have no package lists yet: update them once if need be.
  : >/tmp/ariadne-slurm-apt.log
  if install || { apt-get update -qq >>/tmp/ariadne-slurm-apt.log 2>&1 && install; }; then installed=1; fi
  if [ -n "$saved_policy" ]; then mv "$saved_policy" "$policy"; else rm -f "$policy"; fi
  if [ "$installed" = 0 ]; then
    say "skipped: the Slurm packages cannot be installed (apt-get: $(tail -1 /tmp/ariadne-slurm-apt.log))"
    exit $skip
  fi
fi
say "packages ready after $(since "$started") s"

work=$(mktemp -d /tmp/ariadne-slurm-XXXXXX)
chmod 755 "$work"
pids=()

cleanup() {
  status=$?
  # Jobs first (their steps are slurmd's children), then the daemons, newest first.
  [ -n "${SLURM_CONF:-}" ] && scancel --full --quiet --user=root >/dev/null 2>&1
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill "${pids[i]}" 2>/dev/null; done
  for pid in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null  # they are this shell's children: reap them
  done
  # What is still alive: ours by pid, anything naming the work folder, and job steps
  # (slurmstepd detaches from slurmd, so it is found by name). A zombie has exited
  # already (init reaps it), so it does not count; give the rest 5 s to go.
  alive() {
    for pid in "${pids[@]}" $(pgrep -f "$work") $(pgrep -x slurmstepd); do
      [ -n "$(ps -o stat= -p "$pid" 2>/dev/null | grep -v Z)" ] && echo "$pid"
    done
  }
  for _ in $(seq 50); do [ -z "$(alive)" ] && break; sleep 0.1; done
  left=$(alive | tr '\n' ' ')
  if [ -n "${left// /}" ]; then
    say "FAILED: processes left behind: $left"
    ps -o pid,stat,args -p "$(echo $left | tr ' ' ',')" 2>/dev/null
    status=1
  else
    say "no process left behind"
  fi
  [ "$status" = 0 ] || { for log in "$work"/*.log "$work"/run/logs/*.log; do
    [ -f "$log" ] && { echo "--- $log"; tail -20 "$log"; }; done; }
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# munged with a key, socket and pid file of its own; --force since it runs as root.
dd if=/dev/urandom of="$work/munge.key" bs=1024 count=1 status=none
chmod 400 "$work/munge.key"
munged --foreground --force --key-file="$work/munge.key" --socket="$work/munge.socket" \
  --pid-file="$work/munged.pid" --log-file="$work/munged.log" --seed-file="$work/munge.seed" &
pids+=($!)

# Ports no other Slurm on this machine uses.
port=$((17000 + RANDOM % 2000))
host=$(hostname -s)
cpus=$(nproc)
mkdir -p "$work/state" "$work/spool"
cat >"$work/slurm.conf" <<EOF
ClusterName=ariadne-test
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$work/munge.socket
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerParameters=batch_sched_delay=0
ReturnToService=2
MpiDefault=none
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$work/slurm.conf"

for _ in $(seq 50); do [ -S "$work/munge.socket" ] && break; sleep 0.1; done
[ -S "$work/munge.socket" ] || fail "munged did not start"
slurmctld -D -i >/dev/null 2>&1 &
pids+=($!)
for _ in $(seq 100); do scontrol ping 2>/dev/null | grep -q UP && break; sleep 0.1; done
scontrol ping 2>/dev/null | grep -q UP || fail "slurmctld does not answer"
slurmd -D >/dev/null 2>&1 &
pids+=($!)
for _ in $(seq 100); do sinfo -h -o %T 2>/dev/null | grep -q idle && break; sleep 0.1; done
sinfo -h -o %T | grep -q idle || fail "slurmd did not register: $(sinfo -h -o %T)"
say "cluster up after $(since "$started") s ($cpus CPUs on $host)"

# The corpora: ours, and the shared Knossos and Porcupine ones beside the repository
# when present.
corpus="$source_dir/corpus"
shared="$source_dir/../shared/corpus"

# shard.sh and the submit commands, as the docs write them.
docs="$source_dir/docs/batch-systems.md"
block() {  # the Nth ```bash block after "## Slurm job array"
  awk -v n="$1" '/^## Slurm job array/ {on=1} on && /^```bash/ {k++; if (k==n) {grab=1; next}}
                 grab && /^```/ {exit} grab {print}' "$docs"
}
shards=4
mkdir -p "$work/bin" && ln -s "$ariadne" "$work/bin/ariadne"
export PATH="$work/bin:$PATH"

# Runs the docs' job array over corpus $1 in folder $2; returns the first job's id.
prepare() {
  mkdir -p "$2" && cd "$2" || exit 1
  block 1 | sed -e "s|--array=0-15|--array=0-$((shards - 1))|" -e "s|^N=16|N=$shards|" \
    -e "s|--cpus-per-task=4|--cpus-per-task=1|" -e "s|/shared/corpus|$1|" >shard.sh
  grep -q "N=$shards" shard.sh && grep -q -- "--array=0-$((shards - 1))" shard.sh && grep -q -- "$1" shard.sh ||
    fail "docs/batch-systems.md's shard.sh no longer has the lines this test substitutes"
}

# Waits until no job of the user is pending or running (sbatch --wait polls after 2, 8,
# then every 32 s: too slow here).
wait_idle() {
  for _ in $(seq 600); do
    [ -z "$(squeue -h -o %i)" ] && return 0
    sleep 0.1
  done
  fail "jobs still queued after 60 s: $(squeue)"
}

# The rows of a --json corpus report, without their times: what must not depend on
# how the corpus was split.
rows_of() {
  python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
for r in d["rows"]: print(r["file"], r["model"], r["expected"], r["verdict"], r["ok"])
print("totals", d["totals"]["rows"], d["totals"]["matches"], d["totals"]["mismatches"], d["totals"]["errors"])' "$1"
}

check_corpus() {  # $1: the corpus, $2: a name for its folder
  local corpus=$1 run="$work/run-$2"
  local t0
  t0=$(date +%s.%N)
  prepare "$corpus" "$run"
  # The docs' submit block: shard.sh, then the merge once every task succeeded.
  block 2 >submit.sh
  bash submit.sh || fail "the docs' submit commands failed"
  wait_idle
  [ -f logs/merge.log ] || fail "the merge job did not run: $(ls logs)"
  for i in $(seq 0 $((shards - 1))); do [ -s "reports/shard-$i.json" ] || fail "no report from shard $i"; done
  ariadne corpus "$corpus" --json >whole.json
  local m0
  m0=$(date +%s.%N)
  ariadne corpus --merge reports/shard-*.json --json >merged.json || fail "the merge refused the shards"
  local merge_s walls
  merge_s=$(since "$m0")
  walls=$(python3 -c 'import json,sys
print(" ".join("%.0f" % json.load(open(f))["totals"]["wall_ms"] for f in sys.argv[1:]))' reports/shard-*.json)
  diff <(rows_of whole.json) <(rows_of merged.json) >/dev/null || fail "merged rows differ from the unsharded run"
  grep -q "^rows $(rows_of whole.json | tail -1 | cut -d' ' -f2) " logs/merge.log ||
    fail "logs/merge.log does not hold the whole corpus's table"
  say "$2: $shards shards and the merge job ran under Slurm; $(rows_of merged.json | tail -1 | cut -d' ' -f2) rows, identical to the unsharded run; shards' walls $walls ms, merge ${merge_s} s, all $(since "$t0") s"

  # A cancelled task: hold the array, cancel one task, release the others.
  rm -rf reports logs
  mkdir -p logs
  jobid=$(sbatch --parsable --hold shard.sh) || fail "sbatch --hold failed"
  scancel "${jobid}_2" || fail "scancel of task 2 failed"
  scontrol release "$jobid" >/dev/null 2>&1
  merge_id=$(sbatch --parsable --dependency=afterok:"$jobid" --kill-on-invalid-dep=yes --output=logs/merge.log \
    --wrap='ariadne corpus --merge reports/shard-*.json')
  wait_idle
  [ -f logs/merge.log ] && fail "the merge job ran although task 2 was cancelled"
  [ -f reports/shard-2.json ] && fail "the cancelled task wrote a report"
  if ariadne corpus --merge reports/shard-*.json >refused.txt 2>&1; then fail "the merge accepted 3 of 4 shards"; fi
  grep -q "no report for shard 2" refused.txt || fail "the refusal does not name shard 2: $(cat refused.txt)"
  # Rerunning only the missing shard, as the docs say, completes the set.
  sbatch --array=2 shard.sh >/dev/null || fail "sbatch --array=2 failed"
  wait_idle
  ariadne corpus --merge reports/shard-*.json --json >merged.json || fail "the merge refused the completed set"
  diff <(rows_of whole.json) <(rows_of merged.json) >/dev/null || fail "rows differ after rerunning shard 2"
  say "$2: a cancelled task kept the merge job from running (job $merge_id), --merge named shard 2, and rerunning it alone completed the set"
  cd "$work" || exit 1
}

# One history by key (the docs' key-shard.sh and its submit block): generated kv
# histories, refuted and not, merged by the docs' merge job and compared with an
# unsharded check.
check_keys() {  # $1: a name, then the generate options
  local name=$1 run="$work/keys-$1" t0
  shift
  t0=$(date +%s.%N)
  mkdir -p "$run" && cd "$run" || exit 1
  ariadne generate atomic --model kv "$@" -o history.edn || fail "generate failed"
  block 3 | sed -e "s|--array=0-15|--array=0-$((shards - 1))|" -e "s|^N=16|N=$shards|" \
    -e "s|--cpus-per-task=4|--cpus-per-task=1|" -e "s|/shared/history.edn|$run/history.edn|" >key-shard.sh
  grep -q "N=$shards" key-shard.sh && grep -q "$run/history.edn" key-shard.sh ||
    fail "docs/batch-systems.md's key-shard.sh no longer has the lines this test substitutes"
  block 4 | sed -e "s|/shared/history.edn|$run/history.edn|" >submit.sh
  grep -q "$run/history.edn" submit.sh || fail "docs/batch-systems.md's key-shard submit block changed"
  bash submit.sh || fail "the docs' key-shard submit commands failed"
  wait_idle
  [ -f logs/merge.log ] || fail "$name: the merge job did not run"
  ariadne check history.edn --model kv --json >whole.json
  ariadne check history.edn --model kv --merge reports/key-shard-*.json --json >merged.json
  python3 - whole.json merged.json history.edn <<'PY' || fail "$name: the merged answer differs from the unsharded check"
import json, re, sys
w, m = (json.load(open(p)) for p in sys.argv[1:3])
fields = ["verdict", "operations", "core", "core_minimal", "failing_partition", "failing_op", "explanation"]
bad = [f for f in fields if w.get(f) != m.get(f)]
# The completed ops of the two witnesses: a key whose race another engine won (the
# race is timing's, and a shard runs beside fewer keys) may use other crashed ops,
# and both witnesses are certified. An op's id is its invocation's event position.
events = [line for line in open(sys.argv[3]) if line.startswith("{")]
open_call, crashed = {}, set(range(len(events)))
for i, event in enumerate(events):
    process = re.search(r":process (\S+?),", event).group(1)
    if ":type :invoke" in event:
        open_call[process] = i
    elif ":type :ok" in event:
        crashed.discard(open_call.pop(process))
completed = lambda order: sorted(set(order) - crashed)
if completed(w.get("linearization", [])) != completed(m.get("linearization", [])): bad.append("linearization")
if bad: sys.exit("differ: " + ", ".join(bad))
PY
  say "keys $name: $shards key shards and the merge job ran under Slurm; $(python3 -c 'import json; d=json.load(open("merged.json")); print(d["verdict"], d["operations"], "ops")'), identical to the unsharded check ($(since "$t0") s)"
  cd "$work" || exit 1
}

check_corpus "$corpus" ours
check_keys linearizable --keys 40 --processes 10 --ops 20000 --seed 1
check_keys refuted --keys 40 --processes 10 --ops 20000 --violation --seed 2
for name in knossos porcupine; do
  if [ -f "$shared/$name/expected.tsv" ]; then
    check_corpus "$(realpath "$shared/$name/expected.tsv")" "$name"
  else
    say "$name: no shared corpus beside the repository ($shared/$name), not run"
  fi
done
say "passed in $(since "$started") s"
