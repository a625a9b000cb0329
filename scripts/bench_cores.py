#!/usr/bin/env python3
"""Minimal cores side by side with the verdicts they explain, family by family.

Usage: scripts/bench_cores.py [--ariadne build/ariadne] [--shared ../shared/corpus]
                              [--seeds 10] [--families a,b,...] [--proofs] [--drat-trim PATH]

For every refuted history of each family, two runs one after the other:
`check --json --no-core` (the verdict alone: its elapsed_ms) and the default
`check --json` (what a user waits for, core included: elapsed_ms, core_ms, the
core's size and core_minimal). Families:
  etcd, porcupine-kv, knossos   the refuted rows of the shared corpora' expected.tsv
  ratis, redis                  the real Jepsen histories of corpus/reported
  fifo-queue, stack, unordered-queue, mutex
                                generated: 2,000 ops, 10 processes, unique values,
                                crash rate 0.01, one planted violation, --seeds seeds
  register                      generated cas-register, 400 ops over 3 values
  independent-register          generated independent(cas-register): 2 keys of about 3,000 ops
                                each over 5 values, crash rate 0.01, one key refuted (a key of
                                a Jepsen etcd or Ratis test); not in the default list (its
                                verdicts take 0.05-30 s), ask for it with --families
Prints a line per file, then a table per family: sums and medians of the verdict
and of the default check, the core's time and size, and how many cores are minimal;
for the corpus families, also the default check summed over every row, the
linearizable ones too (what checking the whole directory costs).

With --proofs, the default run also writes a proof (--proof DIR), checks it with
`ariadne verify-proof` (and drat-trim with --drat-trim), and tallies them.
One process at a time. A benchmark, not a test: it asserts nothing (the suite's
tests/refute/corpus_core_test.cpp and minimal_core_test.cpp do).
"""
import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time

GENERATED = {
    "fifo-queue": ["--ops", "2000", "--processes", "10", "--values", "unique", "--crash-rate", "0.01"],
    "stack": ["--ops", "2000", "--processes", "10", "--values", "unique", "--crash-rate", "0.01"],
    "unordered-queue": ["--ops", "2000", "--processes", "10", "--values", "unique", "--crash-rate", "0.01"],
    "mutex": ["--ops", "2000", "--processes", "10", "--crash-rate", "0.01"],
    "register": ["--ops", "400", "--processes", "8", "--values", "3"],
    "independent-register": ["--keys", "2", "--ops", "7200", "--values", "5", "--crash-rate", "0.01"],
}
# The model each generated family is generated and checked with, where not its name.
GENERATED_MODEL = {"register": "cas-register", "independent-register": "independent(cas-register)"}
REPORTED = {"ratis": "ratis-stale-reads-key0.edn", "redis": "redis-register-8846-ops.edn"}
ALL = ["etcd", "porcupine-kv", "knossos", "ratis", "redis", "fifo-queue", "stack", "unordered-queue", "mutex",
       "register"]


def refuted_rows(tsv, verdict="not-linearizable"):
    base = os.path.dirname(tsv)
    for line in open(tsv):
        parts = line.rstrip("\n").split("\t")
        if len(parts) >= 3 and parts[1] == verdict:
            yield parts[0], os.path.join(base, parts[0]), parts[2]


def linearizable_checks_ms(family, args):
    """The default check's elapsed_ms summed over a corpus family's linearizable rows
    (no core to find: what a user checking the whole directory also waits for)."""
    if family not in ("etcd", "porcupine-kv", "knossos"):
        return None
    corpus = "knossos" if family == "knossos" else "porcupine"
    rows = list(refuted_rows(os.path.join(args.shared, corpus, "expected.tsv"), "linearizable"))
    if family == "etcd":
        rows = [r for r in rows if "etcd_" in r[0]]
    elif family == "porcupine-kv":
        rows = [r for r in rows if "etcd_" not in r[0]]
    total = 0.0
    for _, path, model in rows:
        total += run_json([args.ariadne, "check", path, "--model", model, "--json"])["elapsed_ms"]
    return len(rows), total


def family_files(family, args, scratch):
    """(name, path, model) of each refuted history of `family`."""
    if family in ("etcd", "porcupine-kv", "knossos"):
        corpus = "knossos" if family == "knossos" else "porcupine"
        tsv = os.path.join(args.shared, corpus, "expected.tsv")
        if not os.path.exists(tsv):
            return None
        rows = list(refuted_rows(tsv))
        if family == "etcd":
            return [r for r in rows if "etcd_" in r[0]]
        if family == "porcupine-kv":
            return [r for r in rows if "etcd_" not in r[0]]
        return rows
    if family in REPORTED:
        tsv = os.path.join(args.shared, "reported", "expected.tsv")
        if not os.path.exists(tsv):
            return None
        return [r for r in refuted_rows(tsv) if r[0] == REPORTED[family]]
    model = GENERATED_MODEL.get(family, family)
    out = os.path.join(scratch, family)
    subprocess.run([args.ariadne, "generate", "atomic", "--model", model, *GENERATED[family], "--violation",
                    "--seed", "1", "--count", str(args.seeds), "--out-dir", out], check=True, capture_output=True)
    return [(name, os.path.join(out, name), model) for name in sorted(os.listdir(out))]


