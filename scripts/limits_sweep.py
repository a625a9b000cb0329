#!/usr/bin/env python3
"""Measures whether --timeout and --memory-limit hold, from outside, on real and
generated histories (the limits issue): every engine alone, the race, check
--explain --proof, corpus --certify and cross-check, each run timed and its peak
resident size read by /usr/bin/time -f %M (the largest of the process and its Z3
child), against the limit.

    scripts/limits_sweep.py --ariadne build/ariadne [--timeout 1] [--memory-limit-mib 512]
                            [--per-model 20] [--json OUT]

A run holds when its wall time is at most --timeout + 100 ms past what the command
could not have avoided (for cross-check: each engine run and the certification
separately, read from its JSON) and its peak resident size is at most the memory
limit + 10 %. Prints one line per failure, a table per mode, and the worst cases.
Runs one command at a time: timings on a shared machine are noisy enough.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

MODELS = ["register", "cas-register", "etcd", "multi-register", "kv", "fifo-queue", "stack", "unordered-queue",
          "set", "mutex"]
ENGINES = ["wgl", "jit", "sat", "smt", "brute", "unique", "auto"]
SLACK_S = 0.1


def generated_histories(ariadne, folder, per_model):
    """per_model histories per model: half linearizable, half with --violation; 200
    and 2,000 operations alternately, 2% crashed ops; queues and stacks all 2,000."""
    out = []
    for model in MODELS:
        for seed in range(1, per_model + 1):
            big = model in ("fifo-queue", "stack", "unordered-queue") or seed % 2 == 0
            ops = 2000 if big else 200
            violation = seed % 4 in (1, 2)
            name = f"{model}-{ops}-{seed}{'-violation' if violation else ''}"
            path = os.path.join(folder, name, name + ".edn")
            os.makedirs(os.path.dirname(path), exist_ok=True)
            args = [ariadne, "generate", "atomic", "--model", model, "--ops", str(ops), "--processes", "10",
                    "--crash-rate", "0.02", "--seed", str(seed), "-o", path]
            if violation:
                args.append("--violation")
            subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
            out.append((name, path, model))
    return out


def reported_histories(shared, folder):
    out = []
    reported = os.path.join(shared, "corpus", "reported")
    tsv = os.path.join(reported, "expected.tsv")
    if not os.path.exists(tsv):
        return out
    for line in open(tsv):
        file, verdict, model = line.rstrip("\n").split("\t")
        name = os.path.splitext(file)[0]
        path = os.path.join(folder, name, file)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        # A corpus folder of one file needs the header lines `corpus DIR` reads.
        with open(path, "w") as copy:
            copy.write(f"; expected: {verdict}\n; model: {model}\n")
            copy.write(open(os.path.join(reported, file)).read())
        out.append((name, path, model))
    return out


def timed(args):
    """Wall seconds, peak RSS in bytes, exit status, stdout."""
    start = time.monotonic()
    with tempfile.NamedTemporaryFile("r") as rss:
        p = subprocess.run(["/usr/bin/time", "-o", rss.name, "-f", "%M"] + args, stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True)
        wall = time.monotonic() - start
        lines = [l for l in open(rss.name).read().split("\n") if l.strip().isdigit()]
        peak = int(lines[-1]) * 1024 if lines else 0
    return wall, peak, p.returncode, p.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ariadne", default="build/ariadne")
    ap.add_argument("--shared", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared"))
    ap.add_argument("--timeout", type=float, default=1.0)
    ap.add_argument("--memory-limit-mib", type=int, default=512)
    ap.add_argument("--per-model", type=int, default=20)
    ap.add_argument("--json", help="write every run as JSON here")
    args = ap.parse_args()
    ariadne = os.path.abspath(args.ariadne)
    limit = args.memory_limit_mib << 20
    t = str(args.timeout)
    mem = f"{args.memory_limit_mib}MiB"

    folder = tempfile.mkdtemp(prefix="ariadne-limits-")
    runs = []
    failures = []
    try:
        histories = reported_histories(args.shared, folder) + generated_histories(ariadne, folder, args.per_model)
        print(f"{len(histories)} histories, --timeout {t}, --memory-limit {mem}", file=sys.stderr)
        for n, (name, path, model) in enumerate(histories):
            here = os.path.dirname(path)
            modes = [(f"check --engine {e}", [ariadne, "check", path, "--model", model, "--engine", e, "--json",
                                              "--timeout", t, "--memory-limit", mem]) for e in ENGINES]
            proof = os.path.join(here, "proof")
            modes.append(("check --explain --proof", [ariadne, "check", path, "--model", model, "--explain", "--json",
                                                      "--proof", proof, "--timeout", t, "--memory-limit", mem]))
            modes.append(("corpus --certify", [ariadne, "corpus", here, "--certify", os.path.join(folder, "cert-" + name),
                                               "--jobs", "1", "--json", "--timeout", t, "--memory-limit", mem]))
            modes.append(("cross-check", [ariadne, "cross-check", here, "--jobs", "1", "--json", "--timeout", t,
                                          "--memory-limit", mem]))
            for mode, command in modes:
                wall, peak, status, out = timed(command)
                allowed = args.timeout + SLACK_S
                worst_part = wall
                if mode == "cross-check":
                    # Six engine runs and a certification, each under the limit.
                    try:
                        report = json.loads(out)
                        parts = [r["ms"] / 1000 for row in report["rows"] for r in row["runs"]]
                        parts += [row["refutation"]["ms"] / 1000 for row in report["rows"] if "refutation" in row]
                        worst_part = max(parts) if parts else 0
                    except (ValueError, KeyError):
                        worst_part = float("inf")
                run = {"history": name, "mode": mode, "wall_s": round(wall, 3), "worst_part_s": round(worst_part, 3),
                       "peak_mib": round(peak / (1 << 20), 1), "status": status}
                runs.append(run)
                held_time = worst_part <= allowed
                held_memory = peak <= limit * 1.1
                if not (held_time and held_memory) or status not in (0, 1, 2):
                    failures.append(run)
                    print(f"FAIL {name} {mode}: {run}", file=sys.stderr)
            print(f"[{n + 1}/{len(histories)}] {name}", file=sys.stderr)
    finally:
        shutil.rmtree(folder, ignore_errors=True)

    print(f"{'mode':28} {'runs':>5} {'median s':>9} {'max s':>7} {'max part s':>10} {'max MiB':>8}")
    for mode in sorted({r["mode"] for r in runs}):
        rs = [r for r in runs if r["mode"] == mode]
        print(f"{mode:28} {len(rs):5} {statistics.median(r['wall_s'] for r in rs):9.3f} "
              f"{max(r['wall_s'] for r in rs):7.3f} {max(r['worst_part_s'] for r in rs):10.3f} "
              f"{max(r['peak_mib'] for r in rs):8.1f}")
    print(f"\n{len(runs)} runs, {len(failures)} past --timeout {t} + {SLACK_S} s or --memory-limit {mem} + 10%")
    for r in sorted(runs, key=lambda r: -r["worst_part_s"])[:5]:
        print(f"  slowest: {r['history']} {r['mode']}: {r['worst_part_s']} s, {r['peak_mib']} MiB")
    if args.json:
        with open(args.json, "w") as out:
            json.dump(runs, out, indent=1)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
