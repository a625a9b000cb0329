#!/usr/bin/env python3
"""Benchmarks `check --follow` on a large history piped at full speed, beside the
offline check of the same file, interleaved: wall time and peak resident memory.

Usage: scripts/bench_follow.py [--ariadne build/ariadne] [--ops 1e7] [--runs 3]
                               [--work-dir /tmp/ariadne-scale]

The history: `ariadne generate atomic --model kv --ops N --keys 1000 --processes 50
--crash-rate 0 --seed 1` (the same file as scripts/bench_scale.py's largest row, kept
in --work-dir and reused). Each run times `ariadne check FILE --model kv --json`, then
`cat FILE | ariadne check - --model kv --follow --json`, both with --memory-limit
16GiB (the offline check of 10^7 ops needs more than the 2 GiB default), and reads the
peak RSS from /usr/bin/time. Reported: the medians, their ratio, the largest peaks,
and whether the two answers agree (verdict, operations, linearization length). A
benchmark, not a test: it asserts nothing.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile


def timed(command, shell=False):
    """Runs `command` (a list, or with `shell` a shell line whose stdout is the JSON
    answer) under /usr/bin/time: its wall time, peak RSS in bytes, and answer."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as times, \
            tempfile.NamedTemporaryFile("r", suffix=".json") as out:
        prefix = ["/usr/bin/time", "-f", "%e %M", "-o", times.name]
        if shell:
            subprocess.run(prefix + ["sh", "-c", command + " > " + out.name], check=False,
                           stderr=subprocess.DEVNULL)
        else:
            with open(out.name, "w") as sink:
                subprocess.run(prefix + command, check=False, stdout=sink, stderr=subprocess.DEVNULL)
        answer = json.load(open(out.name))
        wall, peak_kb = times.read().split()[-2:]
        return float(wall), int(peak_kb) * 1024, answer


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ariadne", default="build/ariadne")
    parser.add_argument("--ops", default="1e7")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--work-dir", default="/tmp/ariadne-scale")
    args = parser.parse_args()
    ariadne = os.path.abspath(args.ariadne)
    ops = int(float(args.ops))
    os.makedirs(args.work_dir, exist_ok=True)
    path = os.path.join(args.work_dir, "kv-%s.edn" % ("1e%d" % (len(str(ops)) - 1)))
    if not os.path.exists(path):
        subprocess.run([ariadne, "generate", "atomic", "--model", "kv", "--ops", str(ops), "--keys", "1000",
                        "--processes", "50", "--crash-rate", "0", "--seed", "1", "-o", path + ".part"], check=True)
        os.replace(path + ".part", path)
    offline, follow = [], []
    for run in range(args.runs):
        offline.append(timed([ariadne, "check", path, "--model", "kv", "--json", "--memory-limit", "16GiB"]))
        follow.append(timed("cat %s | %s check - --model kv --follow --json --memory-limit 16GiB" % (path, ariadne),
                            shell=True))
        print("run %d: offline %.2f s, %.0f MiB; follow %.2f s, %.0f MiB" %
              (run + 1, offline[-1][0], offline[-1][1] / 2**20, follow[-1][0], follow[-1][1] / 2**20), flush=True)
    off_wall = statistics.median(w for w, _, _ in offline)
    fol_wall = statistics.median(w for w, _, _ in follow)
    a, b = offline[-1][2], follow[-1][2]
    same = (a["verdict"] == b["verdict"] and a["operations"] == b["operations"] and
            len(a.get("linearization", [])) == len(b.get("linearization", [])))
    print("| check | wall (median of %d) | peak RSS (largest) |" % args.runs)
    print("|---|---:|---:|")
    print("| offline, the file | %.2f s | %.0f MiB |" % (off_wall, max(p for _, p, _ in offline) / 2**20))
    print("| --follow, a pipe at full speed | %.2f s | %.0f MiB |" % (fol_wall, max(p for _, p, _ in follow) / 2**20))
    print("ratio %.2fx; answers agree: %s (%s, %d operations)" % (fol_wall / off_wall, same, b["verdict"],
                                                                 b["operations"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
