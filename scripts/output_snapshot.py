#!/usr/bin/env python3
"""Snapshots what `ariadne` prints on whole corpora, so a refactor can show that the
command line's output, a contract users' scripts rely on, did not change.

For every history of the corpora it runs `check` three times (text, --json, --edn)
and, for every corpus, `corpus` twice (text, --json); it keeps stdout, stderr and the
exit status of each run with the fields that vary from run to run masked: times,
memory peaks, step counts and which engine won the race (those depend on the
machine's load, not on the code). A core that was not shrunk to minimal within its
time budget differs from run to run too (Knossos' mutex/bad/etcd.edn). Two snapshots are compared with `diff -r`:

    scripts/output_snapshot.py --ariadne OLD/ariadne --out /tmp/before
    scripts/output_snapshot.py --ariadne build/ariadne --out /tmp/after
    diff -r /tmp/before /tmp/after

Corpora: corpus/ (files with `; model:` headers) and, when present, the shared ones
beside the repository (../shared/corpus/*/expected.tsv).
"""

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
from pathlib import Path

from history_headers import read_headers

REPO = Path(__file__).resolve().parent.parent

# What varies with the load, and only with it. Each pattern keeps its key and masks
# the value.
MASKS = [
    # JSON: "elapsed_ms": 0.172, "read_ms": ..., "peak_search_bytes": ..., "steps": ...
    (re.compile(r'("[a-z_]*(?:_ms|_bytes|steps|_seconds)": )-?[0-9.eE+-]+'), r"\1#"),
    (re.compile(r'("engine": )"[a-z-]+"'), r"\1#"),
    # EDN: :elapsed-ms 0.221 ...
    (re.compile(r"(:[a-z-]*(?:-ms|-bytes|steps|-seconds) )-?[0-9.eE+-]+"), r"\1#"),
    (re.compile(r'(:engine )"[a-z-]+"'), r"\1#"),
    # Text: "  time   5.7 ms reading, ..." and "  engine  wgl"; the corpus table's times.
    (re.compile(r"^(  time\s+).*$", re.M), r"\1#"),
    (re.compile(r"^(  engine\s+).*$", re.M), r"\1#"),
    (re.compile(r"[0-9]+(?:\.[0-9]+)? ?(?:ms|s|µs|us|MB|KB|GB|MiB|KiB|GiB)\b"), "#"),
    # The corpus table's last column (milliseconds), and the widths it gives the table.
    (re.compile(r"-{2,}"), "--"),
    (re.compile(r" {2,}"), "  "),
    (re.compile(r"(?<=  )[0-9]+\.[0-9]+(?=  |$)", re.M), "#"),
]


def mask(text):
    for pattern, replacement in MASKS:
        text = pattern.sub(replacement, text)
    return text


def shared_rows():
    """(history, model) pairs of the shared corpora's expected.tsv files."""
    rows = []
    for tsv in sorted((REPO.parent / "shared" / "corpus").glob("*/expected.tsv")):
        for line in tsv.read_text().splitlines():
            fields = line.split("\t")
            if len(fields) >= 3 and not line.startswith("#"):
                rows.append((tsv.parent / fields[0], fields[2]))
    return rows


def own_rows():
    rows = []
    for path in sorted((REPO / "corpus").rglob("*.edn")):
        model = read_headers(path).get("model")
        if model:
            rows.append((path, model))
    return rows


def run(ariadne, args, out_file):
    result = subprocess.run([ariadne] + args, cwd=REPO, capture_output=True, text=True,
                            errors="replace", timeout=600)
    out_file.parent.mkdir(parents=True, exist_ok=True)
    out_file.write_text(f"exit {result.returncode}\n--- stdout\n{mask(result.stdout)}"
                        f"--- stderr\n{mask(result.stderr)}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ariadne", required=True)
    parser.add_argument("--out", required=True, type=Path)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", default="60", help="per check, seconds")
    args = parser.parse_args()
    ariadne = os.path.abspath(args.ariadne)

    tasks = []
    for history, model in own_rows() + shared_rows():
        try:
            name = history.resolve().relative_to(REPO.parent)
        except ValueError:
            name = Path(history.name)
        # Paths relative to the repository, as a user would type them, so the output
        # names the file the same way in both snapshots.
        shown = os.path.relpath(history, REPO)
        for flag, suffix in (([], "txt"), (["--json"], "json"), (["--edn"], "edn")):
            tasks.append((["check", shown, "--model", model, "--timeout", args.timeout] + flag,
                          args.out / "check" / f"{name}.{suffix}"))
    corpora = [REPO / "corpus"] + sorted((REPO.parent / "shared" / "corpus").glob("*/expected.tsv"))
    for corpus in corpora:
        shown = os.path.relpath(corpus, REPO)
        label = shown.replace("/", "_").replace(".", "_")
        for flag, suffix in (([], "txt"), (["--json"], "json")):
            tasks.append((["corpus", shown, "--jobs", "1", "--timeout", args.timeout] + flag,
                          args.out / "corpus" / f"{label}.{suffix}"))

    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(run, ariadne, a, f) for a, f in tasks]
        for done, future in enumerate(concurrent.futures.as_completed(futures), 1):
            future.result()
            if done % 200 == 0:
                print(f"{done}/{len(tasks)}", file=sys.stderr)
    print(f"{len(tasks)} runs written to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
