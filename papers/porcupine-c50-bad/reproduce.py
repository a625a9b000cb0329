#!/usr/bin/env python3
"""Porcupine's kv/c50-bad.txt, key by key: Porcupine leaves key 0 undecided after 150 s and
12 GB. Splits the file by key, checks each key with ariadne's race (--engine auto) and
with single engines under a time limit, and the whole file.

Usage: papers/porcupine-c50-bad/reproduce.py [--ariadne build/ariadne] [--runs 3]
           [--timeout 60] [--engines wgl,sat] [--porcupine ../shared/corpus/porcupine]
Exit status: 0 when the whole file and every key are refuted by the race and no single
engine contradicts it (or when the shared corpus is absent: then it prints "skipped"),
1 otherwise.
"""
import os
import re
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ left in the source tree
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import paperlib  # noqa: E402

# What Porcupine's corpus README reports for its own checker (v1.3.0, partitioned kv model).
PORCUPINE = {"1": "refuted", "2": "refuted", "3": "refuted", "4": "refuted", "6": "refuted",
             "5": "refuted (10-14 M steps)", "7": "refuted (10-14 M steps)",
             "0": "undecided after 150 s, 12 GB", "9": "undecided after 20 s", "8": "not reported"}

SHORT = {"linearizable": "lin", "not-linearizable": "NOT", "unknown": "unknown"}


def split_by_key(source, folder):
    """Writes one file per key with that key's lines, in order; returns {key: path}."""
    lines = open(source).read().splitlines()
    keys = sorted({re.search(r':key "([^"]*)"', l).group(1) for l in lines}, key=int)
    paths = {}
    for key in keys:
        paths[key] = os.path.join(folder, f"c50-bad-key-{key}.txt")
        with open(paths[key], "w") as out:
            out.write("\n".join(l for l in lines if f':key "{key}"' in l) + "\n")
    return paths


def measure(ariadne, path, engine, runs, timeout):
    """Runs one engine `runs` times (once if it gives up); returns a summary dict."""
    results = []
    for _ in range(runs):
        result, wall = paperlib.check(ariadne, path, "kv", "--format", "porcupine-kv", "--engine", engine,
                                      "--timeout", str(timeout), "--no-core")
        result["wall_ms"] = wall
        results.append(result)
        if result["verdict"] == "unknown":
            break  # a timeout or memory limit is not worth repeating
    verdicts = {r["verdict"] for r in results}
    # For a refutation, the time to the verdict (before the search for the failing op).
    ms = paperlib.median([r.get("verdict_ms", r["elapsed_ms"]) for r in results])
    return {"verdict": "/".join(sorted(verdicts)), "engine": results[0]["engine"], "ms": ms,
            "wall_ms": paperlib.median([r["wall_ms"] for r in results]),
            "reason": results[0].get("reason", ""), "operations": results[0].get("operations", "?"),
            "runs": len(results)}


def cell(summary):
    if summary["verdict"] == "unknown":
        return f"unknown after {summary['ms'] / 1000:.1f} s ({summary['reason']})"
    return f"{SHORT.get(summary['verdict'], summary['verdict'])} {summary['ms'] / 1000:.3f} s"


