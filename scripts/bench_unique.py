#!/usr/bin/env python3
"""The unique-value engines (search/unique_*.cpp) on generated histories: the default
check's time, core included, and how it grows with the history.

Usage: scripts/bench_unique.py [--ariadne build/ariadne] [--work-dir /tmp/ariadne-unique]
                               [--seeds 10] [--runs 3] [--max-ops 1000000]
                               [--models a,b,...] [--no-seeds] [--no-scaling]
                               [--scaling-kinds violation,linearizable]

Seeds table: for each model and size below, `ariadne generate atomic --model M --ops N
--processes 10 --values unique --crash-rate 0.02 --seed S` for S = 1..SEEDS, linearizable
and with --violation, each checked once with the default `ariadne check FILE --model M
--json` (the race, the certificate and the minimal core included). Reported per row:
how many answers were right (generated histories are linearizable by construction,
and not with --violation), how many the unique engine won, the median and the
largest wall time of the whole command, and whether every core is minimal.
  stack, fifo-queue, unordered-queue, set   2,000 ops
  priority-queue, max-priority-queue        2,000 ops
  fifo-queue, max-priority-queue            20,000 ops
  register, cas-register                    50,000 ops
(A priority queue's unique values are fastlin's shape: each insert a fresh integer that
is its own priority.)

Scaling table: for each model, 10^3 to --max-ops operations (one seed, the violation
planted, so the core's cost shows; with --scaling-kinds linearizable,violation a
linearizable history of each size too), checked RUNS times; reported: the file's size, the
median wall time, the median "elapsed_ms" (checking and certifying, the core
included, without reading the file), and that per operation. A set's reads list the
whole set, so its files grow quadratically: it stops at 10^4 operations.

Generated files are kept in --work-dir and reused. A benchmark, not a test: it asserts
nothing (tests/search/unique_*_test.cpp do).
"""
import argparse
import json
import os
import statistics
import subprocess
import time

SEED_ROWS = [("stack", 2000), ("fifo-queue", 2000), ("unordered-queue", 2000), ("set", 2000),
             ("priority-queue", 2000), ("max-priority-queue", 2000), ("fifo-queue", 20000),
             ("max-priority-queue", 20000), ("register", 50000), ("cas-register", 50000)]
SCALING_MODELS = ["register", "cas-register", "fifo-queue", "unordered-queue", "stack", "set", "max-priority-queue"]
MAX_OPS = {"set": 10000}


def generate(args, model, ops, seed, violation):
    name = f"{model}-{ops}-{seed}{'-violation' if violation else ''}.edn"
    path = os.path.join(args.work_dir, name)
    if not os.path.exists(path):
        command = [args.ariadne, "generate", "atomic", "--model", model, "--ops", str(ops), "--processes", "10",
                   "--values", "unique", "--crash-rate", "0.02", "--seed", str(seed), "-o", path + ".part"]
        if violation:
            command.append("--violation")
        subprocess.run(command, check=True)
        os.replace(path + ".part", path)
    return path


def check(args, path, model):
    start = time.monotonic()
    run = subprocess.run([args.ariadne, "check", path, "--model", model, "--json"], capture_output=True, text=True)
    wall = (time.monotonic() - start) * 1000
    if run.returncode not in (0, 1, 2):
        raise SystemExit(f"{path}: exit {run.returncode}: {run.stderr.strip()}")
    result = json.loads(run.stdout)
    result["wall_ms"] = wall
    return result


def seeds_table(args):
    print(f"Seeds: {args.seeds} linearizable and {args.seeds} --violation histories per row, default check")
    print(f"{'model':<18} {'ops':>7} {'kind':<10} {'right':>6} {'unique':>7} {'median ms':>10} {'max ms':>8} "
          f"{'cores minimal':>14}")
    for model, ops in SEED_ROWS:
        if args.models and model not in args.models:
            continue
        for violation in (False, True):
            walls, right, unique, minimal, cores = [], 0, 0, 0, 0
            for seed in range(1, args.seeds + 1):
                result = check(args, generate(args, model, ops, seed, violation), model)
                walls.append(result["wall_ms"])
                expected = "not-linearizable" if violation else "linearizable"
                right += result["verdict"] == expected
                unique += result.get("engine") == "unique"
                if result["verdict"] == "not-linearizable":
                    cores += 1
                    minimal += bool(result.get("core_minimal"))
            kind = "violation" if violation else "lin"
            core_text = f"{minimal}/{cores}" if violation else "-"
            print(f"{model:<18} {ops:>7} {kind:<10} {right:>3}/{args.seeds:<2} {unique:>4}/{args.seeds:<2} "
                  f"{statistics.median(walls):>10.0f} {max(walls):>8.0f} {core_text:>14}", flush=True)


def scaling_table(args):
    kinds = " and ".join(f"one {kind} history" for kind in args.scaling_kinds)
    print(f"\nScaling: {kinds} per size, default check, median of {args.runs} runs")
    kind_column = len(args.scaling_kinds) > 1
    print(f"{'model':<18} {'ops':>8} " + (f"{'kind':<10} " if kind_column else "") +
          f"{'MB':>7} {'wall ms':>9} {'verdict ms':>10} {'elapsed ms':>11} {'us/op':>7} {'engine':<8} {'core':>5}")
    for model in SCALING_MODELS:
        if args.models and model not in args.models:
            continue
        ops = 1000
        while ops <= min(args.max_ops, MAX_OPS.get(model, args.max_ops)):
            for kind in args.scaling_kinds:
                path = generate(args, model, ops, 1, kind == "violation")
                results = [check(args, path, model) for _ in range(args.runs)]
                wall = statistics.median(r["wall_ms"] for r in results)
                elapsed = statistics.median(r["elapsed_ms"] for r in results)
                verdict = statistics.median(r.get("verdict_ms", r["elapsed_ms"]) for r in results)
                last = results[-1]
                print(f"{model:<18} {ops:>8} " + (f"{kind:<10} " if kind_column else "") +
                      f"{os.path.getsize(path) / 1e6:>7.1f} {wall:>9.0f} {verdict:>10.1f} {elapsed:>11.1f} "
                      f"{elapsed * 1000 / ops:>7.2f} {last.get('engine', '-'):<8} {len(last.get('core') or []):>5}",
                      flush=True)
            ops *= 10


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ariadne", default="build/ariadne")
    parser.add_argument("--work-dir", default="/tmp/ariadne-unique")
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--max-ops", type=int, default=1000000)
    parser.add_argument("--models", type=lambda s: s.split(","), default=None)
    parser.add_argument("--no-seeds", action="store_true")
    parser.add_argument("--no-scaling", action="store_true")
    parser.add_argument("--scaling-kinds", type=lambda s: s.split(","), default=["violation"],
                        help="linearizable, violation or both, comma-separated")
    args = parser.parse_args()
    os.makedirs(args.work_dir, exist_ok=True)
    if not args.no_seeds:
        seeds_table(args)
    if not args.no_scaling:
        scaling_table(args)


if __name__ == "__main__":
    main()
