#!/usr/bin/env python3
"""Benchmarks ariadne on large generated histories: how time and peak memory grow
from 10^4 to 10^7 operations, and how fast each reader parses.

Usage: scripts/bench_scale.py [--ariadne build/ariadne] [--sizes 1e4,1e5,1e6,1e7]
                              [--runs 3] [--work-dir /tmp/ariadne-scale] [--formats]

Growth: for each size N, `ariadne generate atomic --model kv --ops N --keys K
--processes 50 --crash-rate 0` (K = 1,000 keys, as the targets state; fewer for the
small sizes so each key still has operations to check), then `ariadne check FILE
--model kv --json` RUNS times. Reported per size: the file's size, the median wall
time of the whole command (reading, pairing, checking, certifying and printing the
witness), the median of its "read_ms" and "elapsed_ms" (checking and certifying),
and the largest peak resident set size (from /usr/bin/time), beside the targets:
10^6 operations in under 1 GiB, 10^7 in under 30 s and 4 GiB.

Parse throughput (--formats, or `make bench-readers`): a 10^6-operation history
written in every format (`ariadne convert`): a kv history in edn, porcupine-kv and
json, and a register history in all four (jepsen-log has no :key), each checked RUNS
times; MB/s is the file's size over the median "read_ms" (reading the file and
pairing its events). Beside it, in the same run and on the same bytes, `grep -c
invoke` (the invocations, a line each in every format, so every byte is read; its
output goes to a pipe, since GNU grep stops at the first match when it writes to
/dev/null), timed as a median of RUNS after one warm-up run that leaves the file in
the page cache for both. The ratios of "read_ms" and of "total_ms" (reading and
checking, as the command reports them) to grep's time are issue 21's targets (at
most 2x and 5x, under 1 GiB); the whole command's wall time adds printing the
witness, freeing the history, and the process's start and end.

Generated files are kept in --work-dir (10^7 operations take 1.4 GB) and reused when
present. A benchmark, not a test: it asserts nothing.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


def generate(ariadne, path, model, ops, keys, processes):
    if os.path.exists(path):
        return
    command = [ariadne, "generate", "atomic", "--model", model, "--ops", str(ops), "--processes", str(processes),
               "--crash-rate", "0", "--seed", "1", "-o", path + ".part"]
    if keys:
        command[5:5] = ["--keys", str(keys)]
    subprocess.run(command, check=True)
    os.replace(path + ".part", path)


def convert(ariadne, source, target, fmt):
    if not os.path.exists(target):
        subprocess.run([ariadne, "convert", source, "--to", fmt, "-o", target + ".part"], check=True)
        os.replace(target + ".part", target)


def timed_check(ariadne, path, model, fmt=None):
    """One `ariadne check --json` run: (wall seconds, peak RSS bytes, its JSON)."""
    with tempfile.NamedTemporaryFile("r") as rss:
        # --memory-limit bounds the whole command's resident memory, reading included;
        # a history of 10^7 operations needs more than the 2 GiB default (3.39 GiB).
        command = ["/usr/bin/time", "-f", "%M", "-o", rss.name, ariadne, "check", path, "--model", model, "--json",
                   "--memory-limit", "16GiB"]
        if fmt:
            command += ["--format", fmt]
        started = time.monotonic()
        out = subprocess.run(command, capture_output=True, text=True)
        wall = time.monotonic() - started
        if out.returncode not in (0, 1):
            sys.exit(f"ariadne check {path} failed with {out.returncode}: {out.stderr}")
        peak = int(rss.read().strip().splitlines()[-1]) * 1024
    return wall, peak, json.loads(out.stdout)


def growth(args):
    print("| operations | keys | file | wall (median) | reading | checking | peak RSS | verdict | target |")
    print("|---:|---:|---:|---:|---:|---:|---:|---|---|")
    targets = {10**6: (None, 1 << 30), 10**7: (30, 4 << 30)}
    for size in args.sizes:
        keys = min(1000, max(1, size // 100))
        path = os.path.join(args.work_dir, f"kv-{size}-{keys}keys.edn")
        generate(args.ariadne, path, "kv", size, keys, 50)
        walls, reads, checks, peaks, verdicts = [], [], [], [], set()
        for _ in range(args.runs):
            wall, peak, report = timed_check(args.ariadne, path, "kv")
            walls.append(wall)
            peaks.append(peak)
            reads.append(report["read_ms"] / 1000)
            checks.append(report["elapsed_ms"] / 1000)
            verdicts.add(report["verdict"])
        target = ""
        if size in targets:
            seconds, memory = targets[size]
            met = (seconds is None or statistics.median(walls) < seconds) and max(peaks) < memory
            target = (f"< {seconds} s, " if seconds else "") + f"< {memory >> 30} GiB: {'met' if met else 'MISSED'}"
        print(f"| {size:,} | {keys:,} | {os.path.getsize(path) / 1e6:,.0f} MB | {statistics.median(walls):.2f} s "
              f"| {statistics.median(reads):.2f} s | {statistics.median(checks):.2f} s | {max(peaks) / 2**20:,.0f} MiB "
              f"| {'/'.join(sorted(verdicts))} | {target} |", flush=True)


def timed_grep(path, runs):
    """Median wall seconds of `grep -c invoke path` into a pipe, after a warm-up run."""
    command = ["grep", "-c", "invoke", path]
    subprocess.run(command, capture_output=True, check=True)
    walls = []
    for _ in range(runs):
        started = time.monotonic()
        subprocess.run(command, capture_output=True, check=True)
        walls.append(time.monotonic() - started)
    return statistics.median(walls)


def formats(args):
    ops = 10**6
    print(f"\n| history ({ops:,} operations) | format | file | reading (median) | throughput | total_ms "
          f"| whole command | peak RSS | grep -c | reading / grep | total_ms / grep | command / grep |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    # The register history has 5 processes: one key, so few enough open at once that
    # its check (which these rows do not time) stays short.
    cases = [("kv", "kv", 1000, 50, ["edn", "porcupine-kv", "json"]),
             ("register", "register", 0, 5, ["edn", "jepsen-log", "json"])]
    for name, model, keys, processes, fmts in cases:
        source = os.path.join(args.work_dir, f"{name}-{ops}-{processes}p.edn")
        generate(args.ariadne, source, model, ops, keys, processes)
        for fmt in fmts:
            path = source if fmt == "edn" else os.path.join(args.work_dir, f"{name}-{ops}.{fmt}")
            convert(args.ariadne, source, path, fmt)
            grep = timed_grep(path, args.runs)
            runs = [timed_check(args.ariadne, path, model, fmt) for _ in range(args.runs)]
            read = statistics.median(r[2]["read_ms"] / 1000 for r in runs)
            total = statistics.median(r[2]["total_ms"] / 1000 for r in runs)
            wall = statistics.median(r[0] for r in runs)
            peak = max(r[1] for r in runs)
            size = os.path.getsize(path)
            print(f"| {name} | {fmt} | {size / 1e6:,.0f} MB | {read:.2f} s | {size / 1e6 / read:,.0f} MB/s "
                  f"| {total:.2f} s | {wall:.2f} s | {peak / 2**20:,.0f} MiB | {grep:.2f} s | {read / grep:.1f}x "
                  f"| {total / grep:.1f}x | {wall / grep:.1f}x |", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ariadne", default="build/ariadne")
    ap.add_argument("--sizes", default="1e4,1e5,1e6,1e7",
                    type=lambda s: [int(float(x)) for x in s.split(",")])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--work-dir", default=os.path.join(tempfile.gettempdir(), "ariadne-scale"))
    ap.add_argument("--formats", action="store_true", help="measure parse throughput per format too")
    ap.add_argument("--no-growth", action="store_true", help="skip the growth table")
    args = ap.parse_args()
    os.makedirs(args.work_dir, exist_ok=True)
    print(f"ariadne: {args.ariadne}; {args.runs} runs each; {os.cpu_count()} cores; files in {args.work_dir}\n")
    if not args.no_growth:
        growth(args)
    if args.formats:
        formats(args)


if __name__ == "__main__":
    main()
