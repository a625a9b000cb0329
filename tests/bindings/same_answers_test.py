#!/usr/bin/env python3
"""The same histories through every door: the command line, the C API, the Python
package and the Go package give the same verdict, linearization, core and failing op.

    same_answers_test.py --source-dir DIR --ariadne PATH --c-check PATH --library PATH
                         --work-dir DIR

Twenty histories: rows of both shared corpora (../shared/corpus/knossos and porcupine;
left out, and said so, when ../shared is absent), the in-tree corpus (classic, crash
storms, kv, histories recorded from real clusters) and two generated here (a kv
history and an independent-keys history with a violation). Each door reads the
history its own way:

- the command line: `ariadne check FILE --json`, on the file as it is;
- C: tests/capi/c_check.c, through ariadne_history_read and ariadne_check;
- Python: the package installed offline into a fresh venv; the file converted to JSON
  (`ariadne convert --to json`), loaded with json.load, and the list of op dicts
  checked (its C extension's path);
- Go: go/cmd/ariadne-check-json, built with cgo against the library: the JSON file
  turned into []ariadne.Operation, checked with ariadne.Check, the answer's slice
  indices mapped back to the file's op ids.

Exits 0 when all agree, 1 otherwise (saying where), 77 when Go or the venv is missing.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys

PYTHON = "/usr/bin/python3"  # Debian's: the one whose setuptools and wheel are installed

# (path, model, independent): under the source tree, or "shared:" for ../shared/corpus.
HISTORIES = [
    ("shared:knossos/data/cas-register/good/cas-register-bug.edn", "cas-register(0)", False),
    ("shared:knossos/data/cas-register/bad/rethink-fail-minimal.edn", "cas-register(nil)", False),
    ("shared:knossos/data/mutex/bad/etcd.edn", "mutex()", False),
    ("shared:knossos/inline/preserves-indices.edn", "register(0)", False),
    ("shared:porcupine/jepsen/etcd_000.log", "etcd-register-cas", False),
    ("shared:porcupine/jepsen/etcd_002.log", "etcd-register-cas", False),
    ("shared:porcupine/kv/c10-ok.txt", "kv", False),
    ("shared:porcupine/kv/c10-bad.txt", "kv", False),
    ("corpus/classic/lecture-example-1.edn", "register", False),
    ("corpus/classic/worked-example-abcd.edn", "register(0)", False),
    ("corpus/classic/herlihy-wing-h1.edn", "fifo-queue", False),
    ("corpus/generated/crash-storm/crash-storm-200-10-5.edn", "cas-register(0)", False),
    ("corpus/generated/crash-storm/crash-storm-200-10-6-stale.edn", "cas-register(0)", False),
    ("corpus/generated/kv/atomic-kv-120-5.edn", "kv", False),
    ("corpus/generated/kv/atomic-kv-120-6-violation.edn", "kv", False),
    ("corpus/testbed/etcd-linearizable-s9-register.edn", "cas-register", True),
    ("corpus/testbed/etcd-serializable-s6-register.edn", "cas-register", True),
    ("corpus/testbed/redis-wait-aof-s7-set.edn", "set", False),
    ("generated:kv", "kv", False),
    ("generated:independent", "cas-register", True),
]

GENERATED = {
    "kv": ["--model", "kv", "--keys", "4", "--ops", "600", "--processes", "6", "--crash-rate", "0.05",
           "--seed", "45"],
    "independent": ["--model", "independent(cas-register)", "--keys", "8", "--ops", "2000", "--violation",
                    "--seed", "45"],
}

# Run in the venv: reads [[json_path, model, independent], ...] on stdin, prints one
# answer a line.
PYTHON_DOOR = r"""
import json, sys
import ariadne
assert ariadne._capi._events is not None, "the C extension was not built"
for path, model, independent in json.load(sys.stdin):
    ops = json.load(open(path))["events"]
    result = ariadne.check(ops, model=model, independent=independent)
    print(json.dumps({"verdict": result.verdict, "linearization": result.linearization, "core": result.core,
                      "core_minimal": result.core_minimal, "failing_op": result.failing_op}))
