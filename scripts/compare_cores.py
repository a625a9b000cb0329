#!/usr/bin/env python3
"""Two builds side by side on every refuted history: the default check's core time,
size and minimality, file by file.

    scripts/compare_cores.py --old OLD_BINARY --new NEW_BINARY [--shared ../shared/corpus]
                             [--ratio 1.0] [--slack-ms 3] [--runs 1]

The files: the refuted rows of the Knossos and Porcupine corpora' expected.tsv, and
every file of corpus/ whose header says `; expected: not-linearizable` and names its
`; model:`. For each, `check --json` with each build (alternating, one process at a
time; with --runs N, the median of N runs each). Prints the sums, the cores not
minimal, and every file whose core time with the new build exceeds the old one's
times --ratio plus --slack-ms, or whose core was minimal with the old build and is
not with the new. For answering "is any core slower than before?", e.g. before and
after a change to explain/. A benchmark, not a test: it asserts nothing.
"""
import argparse
import glob
import json
import os
import statistics
import subprocess


def refuted_files(shared):
    rows = []
    for corpus in ("porcupine", "knossos"):
        base = os.path.join(shared, corpus)
        tsv = os.path.join(base, "expected.tsv")
        if not os.path.exists(tsv):
            continue
        for line in open(tsv):
            parts = line.rstrip("\n").split("\t")
            if len(parts) >= 3 and parts[1] == "not-linearizable":
                rows.append((f"{corpus}/{parts[0]}", os.path.join(base, parts[0]), parts[2]))
    for path in sorted(glob.glob("corpus/**/*.edn", recursive=True)):
        head = open(path, errors="replace").read(4000)
        if "; expected: not-linearizable" not in head:
            continue
        models = [line for line in head.splitlines() if line.startswith("; model:")]
        if models:
            rows.append((path, path, models[0].split(":", 1)[1].strip()))
    return rows


def check(binary, path, model):
    out = subprocess.run([binary, "check", path, "--model", model, "--json"], capture_output=True, text=True).stdout
    try:
        result = json.loads(out)
    except json.JSONDecodeError:
        return None
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--old", required=True)
    ap.add_argument("--new", required=True)
    ap.add_argument("--shared", default="../shared/corpus")
    ap.add_argument("--ratio", type=float, default=1.0)
    ap.add_argument("--slack-ms", type=float, default=3.0)
    ap.add_argument("--runs", type=int, default=1)
    args = ap.parse_args()

    builds = {"old": args.old, "new": args.new}
    totals = {"old": 0.0, "new": 0.0}
    not_minimal = {"old": 0, "new": 0}
    worse = []
    files = refuted_files(args.shared)
    for name, path, model in files:
        seen = {}
        for _ in range(args.runs):
            for which, binary in builds.items():
                result = check(binary, path, model)
                if result is not None:
                    seen.setdefault(which, []).append(result)
        if len(seen) < 2:
            print(f"{name}: no JSON from {'old' if 'old' not in seen else 'new'}")
            continue
        summary = {}
        for which, results in seen.items():
            summary[which] = (statistics.median(r["elapsed_ms"] for r in results),
                              statistics.median(r.get("core_ms", 0) for r in results),
                              all(r.get("core_minimal", False) for r in results), len(results[-1].get("core", [])))
            totals[which] += summary[which][0]
            not_minimal[which] += 0 if summary[which][2] else 1
        old, new = summary["old"], summary["new"]
        if new[1] > old[1] * args.ratio + args.slack_ms or (old[2] and not new[2]):
            worse.append(f"{name}: core {old[1]:.1f} ms -> {new[1]:.1f} ms, {old[3]} -> {new[3]} ops, "
                         f"minimal {old[2]} -> {new[2]}")
    print(f"{len(files)} refuted files; default check summed: old {totals['old']:.0f} ms, new {totals['new']:.0f} ms; "
          f"cores not minimal: old {not_minimal['old']}, new {not_minimal['new']}")
    print(f"{len(worse)} files slower than old x {args.ratio:g} + {args.slack_ms:g} ms, or no longer minimal")
    for line in worse:
        print("  " + line)


if __name__ == "__main__":
    main()
