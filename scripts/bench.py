#!/usr/bin/env python3
"""Benchmarks the checker on the shared corpora: per-file checking time (median of
several runs), totals per family, and peak memory of the whole process.

Usage: scripts/bench.py [--ariadne build/ariadne] [--runs 5] [--jobs 1] [--shared ../shared/corpus]

Times are ariadne's own "elapsed_ms" (checking only: parsing and printing excluded),
the figure Porcupine's and Knossos' published numbers also measure. Peak memory is the
maximum resident set size of the `ariadne corpus` process, from /usr/bin/time.
A benchmark, not a test: it asserts nothing and prints the targets beside the numbers.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile


def run_corpus(ariadne, tsv, jobs):
    with tempfile.NamedTemporaryFile("r") as rss:
        out = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", rss.name, ariadne, "corpus", tsv,
                              "--jobs", str(jobs), "--json"], capture_output=True, text=True)
        if out.returncode not in (0, 1):
            sys.exit(f"ariadne corpus {tsv} failed with {out.returncode}: {out.stderr}")
        peak_kib = int(rss.read().strip().splitlines()[-1])
    return json.loads(out.stdout), peak_kib


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ariadne", default="build/ariadne")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--shared", default="../shared/corpus")
    ap.add_argument("--top", type=int, default=10, help="slowest files to list per corpus")
    args = ap.parse_args()

    for name in ("porcupine", "knossos"):
        tsv = os.path.join(args.shared, name, "expected.tsv")
        if not os.path.exists(tsv):
            print(f"{tsv}: absent, skipped")
            continue
        per_file, totals, walls, peaks, mismatches = {}, [], [], [], 0
        for _ in range(args.runs):
            report, peak_kib = run_corpus(args.ariadne, tsv, args.jobs)
            mismatches += sum(1 for r in report["rows"] if not r["ok"])
            for r in report["rows"]:
                key = r["file"] if name == "porcupine" else f'{r["file"]} {r["model"]}'
                per_file.setdefault(key, []).append(r["elapsed_ms"])
            totals.append(sum(r["elapsed_ms"] for r in report["rows"]))
            walls.append(report["totals"]["wall_ms"])
            peaks.append(peak_kib)
        med = {f: statistics.median(ts) for f, ts in per_file.items()}
        print(f"\n## {name}: {len(med)} rows, {args.runs} runs, --jobs {args.jobs}, "
              f"mismatches over all runs: {mismatches}")
        print(f"checking time, sum over files (median of runs): {statistics.median(totals):.1f} ms")
        print(f"wall time of `ariadne corpus` (median): {statistics.median(walls):.1f} ms")
        print(f"peak RSS (max of runs): {max(peaks) / 1024:.1f} MiB")
        if name == "porcupine":
            etcd = sum(t for f, t in med.items() if f.startswith("jepsen/"))
            print(f"102 etcd histories, sum of per-file medians: {etcd:.1f} ms (target < 100 ms)")
            print(f"kv/c50-bad.txt median: {med.get('kv/c50-bad.txt', float('nan')):.1f} ms (target < 50 ms)")
        else:
            print(f"slowest Knossos file: {max(med.values()):.1f} ms (target < 100 ms)")
        print(f"slowest {args.top} (median ms):")
        for f, t in sorted(med.items(), key=lambda kv: -kv[1])[: args.top]:
            print(f"  {t:9.2f}  {f}")


if __name__ == "__main__":
    main()
