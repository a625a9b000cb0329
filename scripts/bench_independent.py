#!/usr/bin/env python3
"""Benchmarks `ariadne check --independent` on generated jepsen.independent histories:
the default command, core included, as a user waits for it.

Usage: scripts/bench_independent.py [--ariadne build/ariadne] [--keys 100] [--ops 100000]
                                    [--runs 5] [--work-dir /tmp/ariadne-independent]

For each of four shapes, `ariadne generate atomic --model 'independent(cas-register)'
--keys K --ops N --processes 10 --seed 1`: unique values and values from a domain of
5 (as Jepsen's own cas-register tests draw them), each linearizable and with
--violation (a stale read planted on one key). Each file is then checked RUNS times
with `ariadne check FILE --independent --model cas-register --json`; reported per
shape: the median wall time of the whole command (reading, every key's verdict, the
failing key's failing op, minimal core and explanation, printing), the medians of
its "read_ms" and "elapsed_ms", the verdict, the core's size and the largest peak
resident set size, beside issue 19's target of 2 s for 100 keys and 100,000 ops.

A benchmark, not a test: it asserts nothing.
"""
import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time


def generate(ariadne, path, keys, ops, values, violation):
    if os.path.exists(path):
        return
    command = [ariadne, "generate", "atomic", "--model", "independent(cas-register)", "--keys", str(keys),
               "--ops", str(ops), "--processes", "10", "--values", values, "--seed", "1", "-o", path + ".part"]
    if violation:
        command.append("--violation")
    subprocess.run(command, check=True)
    os.replace(path + ".part", path)


def timed_check(ariadne, path):
    with tempfile.NamedTemporaryFile("r") as rss:
        command = ["/usr/bin/time", "-f", "%M", "-o", rss.name, ariadne, "check", path, "--independent",
                   "--model", "cas-register", "--json"]
        start = time.monotonic()
        run = subprocess.run(command, capture_output=True, text=True)
        wall = time.monotonic() - start
        if run.returncode not in (0, 1, 2):
            raise SystemExit(f"{' '.join(command)} exited {run.returncode}: {run.stderr}")
        return wall, int(rss.read().strip().splitlines()[-1]) * 1024, json.loads(run.stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ariadne", default="build/ariadne")
    parser.add_argument("--keys", type=int, default=100)
    parser.add_argument("--ops", type=int, default=100000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--work-dir", default=os.path.join(tempfile.gettempdir(), "ariadne-independent"))
    args = parser.parse_args()
    os.makedirs(args.work_dir, exist_ok=True)

    print(f"{args.keys} keys, {args.ops} ops, median of {args.runs} runs; target: under 2 s")
    print(f"{'values':>7} {'violation':>9} {'verdict':>17} {'core':>5} {'wall s':>7} {'read ms':>8} "
          f"{'check ms':>9} {'peak MiB':>9}")
    for values in ("unique", "5"):
        for violation in (False, True):
            name = f"independent-{args.keys}-{args.ops}-{values}{'-violation' if violation else ''}.edn"
            path = os.path.join(args.work_dir, name)
            generate(args.ariadne, path, args.keys, args.ops, values, violation)
            walls, reads, checks, peak = [], [], [], 0
            answer = None
            for _ in range(args.runs):
                wall, rss, answer = timed_check(args.ariadne, path)
                walls.append(wall)
                reads.append(answer.get("read_ms", 0))
                checks.append(answer.get("elapsed_ms", 0))
                peak = max(peak, rss)
            core = len(answer.get("core", [])) if answer.get("core") else "-"
            print(f"{values:>7} {str(violation).lower():>9} {answer['verdict']:>17} {core:>5} "
                  f"{statistics.median(walls):7.2f} {statistics.median(reads):8.0f} "
                  f"{statistics.median(checks):9.0f} {peak / 2**20:9.0f}")


if __name__ == "__main__":
    main()
