#!/usr/bin/env python3
"""Minimal cores and proofs for every refuted row of the shared corpora.

Usage: scripts/bench_cores.py [--ariadne build/ariadne] [--shared ../shared/corpus]
                              [--drat-trim PATH]

For each row of Porcupine's and Knossos' expected.tsv that is expected not
linearizable: `ariadne check --json --proof DIR`, reading the core's size, whether it
is minimal, and "core_ms", the time spent finding and shrinking it; then
`ariadne verify-proof DIR` and, with --drat-trim, drat-trim on DIR's formula.cnf and
proof.drat. Prints one line per row, then a table per corpus (median and max of core
sizes and times) and the proof tally. One process at a time. A benchmark, not a test:
it asserts nothing (the suite's tests/explain/corpus_core_test.cpp does).
"""
import argparse
import json
import os
import statistics
import subprocess
import tempfile


def refuted_rows(tsv):
    base = os.path.dirname(tsv)
    for line in open(tsv):
        parts = line.rstrip("\n").split("\t")
        if len(parts) >= 3 and parts[1] == "not-linearizable":
            yield parts[0], os.path.join(base, parts[0]), parts[2]


def group_of(corpus, name):
    if corpus == "knossos":
        return "Knossos"
    return "Porcupine etcd" if "etcd_" in name else "Porcupine kv"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ariadne", default="build/ariadne")
    ap.add_argument("--shared", default="../shared/corpus")
    ap.add_argument("--drat-trim", help="path to a drat-trim binary, to check each proof with it too")
    args = ap.parse_args()

    groups = {}
    proofs = {"written": 0, "whole_partition": 0, "verify_proof": 0, "drat_trim": 0}
    for corpus in ("porcupine", "knossos"):
        tsv = os.path.join(args.shared, corpus, "expected.tsv")
        if not os.path.exists(tsv):
            print(f"skipped: {tsv} is absent")
            continue
        for name, path, model in refuted_rows(tsv):
            with tempfile.TemporaryDirectory() as tmp:
                proof_dir = os.path.join(tmp, "proof")
                run = subprocess.run([args.ariadne, "check", path, "--model", model, "--json", "--proof", proof_dir],
                                     capture_output=True, text=True)
                result = json.loads(run.stdout)
                core, minimal, core_ms = len(result["core"]), result["core_minimal"], result["core_ms"]
                groups.setdefault(group_of(corpus, name), []).append((core, core_ms, minimal))
                proofs["written"] += 1
                proofs["whole_partition"] += "whole partition" in result["proof"]["summary"]
                verified = subprocess.run([args.ariadne, "verify-proof", proof_dir], capture_output=True).returncode == 0
                proofs["verify_proof"] += verified
                trimmed = ""
                if args.drat_trim:
                    out = subprocess.run([args.drat_trim, os.path.join(proof_dir, "formula.cnf"),
                                          os.path.join(proof_dir, "proof.drat")], capture_output=True, text=True)
                    ok = "s VERIFIED" in out.stdout
                    proofs["drat_trim"] += ok
                    trimmed = f"  drat-trim {'ok' if ok else 'FAILED'}"
                print(f"{corpus}/{name}: core {core} ({'minimal' if minimal else 'NOT minimal'}) in {core_ms:.1f} ms"
                      f"  verify-proof {'ok' if verified else 'FAILED'}{trimmed}", flush=True)

    print("\n| rows | n | core size: median, max | time: median, max | minimal |")
    print("| --- | --- | --- | --- | --- |")
    for group, rows in groups.items():
        sizes = [r[0] for r in rows]
        times = [r[1] for r in rows]
        print(f"| {group} | {len(rows)} | {statistics.median(sizes):g}, {max(sizes)} | "
              f"{statistics.median(times):.1f} ms, {max(times):.1f} ms | {sum(r[2] for r in rows)}/{len(rows)} |")
    print(f"\nproofs: {proofs['written']} written ({proofs['whole_partition']} through the whole partition), "
          f"{proofs['verify_proof']} accepted by verify-proof"
          + (f", {proofs['drat_trim']} verified by drat-trim" if args.drat_trim else ""))


if __name__ == "__main__":
    main()
