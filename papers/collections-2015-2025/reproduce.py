#!/usr/bin/env python3
"""The concurrent-collection histories of Violin (POPL 2016), LiMo (PLDI 2025) and
fastlin (OOPSLA 2025), read as their authors wrote them: every published verdict, a
minimal core for every refutation, and ariadne's times beside those the POPL 2016
artifact reports.

Usage: papers/collections-2015-2025/reproduce.py [--ariadne build/ariadne] [--runs 3]
                                                [--collections ../shared/corpus/collections]
                                                [--quick]
--quick leaves out the ten 10,000-op Michael-Scott queue runs and checks the cores
of the small histories only.
Exit status: 0 when every verdict matches its source and every core is minimal (or
when the shared corpus is absent: then it prints "skipped"), 1 otherwise.
"""
import csv
import json
import os
import re
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ left in the source tree
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import paperlib  # noqa: E402

# The groups of rows reported apart, by path prefix, in print order.
GROUPS = [
    ("popl16/simple/", "POPL'16 hand-written histories (Figures 9, 11, ...)"),
    ("popl16/small/", "POPL'16 Scal logs, 6-10 ops"),
    ("popl16/big/", "POPL'16 Michael-Scott queue runs, 10,000 ops"),
    ("limo/", "LiMo's test histories"),
    ("fastlin/", "fastlin's test histories"),
]


def expected_rows(collections):
    """(path, verdict, model) for every row of expected.tsv, plus fastlin's priority-queue
    files, whose verdict is in their names (lin_ / nonlin_) and which have no row."""
    rows = []
    with open(os.path.join(collections, "expected.tsv")) as tsv:
        for line in tsv:
            path, verdict, model = line.rstrip("\n").split("\t")
            rows.append((path, verdict, model))
    folder = os.path.join(collections, "fastlin", "testcases", "priorityqueue")
    if os.path.isdir(folder):
        for name in sorted(os.listdir(folder)):
            verdict = "not-linearizable" if name.startswith("nonlin_") else "linearizable"
            rows.append((f"fastlin/testcases/priorityqueue/{name}", verdict, "max-priority-queue"))
    return rows


def published_times(collections):
    """Per POPL'16 history name: (the fastest of the artifact's algorithms in seconds, its
    name), from the artifact's own data.tsv (their machine, 2015)."""
    best = {}
    path = os.path.join(collections, "popl16", "report", "data.tsv")
    if not os.path.exists(path):
        return best
    with open(path) as tsv:
        for row in csv.DictReader(tsv, delimiter="\t"):
            match = re.fullmatch(r"([0-9.]+)s", row.get("time") or "")
            if not match:
                continue
            seconds = float(match.group(1))
            name = row["history"]
            if name not in best or seconds < best[name][0]:
                best[name] = (seconds, row["algorithm"])
    return best


def group_of(path):
    for prefix, _title in GROUPS:
        if path.startswith(prefix):
            return prefix
    return "other"


