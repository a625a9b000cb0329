#!/usr/bin/env python3
"""Sequential consistency beside linearizability on the same files: the default
check's wall time under both conditions, core included, on the lagging-follower family.

Usage: scripts/bench_sequential.py [--ariadne build/ariadne] [--work-dir /tmp/ariadne-sequential]
                                   [--sizes 2000,20000] [--seeds 5] [--runs 5]

For each size N and seed S, `ariadne generate lagging-follower --ops N --seed S` (a
register read from followers that lag: sequentially consistent, not linearizable) and
the same with --violation (one reader moves to a follower further behind: neither),
each checked RUNS times with `ariadne check FILE --model 'register(0)' --json` and
`--consistency linearizable` and `sequential`, one after the other, so both columns
are measured side by side on the same machine in the same minute. Reported per row:
the verdicts (each compared with the file's `; expected:` and `; expected-sequential:`
headers), the median wall time of the whole command under each condition, the
verdict's share of it ("verdict_ms", or "elapsed_ms" when the condition holds), and
the core's size and whether it is minimal.

Generated files are kept in --work-dir and reused. A benchmark, not a test: it asserts
nothing (tests/generators/lagging_follower_test.cpp and tests/consistency/ do).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

from history_headers import read_headers


def generate(args, ops, seed, violation):
    name = f"lagging-follower-{ops}-{seed}{'-violation' if violation else ''}.edn"
    path = os.path.join(args.work_dir, name)
    if not os.path.exists(path):
        command = [args.ariadne, "generate", "lagging-follower", "--ops", str(ops), "--seed", str(seed),
                   "-o", path + ".part"]
        if violation:
            command.append("--violation")
        subprocess.run(command, check=True)
        os.replace(path + ".part", path)
    return path


def check(args, path, consistency):
    start = time.monotonic()
    run = subprocess.run([args.ariadne, "check", path, "--model", "register(0)", "--consistency", consistency,
                          "--json"], capture_output=True, text=True)
    wall = (time.monotonic() - start) * 1000
    if run.returncode not in (0, 1, 2):
        sys.exit(f"{path}: exit {run.returncode}: {run.stderr.strip()}")
    result = json.loads(run.stdout)
    result["wall_ms"] = wall
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ariadne", default="build/ariadne")
    parser.add_argument("--work-dir", default="/tmp/ariadne-sequential")
    parser.add_argument("--sizes", type=lambda s: [int(x) for x in s.split(",")], default=[2000, 20000])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    os.makedirs(args.work_dir, exist_ok=True)
    print(f"median of {args.runs} runs per file and condition, {os.cpu_count()} cores\n")
    print("| ops | seed | family | linearizable: verdict | wall | sequential: verdict | wall | verdict part "
          "| core | right |")
    print("|---:|---:|---|---|---:|---|---:|---:|---:|---|")
    for ops in args.sizes:
        for seed in range(1, args.seeds + 1):
            for violation in (False, True):
                path = generate(args, ops, seed, violation)
                expected = read_headers(path)
                lin, seq = [], []
                for _ in range(args.runs):
                    lin.append(check(args, path, "linearizable"))
                    seq.append(check(args, path, "sequential"))
                last = seq[-1]
                part = statistics.median(r.get("verdict_ms", r["elapsed_ms"]) for r in seq)
                core = (f"{len(last['core'])}{'' if last.get('core_minimal') else ' (not minimal)'}"
                        if "core" in last else "-")
                right = (lin[-1]["verdict"] == expected["expected"] and
                         last["verdict"] == expected["expected-sequential"])
                print(f"| {ops:,} | {seed} | {'violation' if violation else 'stale reads'} | {lin[-1]['verdict']} "
                      f"| {statistics.median(r['wall_ms'] for r in lin):.0f} ms | {last['verdict']} "
                      f"| {statistics.median(r['wall_ms'] for r in seq):.0f} ms | {part:.0f} ms | {core} "
                      f"| {'yes' if right else 'NO'} |", flush=True)


if __name__ == "__main__":
    main()