def main():
    parser = paperlib.argument_parser(__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per cell; times are medians (default 3)")
    parser.add_argument("--timeout", type=float, default=60, help="seconds per single-engine run (default 60)")
    parser.add_argument("--engines", default="wgl,sat", help="single engines to run on each key (default wgl,sat)")
    parser.add_argument("--porcupine", default=os.path.join(paperlib.SHARED_CORPUS, "porcupine"),
                        help="Porcupine's test data (default: ../shared/corpus/porcupine beside the repository)")
    args = parser.parse_args()
    ariadne = paperlib.require_binary(args.ariadne)
    source = os.path.join(args.porcupine, "kv", "c50-bad.txt")
    if not os.path.exists(source):
        print(f"skipped: {source} is absent (a plain clone has no ../shared)")
        return 0
    engines = [e for e in args.engines.split(",") if e]

    print("# Porcupine kv/c50-bad.txt: 50 clients, 10 keys, checked key by key\n")
    print(f"`ariadne check FILE --model kv --format porcupine-kv --no-core --json --engine E --timeout "
          f"{args.timeout:g}`; times are ariadne's own time to the verdict, median of {args.runs} runs "
          "(one run when an engine gives up).\n")
    problems = []
    with tempfile.TemporaryDirectory() as folder:
        whole = measure(ariadne, source, "auto", args.runs, args.timeout)
        keys = split_by_key(source, folder)
        rows, per_key = [], {}
        for key, path in keys.items():
            auto = measure(ariadne, path, "auto", args.runs, args.timeout)
            alone = {e: measure(ariadne, path, e, args.runs, args.timeout) for e in engines}
            per_key[key] = (auto, alone)
            print(f"  key {key}: auto {cell(auto)} ({auto['engine']}); "
                  + "; ".join(f"{e} {cell(s)}" for e, s in alone.items()), file=sys.stderr)
            rows.append([key, auto["operations"], SHORT.get(auto["verdict"], auto["verdict"]), auto["engine"],
                         f"{auto['ms']:.1f}", f"{auto['wall_ms']:.0f}"] + [cell(alone[e]) for e in engines]
                        + [PORCUPINE.get(key, "")])
            if auto["verdict"] != "not-linearizable":
                problems.append(f"key {key}: the race says {auto['verdict']}")
            for engine, summary in alone.items():
                if summary["verdict"] not in ("unknown", auto["verdict"]):
                    problems.append(f"key {key}: {engine} says {summary['verdict']}, the race {auto['verdict']}")
        key0_core, _ = paperlib.check(ariadne, keys["0"], "kv", "--format", "porcupine-kv")

    paperlib.print_table(["key", "ops", "verdict (auto)", "winner", "auto ms", "wall ms"]
                         + [f"{e} alone" for e in engines] + ["Porcupine (its README)"], rows)
    print(f"\nwhole file: {whole['operations']} ops, {whole['verdict']} by {whole['engine']} "
          f"in {whole['ms']:.1f} ms (wall {whole['wall_ms']:.0f} ms)")
    if whole["verdict"] != "not-linearizable":
        problems.append(f"whole file: {whole['verdict']}")

    refuted = [k for k, (auto, _) in per_key.items() if auto["verdict"] == "not-linearizable"]
    print(f"\nkeys not linearizable: {', '.join(refuted) or 'none'} ({len(refuted)} of {len(per_key)})")
    auto0 = per_key["0"][0]
    print(f"key 0: {auto0['verdict']} in {auto0['ms']:.1f} ms by {auto0['engine']} "
          f"(wall {auto0['wall_ms']:.0f} ms); Porcupine: undecided after 150 s and 12 GB")
    if key0_core["verdict"] == "not-linearizable":
        minimal = "minimal" if key0_core.get("core_minimal") else "not shown minimal"
        print(f"\n## Key 0: the core ({len(key0_core['core'])} of {key0_core['operations']} ops, {minimal}, "
              f"found in {key0_core['core_ms']:.0f} ms)\n")
        explanation = key0_core["explanation"].split("Why no order works")[0]
        print(paperlib.indent(explanation), end="")
        # Op ids are event positions in the key's own file; give them in the whole file too.
        key0_lines = [i for i, l in enumerate(open(source).read().splitlines()) if ':key "0"' in l]
        print("\n(op ids are event positions in the key-0 file; in c50-bad.txt these ops are "
              + ", ".join(f"op {key0_lines[i]} (line {key0_lines[i] + 1})" for i in key0_core["core"]) + ")")

    print()
    if problems:
        print("NOT REPRODUCED: " + "; ".join(problems))
        return 1
    print(f"REPRODUCED: every key is refuted ({len(refuted)} of {len(per_key)}), key 0 in "
          f"{auto0['ms'] / 1000:.3f} s, the whole file in {whole['ms'] / 1000:.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
