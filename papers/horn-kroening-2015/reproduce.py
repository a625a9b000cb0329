#!/usr/bin/env python3
"""Horn and Kroening (FORTE 2015), the etcd experiment: 102 Jepsen etcd histories, six of
which Knossos could not decide (two timeouts, four out of memory). Checks all 102 with
ariadne, compares every verdict with the expected one and reports the times.

Usage: papers/horn-kroening-2015/reproduce.py [--ariadne build/ariadne] [--runs 3]
                                              [--porcupine ../shared/corpus/porcupine]
Exit status: 0 when every verdict matches expected.tsv (or when the shared corpus is
absent: then it prints "skipped"), 1 otherwise.
"""
import json
import os
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ left in the source tree
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import paperlib  # noqa: E402

# Knossos' outcome on the histories it could not decide, as the paper reports it.
KNOSSOS_FAILURES = {7: "timeout", 99: "timeout", 40: "out of memory", 57: "out of memory",
                    85: "out of memory", 97: "out of memory"}


def etcd_rows(porcupine):
    """(relative path, expected verdict) for every etcd row of Porcupine's expected.tsv."""
    rows = []
    with open(os.path.join(porcupine, "expected.tsv")) as tsv:
        for line in tsv:
            path, verdict, _model = line.rstrip("\n").split("\t")
            if path.startswith("jepsen/etcd_"):
                rows.append((path, verdict))
    return rows


def number_of(path):
    return int(os.path.basename(path)[len("etcd_"):-len(".log")])


def corpus_run(ariadne, porcupine):
    """One `ariadne corpus expected.tsv --json`, restricted to the etcd rows."""
    done = subprocess.run([ariadne, "corpus", os.path.join(porcupine, "expected.tsv"), "--json"],
                          capture_output=True, text=True)
    report = json.loads(done.stdout)
    return {r["file"]: r for r in report["rows"] if r["file"].startswith("jepsen/etcd_")}


def main():
    parser = paperlib.argument_parser(__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per file; times are medians (default 3)")
    parser.add_argument("--porcupine", default=os.path.join(paperlib.SHARED_CORPUS, "porcupine"),
                        help="Porcupine's test data (default: ../shared/corpus/porcupine beside the repository)")
    args = parser.parse_args()
    ariadne = paperlib.require_binary(args.ariadne)
    if not os.path.exists(os.path.join(args.porcupine, "expected.tsv")):
        print(f"skipped: {args.porcupine}/expected.tsv is absent (a plain clone has no ../shared)")
        return 0

    rows = etcd_rows(args.porcupine)
    runs = {path: [] for path, _ in rows}
    for _ in range(args.runs):  # whole passes, so drift on a shared machine hits every file alike
        for path, _expected in rows:
            runs[path].append(paperlib.check(ariadne, os.path.join(args.porcupine, path), "etcd", "--no-core"))

    print("# Horn and Kroening 2015: the 102 Jepsen etcd histories\n")
    print(f"`ariadne check FILE --model etcd --json --no-core`, {args.runs} runs per file; times are medians.")
    print("check ms: ariadne's elapsed_ms (reading excluded; for a refutation it includes the search for")
    print("the failing op); verdict ms: time to the verdict itself; wall ms: the whole process.\n")
    table, mismatches, engines = [], [], {}
    check_ms, verdict_ms, wall_ms = [], [], []
    for path, expected in rows:
        results = [r for r, _ in runs[path]]
        verdicts = {r["verdict"] for r in results}
        verdict = "/".join(sorted(verdicts))
        if verdicts != {expected}:
            mismatches.append(path)
        engine = "/".join(sorted({r["engine"] for r in results}))
        engines[engine] = engines.get(engine, 0) + 1
        c = paperlib.median([r["elapsed_ms"] for r in results])
        v = paperlib.median([r.get("verdict_ms", r["elapsed_ms"]) for r in results])
        w = paperlib.median([ms for _, ms in runs[path]])
        check_ms.append(c)
        verdict_ms.append(v)
        wall_ms.append(w)
        knossos = KNOSSOS_FAILURES.get(number_of(path), "")
        table.append([path, results[0]["operations"], expected, verdict, "yes" if verdicts == {expected} else "NO",
                      engine, f"{c:.2f}", f"{v:.2f}", f"{w:.1f}", knossos])
    paperlib.print_table(["file", "ops", "expected", "ariadne", "match", "engine", "check ms", "verdict ms",
                          "wall ms", "Knossos (paper)"], table)

    print("\n## Totals over the 102 files\n")
    paperlib.print_table(["time", "sum", "median", "max"], [
        [name, f"{sum(values):.1f} ms", f"{paperlib.median(values):.2f} ms", f"{max(values):.2f} ms"]
        for name, values in (("check ms", check_ms), ("verdict ms", verdict_ms), ("wall ms", wall_ms))])
    print("\nengines that answered: " + ", ".join(f"{k} {v}" for k, v in sorted(engines.items())))

    print("\n## The six histories Knossos could not decide (per the paper)\n")
    six = [[r[0], r[3], r[2], r[6], r[8], r[9]] for r in table if number_of(r[0]) in KNOSSOS_FAILURES]
    paperlib.print_table(["file", "ariadne", "expected", "check ms", "wall ms", "Knossos (paper)"], six)

    corpus = corpus_run(ariadne, args.porcupine)
    corpus_ok = len(corpus) == len(rows) and all(r["ok"] for r in corpus.values())
    corpus_ms = sum(r["elapsed_ms"] for r in corpus.values())
    print(f"\n`ariadne corpus expected.tsv --json`, etcd rows: {len(corpus)} rows, "
          f"{sum(r['ok'] for r in corpus.values())} as expected, sum of elapsed_ms {corpus_ms:.1f} ms")

    print()
    if mismatches or not corpus_ok or len(rows) != 102:
        print(f"NOT REPRODUCED: {len(rows)} etcd rows; mismatches: {', '.join(mismatches) or 'none'}; "
              f"corpus run {'ok' if corpus_ok else 'differs'}")
        return 1
    undecided = sum(1 for r in table if "unknown" in r[3])
    print(f"REPRODUCED: {len(rows)} of {len(rows)} etcd verdicts match expected.tsv ({undecided} unknown), "
          f"including the 6 Knossos could not decide; total check time {sum(check_ms):.1f} ms, "
          f"max {max(check_ms):.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