def run_json(cmd):
    return json.loads(subprocess.run(cmd, capture_output=True, text=True).stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ariadne", default="build/ariadne")
    ap.add_argument("--shared", default="../shared/corpus")
    ap.add_argument("--seeds", type=int, default=10, help="generated histories per generated family")
    ap.add_argument("--families", default=",".join(ALL),
                    help="comma-separated, from: " + ", ".join(ALL + ["independent-register"]))
    ap.add_argument("--proofs", action="store_true", help="also write and verify a proof for every core")
    ap.add_argument("--drat-trim", help="with --proofs: a drat-trim binary to check each proof with too")
    args = ap.parse_args()

    tables = []
    every = []  # (corpus family, files, default check summed over every row)
    proofs = {"written": 0, "whole_partition": 0, "verify_proof": 0, "drat_trim": 0}
    with tempfile.TemporaryDirectory() as scratch:
        for family in args.families.split(","):
            files = family_files(family, args, scratch)
            if files is None:
                print(f"{family}: skipped (no {args.shared})")
                continue
            rows = []
            for name, path, model in files:
                verdict = run_json([args.ariadne, "check", path, "--model", model, "--json", "--no-core"])
                cmd = [args.ariadne, "check", path, "--model", model, "--json"]
                proof_dir = os.path.join(scratch, "proof")
                if args.proofs:
                    subprocess.run(["rm", "-rf", proof_dir])
                    cmd += ["--proof", proof_dir]
                started = time.monotonic()
                full = run_json(cmd)
                wall_ms = (time.monotonic() - started) * 1000
                if full["verdict"] != "not-linearizable":
                    print(f"{family}/{name}: {full['verdict']} ({full.get('reason', '')})", flush=True)
                    rows.append((verdict["elapsed_ms"], full["elapsed_ms"], full.get("core_ms", 0), 0, False))
                    continue
                core = len(full["core"])
                rows.append((verdict["elapsed_ms"], full["elapsed_ms"], full["core_ms"], core, full["core_minimal"]))
                note = ""
                if args.proofs:
                    proofs["written"] += 1
                    proofs["whole_partition"] += "whole partition" in full["proof"]["summary"]
                    ok = subprocess.run([args.ariadne, "verify-proof", proof_dir], capture_output=True).returncode == 0
                    proofs["verify_proof"] += ok
                    note = f"  verify-proof {'ok' if ok else 'FAILED'}"
                    if args.drat_trim:
                        out = subprocess.run([args.drat_trim, os.path.join(proof_dir, "formula.cnf"),
                                              os.path.join(proof_dir, "proof.drat")], capture_output=True, text=True)
                        trimmed = "s VERIFIED" in out.stdout
                        proofs["drat_trim"] += trimmed
                        note += f"  drat-trim {'ok' if trimmed else 'FAILED'}"
                print(f"{family}/{name}: verdict {verdict['elapsed_ms']:.1f} ms, check {full['elapsed_ms']:.1f} ms "
                      f"({wall_ms:.0f} ms wall), "
                      f"core {core} ops ({'minimal' if full['core_minimal'] else 'NOT minimal'}) in "
                      f"{full['core_ms']:.1f} ms{note}", flush=True)
            tables.append((family, rows))
            also = linearizable_checks_ms(family, args)
            if also:
                every.append((family, len(rows) + also[0], sum(r[1] for r in rows) + also[1]))

    print("\n| family | refuted | verdict: sum, median | default check: sum, median, max "
          "| core time: median, max | core size: median, max | minimal |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for family, rows in tables:
        if not rows:
            continue
        verdicts, checks, core_ms, sizes = ([r[i] for r in rows] for i in range(4))
        print(f"| {family} | {len(rows)} | {sum(verdicts):.0f} ms, {statistics.median(verdicts):.1f} ms "
              f"| {sum(checks):.0f} ms, {statistics.median(checks):.1f} ms, {max(checks):.0f} ms "
              f"| {statistics.median(core_ms):.1f} ms, {max(core_ms):.0f} ms "
              f"| {statistics.median(sizes):g}, {max(sizes)} | {sum(r[4] for r in rows)}/{len(rows)} |")
    for family, files, total in every:
        print(f"\n{family}, every row (the linearizable ones too): default check {total:.0f} ms in all over {files} files")
    if args.proofs:
        print(f"\nproofs: {proofs['written']} written ({proofs['whole_partition']} through the whole partition), "
              f"{proofs['verify_proof']} accepted by verify-proof"
              + (f", {proofs['drat_trim']} verified by drat-trim" if args.drat_trim else ""))


if __name__ == "__main__":
    main()