def main():
    parser = paperlib.argument_parser(__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per file; times are medians (default 3)")
    parser.add_argument("--collections", default=os.path.join(paperlib.SHARED_CORPUS, "collections"),
                        help="the shared collection histories (default: ../shared/corpus/collections)")
    parser.add_argument("--quick", action="store_true", help="leave out the 10,000-op runs")
    args = parser.parse_args()
    ariadne = paperlib.require_binary(args.ariadne)
    if not os.path.exists(os.path.join(args.collections, "expected.tsv")):
        print(f"skipped: {args.collections}/expected.tsv is absent (a plain clone has no ../shared)")
        return 0

    rows = [r for r in expected_rows(args.collections) if not (args.quick and r[0].startswith("popl16/big/"))]
    runs = {path: [] for path, _, _ in rows}
    for _ in range(args.runs):  # whole passes, so drift on a shared machine hits every file alike
        for path, _verdict, model in rows:
            result, _wall = paperlib.check(ariadne, os.path.join(args.collections, path), model, "--no-core")
            runs[path].append(result)

    print("# The research checkers' collection histories, as their authors wrote them\n")
    print(f"`ariadne check FILE --model MODEL --json --no-core`, {args.runs} run(s) per file; times are medians")
    print("of ariadne's elapsed_ms (reading excluded). The model is expected.tsv's (`fifo-queue` or `stack`);")
    print("fastlin's priority queues are `max-priority-queue` (its poll takes the highest).\n")
    problems = []
    by_group = {}
    elapsed = {}
    for path, expected, _model in rows:
        verdicts = {r["verdict"] for r in runs[path]}
        if verdicts != {expected}:
            problems.append(f"{path}: {'/'.join(sorted(verdicts))}, expected {expected}")
        elapsed[path] = paperlib.median([r["elapsed_ms"] for r in runs[path]])
        g = by_group.setdefault(group_of(path), {"rows": 0, "right": 0, "refuted": 0, "ms": []})
        g["rows"] += 1
        g["right"] += verdicts == {expected}
        g["refuted"] += expected == "not-linearizable"
        g["ms"].append(elapsed[path])
    table = []
    for prefix, title in GROUPS:
        g = by_group.get(prefix)
        if not g:
            continue
        table.append([title, str(g["rows"]), str(g["refuted"]), f"{g['right']}/{g['rows']}",
                      f"{sum(g['ms']):.1f}", f"{paperlib.median(g['ms']):.3f}", f"{max(g['ms']):.1f}"])
    paperlib.print_table(["histories", "files", "refuted", "verdicts right", "sum ms", "median ms", "max ms"], table)

    # Every refutation, with its default check: the core and whether it is minimal.
    print("\n## Minimal cores\n")
    print("`ariadne check FILE --model MODEL --json` (the default check, core included), once per refuted file.\n")
    cores = []
    for path, expected, model in rows:
        if expected != "not-linearizable" or (args.quick and path.startswith("popl16/big/")):
            continue
        result, _wall = paperlib.check(ariadne, os.path.join(args.collections, path), model)
        minimal = bool(result.get("core_minimal"))
        if result["verdict"] != "not-linearizable" or not minimal:
            problems.append(f"{path}: core {'minimal' if minimal else 'not minimal'}, verdict {result['verdict']}")
        cores.append((path, len(result.get("core") or []), minimal, result.get("core_ms", 0.0)))
    sizes = sorted(n for _, n, _, _ in cores)
    print(f"{len(cores)} refuted files; {sum(m for _, _, m, _ in cores)} cores minimal; core sizes "
          f"{sizes[0] if sizes else 0}-{sizes[-1] if sizes else 0} ops, median "
          f"{paperlib.median(sizes) if sizes else 0}; core_ms median "
          f"{paperlib.median([c[3] for c in cores]) if cores else 0:.2f}, max "
          f"{max((c[3] for c in cores), default=0):.1f}.")
    for path, size, minimal, core_ms in cores:
        if path.startswith("popl16/simple/") or path.endswith("figure11.hist") or path.endswith("test3.hist"):
            print(f"  {path}: {size} ops, {'minimal' if minimal else 'NOT minimal'}, {core_ms:.2f} ms")

    # The POPL'16 artifact's own times (their machine, 2015), beside ours (this machine).
    best = published_times(args.collections)
    print("\n## Beside the POPL'16 artifact's times\n")
    print("The artifact's column is the fastest of its 20 algorithm variants on that history, from its")
    print("data/experiments/data.tsv: their machine, 2015, not a measurement of ours.\n")
    table = []
    for path, expected, _model in rows:
        name = os.path.basename(path)
        if path.startswith("popl16/simple/") and name in best:
            seconds, algorithm = best[name]
            table.append([name, expected, f"{seconds * 1000:.1f} ({algorithm})", f"{elapsed[path]:.3f}"])
    if table:
        paperlib.print_table(["history", "verdict", "artifact ms (fastest)", "ariadne ms"], table)
    big = [p for p, _, _ in rows if p.startswith("popl16/big/")]
    if big:
        print(f"\nThe ten 10,000-op Michael-Scott queue runs, on which every algorithm of the 2015 artifact timed "
              f"out (5-100 s; the shared corpus' README): ariadne {min(elapsed[p] for p in big):.0f}-"
              f"{max(elapsed[p] for p in big):.0f} ms each, all linearizable.")

    right = sum(g["right"] for g in by_group.values())
    return paperlib.conclude(problems, f"{right} of {len(rows)} published verdicts, and a minimal core for each of "
                                       f"the {len(cores)} refutations")


if __name__ == "__main__":
    sys.exit(main())
