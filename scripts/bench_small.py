#!/usr/bin/env python3
"""Issue 48's yardsticks, side by side: small histories, keyed histories and the cores
that the default check waits for, for one build or two (--old) in one run.

Usage: scripts/bench_small.py [--ariadne build/ariadne] [--old OLD_BINARY] [--runs 7]
                              [--shared ../shared/corpus] [--cache build/small-cache]

  knossos   `ariadne corpus` over Knossos' 134 rows: the process's wall time (the
            default, a file per CPU at once), and each file's check in process (the
            row's elapsed_ms, the check alone, reading excluded) from a run with
            --jobs 1, so that the two rows checked at once do not slow each other:
            median per file over the runs, then the median over the files
  small     `ariadne corpus` over 10,000 generated histories of 6 to 20 ops, every
            built-in model, half with a violation (generated once into --cache); the
            rows of both corpora that did not get their expected verdict are counted
  kv        `check --no-core --json` on Porcupine's kv/c50-bad.txt (verdict_ms) and
            kv/c50-ok.txt (elapsed_ms)
  etcd      the 102 readable etcd logs: verdicts in all (`--no-core`, verdict_ms when
            refuted, elapsed_ms when linearizable) and the default check in all (its
            elapsed_ms, the core included)
  mutex     Knossos' mutex/bad/etcd.edn, the default check's core_ms

Two builds run alternately, one process at a time, so that the machine's load falls
on both alike; every figure is a median over --runs. The load average is printed
before and after: the machine is shared. A benchmark, not a test: it asserts nothing.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

MODELS = ["register(0)", "cas-register(0)", "etcd", "multi-register", "mutex", "set", "unordered-queue", "fifo-queue",
          "stack", "kv"]
SIZES = [6, 10, 14, 20]
SEEDS_PER_SHAPE = 125  # 10 models x 4 sizes x 2 (with and without a violation) x 125 = 10,000


def run(cmd):
    started = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True)
    return out, (time.perf_counter() - started) * 1000


def run_json(cmd):
    out, wall = run(cmd)
    if out.returncode not in (0, 1):
        sys.exit(f"{' '.join(cmd)} failed with {out.returncode}: {out.stderr[-500:]}")
    return json.loads(out.stdout), wall


def generate_small(ariadne, cache):
    done = os.path.join(cache, ".complete")
    if os.path.exists(done):
        return
    os.makedirs(cache, exist_ok=True)
    for model in MODELS:
        for ops in SIZES:
            for violation in (False, True):
                cmd = [ariadne, "generate", "atomic", "--model", model, "--ops", str(ops), "--processes", "3",
                       "--seed", "1", "--count", str(SEEDS_PER_SHAPE), "--out-dir", cache]
                if violation:
                    cmd.append("--violation")
                out = subprocess.run(cmd, capture_output=True, text=True)
                if out.returncode != 0:
                    sys.exit(f"{' '.join(cmd)} failed: {out.stderr}")
    open(done, "w").close()


def etcd_rows(shared):
    rows = []
    base = os.path.join(shared, "porcupine")
    for line in open(os.path.join(base, "expected.tsv")):
        parts = line.rstrip("\n").split("\t")
        if len(parts) >= 3 and parts[0].startswith("jepsen/etcd_") and parts[1] != "unknown":
            rows.append((os.path.join(base, parts[0]), parts[2]))
    return rows


def measure(binary, args, knossos_rows):
    """One run of every yardstick with `binary`; returns a flat dict of figures."""
    shared = args.shared
    figures = {}
    knossos = os.path.join(shared, "knossos", "expected.tsv")
    report, wall = run_json([binary, "corpus", knossos, "--json"])
    figures["knossos wall ms"] = wall
    figures["rows not as expected"] = report["totals"]["mismatches"] + report["totals"]["errors"]
    report, _ = run_json([binary, "corpus", knossos, "--json", "--jobs", "1"])
    for row in report["rows"]:
        knossos_rows.setdefault((binary, row["file"], row["model"]), []).append(row["elapsed_ms"])
    report, wall = run_json([binary, "corpus", args.cache, "--json"])
    figures["small wall ms"] = wall
    figures["rows not as expected"] += report["totals"]["mismatches"] + report["totals"]["errors"]
    kv = os.path.join(shared, "porcupine", "kv")
    bad, _ = run_json([binary, "check", os.path.join(kv, "c50-bad.txt"), "--model", "kv", "--no-core", "--json"])
    ok, _ = run_json([binary, "check", os.path.join(kv, "c50-ok.txt"), "--model", "kv", "--no-core", "--json"])
    figures["c50-bad verdict ms"] = bad["verdict_ms"]
    figures["c50-ok elapsed ms"] = ok["elapsed_ms"]
    verdicts = default = 0.0
    for path, model in etcd_rows(shared):
        fast, _ = run_json([binary, "check", path, "--model", model, "--no-core", "--json"])
        verdicts += fast.get("verdict_ms", fast["elapsed_ms"])
        whole, _ = run_json([binary, "check", path, "--model", model, "--json"])
        default += whole["elapsed_ms"]
    figures["etcd verdicts ms"] = verdicts
    figures["etcd default ms"] = default
    mutex, _ = run_json([binary, "check", os.path.join(shared, "knossos", "data", "mutex", "bad", "etcd.edn"),
                         "--model", "mutex", "--json"])
    figures["mutex core ms"] = mutex["core_ms"]
    figures["mutex core minimal"] = 1.0 if mutex.get("core_minimal") else 0.0
    return figures


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ariadne", default="build/ariadne")
    ap.add_argument("--old", help="a second build, measured alternately with the first")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--shared", default="../shared/corpus")
    ap.add_argument("--cache", default="build/small-cache")
    args = ap.parse_args()
    if not os.path.isdir(os.path.join(args.shared, "knossos")):
        sys.exit(f"{args.shared}: the shared corpora are not there")
    generate_small(args.ariadne, args.cache)
    binaries = [args.ariadne] + ([args.old] if args.old else [])
    print("load average before:", " ".join(f"{x:.2f}" for x in os.getloadavg()))
    runs = {b: [] for b in binaries}
    knossos_rows = {}
    for _ in range(args.runs):
        for binary in binaries:
            runs[binary].append(measure(binary, args, knossos_rows))
    print("load average after: ", " ".join(f"{x:.2f}" for x in os.getloadavg()))
    targets = {"knossos wall ms": "< 30", "knossos file median us": "< 20", "small wall ms": "< 2000",
               "c50-bad verdict ms": "< 3", "c50-ok elapsed ms": "< 28", "etcd verdicts ms": "< 60",
               "etcd default ms": "< 1000", "mutex core ms": "< 300", "mutex core minimal": "1",
               "rows not as expected": "0"}
    header = f"{'figure (median of ' + str(args.runs) + ')':32}" + "".join(f"{os.path.basename(b):>16}" for b in binaries)
    print(header + f"{'target':>10}")
    for name in targets:
        cells = []
        for binary in binaries:
            if name == "knossos file median us":
                per_file = [statistics.median(times) * 1000 for (b, _, _), times in knossos_rows.items() if b == binary]
                cells.append(statistics.median(per_file))
            else:
                cells.append(statistics.median(r[name] for r in runs[binary]))
        print(f"{name:32}" + "".join(f"{c:16.2f}" for c in cells) + f"{targets[name]:>10}")


if __name__ == "__main__":
    main()