"""


def run(command, **kwargs):
    return subprocess.run(command, capture_output=True, text=True, **kwargs)


def answer_of(report):
    return (report["verdict"], report.get("linearization") or [], report.get("core") or [], report.get("failing_op"),
            bool(report.get("core_minimal")))


def alike(answers):
    """The same verdict, linearization and failing op through every door, and the same
    core where every door shrank it to a minimal one. A core the shrinking's time budget
    (2 s plus ten times the verdict's) cut short depends on the machine's speed at that
    moment (Knossos' mutex/bad/etcd.edn in a debug build under load), not on the door."""
    first = answers[0]
    if any(isinstance(a, str) for a in answers):
        return all(a == first for a in answers)
    all_minimal = all(a[4] for a in answers)
    return all(a[:2] == first[:2] and a[3] == first[3] and (not all_minimal or a[2] == first[2]) for a in answers)


def main():
    parser = argparse.ArgumentParser()
    for option in ("--source-dir", "--ariadne", "--c-check", "--library", "--work-dir"):
        parser.add_argument(option, required=True)
    args = parser.parse_args()
    source = os.path.abspath(args.source_dir)
    shared = os.path.join(source, "..", "shared", "corpus")
    if shutil.which("go") is None:
        print("SKIP: no go (Debian's golang-go; scripts/install-deps.sh installs it)")
        return 77
    scratch = os.path.join(os.path.abspath(args.work_dir), "same-answers")
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)

    # The histories, each also as JSON for the Python and Go doors.
    histories = []
    for path, model, independent in HISTORIES:
        if path.startswith("shared:"):
            if not os.path.isdir(shared):
                continue
            file = os.path.join(shared, path[len("shared:"):])
        elif path.startswith("generated:"):
            file = os.path.join(scratch, path[len("generated:"):] + ".edn")
            made = run([args.ariadne, "generate", "atomic", *GENERATED[path[len("generated:"):]], "-o", file])
            if made.returncode != 0:
                print(f"FAIL: ariadne generate {path}: {made.stderr}")
                return 1
        else:
            file = os.path.join(source, path)
        as_json = os.path.join(scratch, f"{len(histories)}.json")
        converted = run([args.ariadne, "convert", file, "--to", "json", "-o", as_json])
        if converted.returncode != 0:
            print(f"FAIL: ariadne convert {path}: {converted.stderr}")
            return 1
        histories.append((path, file, as_json, model, independent))
    if len(histories) < len(HISTORIES):
        print(f"note: {len(HISTORIES) - len(histories)} rows of the shared corpora left out: no {shared}")

    # The Python door: the package installed as a user installs it.
    venv = os.path.join(scratch, "venv")
    package = os.path.join(scratch, "python")
    shutil.copytree(os.path.join(source, "python"), package,
                    ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__", "*.so"))
    environment = dict(os.environ, ARIADNE_LIBRARY=os.path.abspath(args.library), PIP_NO_INPUT="1",
                       ARIADNE_INCLUDE=os.path.join(source, "include"))
    if run([PYTHON, "-m", "venv", "--system-site-packages", venv]).returncode != 0:
        print("SKIP: no venv: install python3-venv (scripts/install-deps.sh)")
        return 77
    installed = run([os.path.join(venv, "bin", "pip"), "install", "--quiet", "--no-build-isolation", "--no-index",
                     package], env=environment)
    if installed.returncode != 0:
        print(f"FAIL: pip install ./python: {installed.stdout}{installed.stderr}")
        return 1
    python = run([os.path.join(venv, "bin", "python"), "-c", PYTHON_DOOR], cwd=scratch,
                 input=json.dumps([[h[2], h[3], h[4]] for h in histories]))
    if python.returncode != 0:
        print(f"FAIL: the Python door: {python.stderr}")
        return 1
    python_answers = [answer_of(json.loads(line)) for line in python.stdout.splitlines()]

    # The Go door: go/cmd/ariadne-check-json, built with cgo against the library.
    go_tree = os.path.join(scratch, "go")
    shutil.copytree(os.path.join(source, "go"), go_tree)
    library_dir = os.path.dirname(os.path.abspath(args.library))
    go_environment = dict(os.environ, GOCACHE=os.path.join(scratch, "gocache"), GOPATH=os.path.join(scratch, "gopath"),
                          GOPROXY="off", GOFLAGS="-buildvcs=false", CGO_ENABLED="1",
                          CGO_CFLAGS="-I" + os.path.join(source, "include"), CGO_LDFLAGS="-L" + library_dir,
                          LD_LIBRARY_PATH=library_dir)
    go_checker = os.path.join(scratch, "ariadne-check-json")
    built = run(["go", "build", "-o", go_checker, "./cmd/ariadne-check-json"], cwd=go_tree, env=go_environment)
    if built.returncode != 0:
        print(f"FAIL: go build: {built.stdout}{built.stderr}")
        return 1

    failures = 0
    for (path, file, as_json, model, independent), from_python in zip(histories, python_answers):
        flag = ["--independent"] if independent else []
        cli = run([args.ariadne, "check", file, "--model", model, "--json", *flag])
        c = run([args.c_check, file, model, *(["independent"] if independent else [])])
        go = run([go_checker, "-model", model, *(["-independent"] if independent else []), as_json], env=go_environment)
        doors = {}
        for door, process in (("cli", cli), ("c", c), ("go", go)):
            try:
                doors[door] = answer_of(json.loads(process.stdout))
            except (ValueError, KeyError):
                doors[door] = f"no answer (exit {process.returncode}): {process.stderr.strip()[:300]}"
        doors["python"] = from_python
        if not alike(list(doors.values())):
            failures += 1
            print(f"FAIL {path} ({model}):")
            for door, answer in doors.items():
                print(f"  {door:6} {answer}")
        else:
            verdict, linearization, core, _, _ = doors["cli"]
            print(f"ok   {path}: {verdict}, {len(linearization)} ops ordered, core of {len(core)}, "
                  "the same through the command line, C, Python and Go")
    if failures == 0:
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"{len(histories) - failures} of {len(histories)} histories answered alike through all four doors")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
