#!/usr/bin/env python3
"""What a 10^5-op history costs through each door beside `ariadne check` on the same
file, runs interleaved, medians (issue 45: at most 1.5x the command line's time).

    scripts/bench_doors.py --ariadne build/ariadne --library build/libariadne_c.so
                           [--ops 100000] [--runs 5] [--sets 3] [--work-dir DIR]

Generates the history (`ariadne generate atomic --model cas-register --values unique
--crash-rate 0.01 --processes 10 --seed 3`) and its JSON (`ariadne convert`), installs
the Python package offline into a fresh venv of Debian's Python, builds
go/cmd/ariadne-check-json with cgo, then, per set, times each door once per run, in
turn:

- cli: `ariadne check FILE --model cas-register`, wall time from start to exit
  (reading and checking);
- python: `ariadne.check(ops)` on the json.load'ed list of op dicts (the C
  extension's path), in one Python process, the loading not counted;
- go: `ariadne.Check` on the []Operation read from the JSON, conversion included,
  the reading not (the tool's seconds_checking).

Prints each set's medians and the ratios to the command line's. Needs Debian's
python3-venv, setuptools, wheel and python3-dev, and golang-go
(scripts/install-deps.sh).
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

PYTHON = "/usr/bin/python3"  # Debian's: the one whose setuptools and wheel are installed

# Run in the venv: checks the list of op dicts `runs` times, printing each time.
PYTHON_TIMER = r"""
import json, sys, time
import ariadne
ops = json.load(open(sys.argv[1]))["events"]
for _ in range(int(sys.argv[2])):
    sys.stdin.readline()  # one run a line, so that the doors run in turn
    started = time.perf_counter()
    ariadne.check(ops, model="cas-register")
    print(time.perf_counter() - started, flush=True)
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ariadne", required=True)
    parser.add_argument("--library", required=True, help="libariadne_c.so")
    parser.add_argument("--ops", type=int, default=100000)
    parser.add_argument("--runs", type=int, default=5, help="runs per set (the median is of these)")
    parser.add_argument("--sets", type=int, default=3)
    parser.add_argument("--work-dir", help="default: a temporary folder, removed at the end")
    args = parser.parse_args()
    source = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ariadne = os.path.abspath(args.ariadne)
    library = os.path.abspath(args.library)
    work = args.work_dir or tempfile.mkdtemp(prefix="bench-doors.")
    os.makedirs(work, exist_ok=True)
    try:
        edn, as_json = os.path.join(work, "h.edn"), os.path.join(work, "h.json")
        subprocess.run([ariadne, "generate", "atomic", "--model", "cas-register", "--ops", str(args.ops),
                        "--processes", "10", "--values", "unique", "--crash-rate", "0.01", "--seed", "3", "-o", edn],
                       check=True)
        subprocess.run([ariadne, "convert", edn, "--to", "json", "-o", as_json], check=True)

        venv, package = os.path.join(work, "venv"), os.path.join(work, "python")
        shutil.copytree(os.path.join(source, "python"), package,
                        ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__", "*.so"))
        subprocess.run([PYTHON, "-m", "venv", "--system-site-packages", venv], check=True)
        subprocess.run([os.path.join(venv, "bin", "pip"), "install", "--quiet", "--no-build-isolation", "--no-index",
                        package], check=True,
                       env=dict(os.environ, ARIADNE_LIBRARY=library, ARIADNE_INCLUDE=os.path.join(source, "include")))

        library_dir = os.path.dirname(library)
        go_env = dict(os.environ, GOCACHE=os.path.join(work, "gocache"), GOPATH=os.path.join(work, "gopath"),
                      GOPROXY="off", GOFLAGS="-buildvcs=false", CGO_CFLAGS="-I" + os.path.join(source, "include"),
                      CGO_LDFLAGS="-L" + library_dir, LD_LIBRARY_PATH=library_dir)
        go_checker = os.path.join(work, "ariadne-check-json")
        subprocess.run(["go", "build", "-o", go_checker, "./cmd/ariadne-check-json"], cwd=os.path.join(source, "go"),
                       env=go_env, check=True)

        print(f"{args.ops} ops ({edn}), medians of {args.runs} runs, the doors in turn")
        for number in range(1, args.sets + 1):
            times = {"cli": [], "python": [], "go": []}
            timer = subprocess.Popen([os.path.join(venv, "bin", "python"), "-c", PYTHON_TIMER, as_json,
                                      str(args.runs)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            for _ in range(args.runs):
                started = time.perf_counter()
                subprocess.run([ariadne, "check", as_json, "--model", "cas-register"], capture_output=True)
                times["cli"].append(time.perf_counter() - started)
                timer.stdin.write("\n")
                timer.stdin.flush()
                times["python"].append(float(timer.stdout.readline()))
                go = subprocess.run([go_checker, "-model", "cas-register", as_json], capture_output=True, text=True,
                                    env=go_env, check=True)
                times["go"].append(json.loads(go.stdout)["seconds_checking"])
            timer.stdin.close()
            timer.wait()
            medians = {door: statistics.median(seconds) for door, seconds in times.items()}
            print(f"set {number}: " + "  ".join(f"{door} {seconds:.3f} s" for door, seconds in medians.items()) +
                  f"  python/cli {medians['python'] / medians['cli']:.2f}  go/cli {medians['go'] / medians['cli']:.2f}")
    finally:
        if not args.work_dir:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
