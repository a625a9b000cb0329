#!/usr/bin/env python3
"""Benchmarks the engines side by side: each engine alone and the race (--engine auto)
on the hard histories of issue 3 and on the easy corpora.

Usage: scripts/bench_engines.py [--ariadne build/ariadne] [--runs 3] [--timeout 60]
                                [--shared ../shared/corpus] [--only storm,c50,easy]

1. Crash storms: `ariadne generate crash-storm --ops 2000 --crashed-writes 50`, seeds
   1-3, linearizable and with one stale read. Each engine alone (wgl, jit, sat, smt)
   with --timeout, and the race.
2. Porcupine's kv/c50-bad.txt: the whole file and each key on its own (keys split out
   with the file's own lines), every engine.
3. The easy corpora (Porcupine's and Knossos' expected.tsv): the race against WGL alone,
   alternating in one run, median of --runs; the sum of per-file checking time.

Times are ariadne's own "elapsed_ms" (checking only; for refutations "verdict_ms", the
time to the verdict, before the search for the failing op) except where marked wall; every
cell is the median of --runs runs (hard cases: one run per engine when it times out).
A benchmark, not a test: it asserts nothing.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

ENGINES = ["wgl", "jit", "sat", "smt", "auto"]


def check(ariadne, path, model, engine, timeout, fmt=None):
    # --no-core: the verdict is what is timed; shrinking a storm's core would only
    # lengthen the run.
    cmd = [ariadne, "check", path, "--model", model, "--engine", engine, "--json", "--timeout", str(timeout),
           "--no-core"]
    if fmt:
        cmd += ["--format", fmt]
    with tempfile.NamedTemporaryFile("r") as rss:
        out = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", rss.name] + cmd, capture_output=True, text=True)
        peak_kib = int(rss.read().strip().splitlines()[-1])
    if out.returncode not in (0, 1, 2):
        sys.exit(f"{' '.join(cmd)} failed with {out.returncode}: {out.stderr}")
    result = json.loads(out.stdout)
    result["peak_mib"] = peak_kib / 1024
    return result


def cell(results):
    verdicts = {r["verdict"] for r in results}
    # A refutation's time is when the verdict was known, before the courtesy search
    # for the failing op.
    ms = statistics.median(r.get("verdict_ms", r["elapsed_ms"]) for r in results)
    v = "/".join(sorted(verdicts))
    short = {"linearizable": "lin", "not-linearizable": "NOT", "unknown": "unknown"}.get(v, v)
    winner = results[0]["engine"]
    peak = max(r["peak_mib"] for r in results)
    if short == "unknown":
        reason = results[0].get("reason", "")
        return f"unknown ({reason[:40]}), {peak:.0f} MiB"
    return f"{short} {ms / 1000:.2f} s ({winner}, {peak:.0f} MiB)"


def table(title, rows, engines):
    print(f"\n## {title}\n")
    print("| history | " + " | ".join(engines) + " |")
    print("|---" * (len(engines) + 1) + "|")
    for name, cells in rows:
        print(f"| {name} | " + " | ".join(cells) + " |")


def run_hard(args, name, path, model, fmt=None):
    cells = []
    for engine in ENGINES:
        results = []
        for _ in range(args.runs):
            r = check(args.ariadne, path, model, engine, args.timeout, fmt)
            results.append(r)
            if r["verdict"] == "unknown":
                break  # a timeout is not worth repeating
        cells.append(cell(results))
        print(f"  {name} {engine}: {cells[-1]}", file=sys.stderr)
    return (name, cells)


def storms(args, tmp):
    rows = []
    for seed in (1, 2, 3):
        for stale in (False, True):
            path = os.path.join(tmp, f"storm-{seed}{'-stale' if stale else ''}.edn")
            cmd = [args.ariadne, "generate", "crash-storm", "--ops", "2000", "--crashed-writes", "50",
                   "--seed", str(seed), "-o", path] + (["--stale-read"] if stale else [])
            subprocess.run(cmd, check=True)
            rows.append(run_hard(args, f"storm seed {seed}{' stale read' if stale else ''}", path,
                                 "cas-register(0)"))
    table("Crash storms: 2000 ops, 50 crashed writes (timeout %g s)" % args.timeout, rows, ENGINES)


def c50(args, tmp):
    source = os.path.join(args.shared, "porcupine", "kv", "c50-bad.txt")
    if not os.path.exists(source):
        print(f"{source}: absent, skipped")
        return
    rows = [run_hard(args, "c50-bad.txt (whole)", source, "kv", "porcupine-kv")]
    lines = open(source).read().splitlines()
    keys = sorted({l.split(':key "')[1].split('"')[0] for l in lines if ':key "' in l}, key=int)
    for key in keys:
        path = os.path.join(tmp, f"c50-bad-key-{key}.txt")
        with open(path, "w") as f:
            f.write("\n".join(l for l in lines if f':key "{key}"' in l) + "\n")
        rows.append(run_hard(args, f"c50-bad key {key}", path, "kv", "porcupine-kv"))
    table("Porcupine kv/c50-bad.txt (timeout %g s)" % args.timeout, rows, ENGINES)


def easy(args):
    print("\n## Easy corpora: the race (auto) against WGL alone\n")
    print("| corpus | files | wgl (sum of elapsed_ms) | auto | auto / wgl | auto winners |")
    print("|---|---|---|---|---|---|")
    for name in ("porcupine", "knossos"):
        tsv = os.path.join(args.shared, name, "expected.tsv")
        if not os.path.exists(tsv):
            print(f"| {name} | absent | | | | |")
            continue
        totals = {"wgl": [], "auto": []}
        winners = {}
        files = 0
        for _ in range(args.runs):
            for engine in ("wgl", "auto"):  # alternating, so drift hits both alike
                out = subprocess.run([args.ariadne, "corpus", tsv, "--engine", engine, "--jobs", "1", "--json"],
                                     capture_output=True, text=True)
                report = json.loads(out.stdout)
                files = len(report["rows"])
                totals[engine].append(sum(r["elapsed_ms"] for r in report["rows"]))
                if engine == "auto":
                    for r in report["rows"]:
                        winners[r.get("engine", "?")] = winners.get(r.get("engine", "?"), 0) + 1
        w = statistics.median(totals["wgl"])
        a = statistics.median(totals["auto"])
        won = ", ".join(f"{k} {v // args.runs}" for k, v in sorted(winners.items()))
        print(f"| {name} | {files} | {w:.1f} ms | {a:.1f} ms | {a / w:.2f} | {won} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ariadne", default="build/ariadne")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--shared", default="../shared/corpus")
    ap.add_argument("--only", default="storm,c50,easy")
    args = ap.parse_args()
    only = set(args.only.split(","))
    with tempfile.TemporaryDirectory() as tmp:
        if "storm" in only:
            storms(args, tmp)
        if "c50" in only:
            c50(args, tmp)
        if "easy" in only:
            easy(args)


if __name__ == "__main__":
    main()
