"""Shared helpers for the reproduce scripts under papers/ (Python standard library only).

Each papers/<folder>/reproduce.py imports this module to find the repository, run the
ariadne binary, read the small classic histories and print plain-text tables. Nothing
here knows about a particular paper.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time

PAPERS_DIR = os.path.dirname(os.path.abspath(__file__))
REPO_ROOT = os.path.dirname(PAPERS_DIR)
# The third-party corpora live beside the repository and are never copied into it.
SHARED_CORPUS = os.path.join(os.path.dirname(REPO_ROOT), "shared", "corpus")

# Exit statuses of `ariadne check` (see `ariadne --help`).
CHECK_STATUS = {0: "linearizable", 1: "not-linearizable", 2: "unknown"}


def argument_parser(description):
    """A parser with the --ariadne option every reproduce script takes."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--ariadne", default=os.path.join(REPO_ROOT, "build", "ariadne"),
                        help="the ariadne binary (default: build/ariadne in the repository)")
    return parser


def require_binary(path):
    """Exits with status 2 and a clear message when the binary is missing."""
    resolved = path if os.sep in path else shutil.which(path) or path
    if not (os.path.isfile(resolved) and os.access(resolved, os.X_OK)):
        sys.exit(f"error: no ariadne binary at {path} (build it with `make build`, or pass --ariadne PATH)")
    return resolved


def repo_path(relative):
    return os.path.join(REPO_ROOT, relative)


def shown_path(path):
    """A path as the reader would type it from the repository root."""
    return os.path.relpath(path, REPO_ROOT)


def check(ariadne, path, model, *extra, timeout=None):
    """Runs `ariadne check PATH --model MODEL --json EXTRA...`.

    Returns (result, wall_ms): the parsed JSON object (with "status", the exit status,
    added) and the wall-clock time of the whole process in milliseconds. A status other
    than 0, 1 or 2, or output that is not JSON, stops the script: that is a broken run,
    not a verdict.
    """
    command = [ariadne, "check", path, "--model", model, "--json", *extra]
    started = time.perf_counter()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        wall_ms = (time.perf_counter() - started) * 1000
        return {"verdict": "unknown", "reason": "killed by the script's own time limit", "status": -1}, wall_ms
    wall_ms = (time.perf_counter() - started) * 1000
    if done.returncode not in CHECK_STATUS:
        sys.exit(f"error: `{' '.join(command)}` exited with {done.returncode}:\n{done.stderr}")
    try:
        result = json.loads(done.stdout)
    except json.JSONDecodeError:
        sys.exit(f"error: `{' '.join(command)}` printed no JSON:\n{done.stdout}\n{done.stderr}")
    result["status"] = done.returncode
    if CHECK_STATUS[done.returncode] != result["verdict"]:
        sys.exit(f"error: `{' '.join(command)}` exited {done.returncode} but said {result['verdict']}")
    return result, wall_ms


def headers_of(path):
    """The `; expected:` and `; model:` header values of a corpus .edn file."""
    found = {}
    with open(path) as text:
        for line in text:
            match = re.match(r";\s*(expected|model):\s*(.+?)\s*$", line)
            if match:
                found[match.group(1)] = match.group(2)
    return found


_EVENT = re.compile(r"\{:process (\d+), :type :(\w+), :f :(\w+), :value ([^}]*)\}")


def classic_ops(path):
    """Operations of a hand-written corpus/classic history, keyed by op id.

    Op ids are the positions of invocation events among all events (ariadne's
    convention). Each op is a dict with process, f, the value it was invoked with and
    the value it completed with (None while pending). These files hold one event map
    per line, which is all this reader understands.
    """
    ops, open_by_process = {}, {}
    events = [m.groups() for m in _EVENT.finditer(open(path).read())]
    for index, (process, kind, f, value) in enumerate(events):
        if kind == "invoke":
            ops[index] = {"process": int(process), "f": f, "invoked": value, "completed": None}
            open_by_process[process] = index
        elif process in open_by_process:
            ops[open_by_process.pop(process)]["completed"] = value
    return ops


def describe_op(op_id, op):
    """`enqueue :x (op 0, process 0)`, with the returned value for reads and dequeues."""
    value = op["completed"] if op["f"] in ("read", "dequeue", "pop") else op["invoked"]
    if value is None:
        value = op["invoked"] + " (pending)"
    return f"{op['f']} {value} (op {op_id}, process {op['process']})"


def print_table(headers, rows, out=sys.stdout):
    """A Markdown table, columns padded so it also reads well in a terminal."""
    cells = [[str(c) for c in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]

    def line(row):
        return "| " + " | ".join(c.ljust(w) for c, w in zip(row, widths)) + " |"

    print(line(cells[0]), file=out)
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|", file=out)
    for row in cells[1:]:
        print(line(row), file=out)


def median(values):
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def indent(text, prefix="    "):
    return "".join(prefix + line + "\n" for line in text.rstrip("\n").split("\n"))


def run_classic_claims(ariadne, claims, out=sys.stdout):
    """Checks small corpus/classic histories against what their source says.

    `claims` is a list of (label, relative path, verdict the source states). For each
    history the file's own `; expected:` header is compared too, so a transcription
    that disagrees with its source shows up as a discrepancy. Prints a summary table,
    then the witness of every linearizable history and the core and explanation of
    every other one. Returns the list of labels whose verdict did not reproduce.
    """
    rows, details, failed = [], [], []
    for label, relative, stated in claims:
        path = repo_path(relative)
        headers = headers_of(path)
        result, _ = check(ariadne, path, headers["model"])
        file_says = headers.get("expected", "?")
        reproduced = result["verdict"] == stated
        note = "yes" if reproduced else "NO"
        if file_says != stated:
            note += f" (file header says {file_says}: discrepancy)"
        if not reproduced or file_says != stated:
            failed.append(label)
        rows.append([label, relative, headers["model"], stated, result["verdict"], result["engine"],
                     f"{result['elapsed_ms']:.2f}", note])
        details.append((label, path, result))

    print_table(["history", "file", "model", "source says", "ariadne", "engine", "ms", "reproduced"], rows, out)
    for label, path, result in details:
        ops = classic_ops(path)
        print(f"\n### {label}: {result['verdict']}\n", file=out)
        if result["verdict"] == "linearizable":
            print("Witness (ariadne's linearization, certified before it is printed):", file=out)
            for position, op_id in enumerate(result["linearization"], 1):
                print(f"  {position}. {describe_op(op_id, ops[op_id])}", file=out)
            left_out = [i for i in ops if i not in result["linearization"]]
            for op_id in left_out:
                print(f"  (not in the order: {describe_op(op_id, ops[op_id])}, a pending op that "
                      "need not take effect)", file=out)
        else:
            minimal = "minimal" if result.get("core_minimal") else "not shown minimal"
            print(f"Core ({len(result['core'])} of {result['operations']} ops, {minimal}): "
                  + ", ".join(describe_op(i, ops[i]) for i in result["core"]), file=out)
            print("Explanation (ariadne's own words):", file=out)
            print(indent(result["explanation"]), end="", file=out)
    return failed


def classic_main(description, title, claims, summary):
    """The whole of a reproduce script for corpus/classic histories: parse --ariadne,
    print `title`, check `claims` with run_classic_claims, and end with a REPRODUCED
    line (`summary`) or a NOT REPRODUCED one. Returns the exit status."""
    args = argument_parser(description).parse_args()
    ariadne = require_binary(args.ariadne)
    print(f"# {title}\n")
    failed = run_classic_claims(ariadne, claims)
    print()
    if failed:
        print(f"NOT REPRODUCED: {', '.join(failed)}")
        return 1
    print(f"REPRODUCED: {summary}")
    return 0


# --- Real clusters: the test bed (testbed/run.py) -----------------------------------------

TESTBED_SKIP = 77  # testbed/run.py: this machine cannot host the test bed


def add_real_system_options(parser, default_seeds="1-10", default_duration=30):
    """--real-system and what it takes: seeds, duration, where runs go, or runs made earlier."""
    group = parser.add_argument_group(
        "real system", "run the claim on real Redis or etcd clusters with testbed/run.py "
                       "(needs root and testbed/install-deps.sh; minutes per seed)")
    group.add_argument("--real-system", action="store_true",
                       help="run the test bed's scenarios instead of the model")
    group.add_argument("--real-seeds", default=default_seeds,
                       help=f"seeds per scenario (default {default_seeds})")
    group.add_argument("--real-duration", type=float, default=default_duration,
                       help=f"seconds of traffic per run (default {default_duration:g})")
    group.add_argument("--real-out", default="testbed-runs",
                       help="where the runs are written (default ./testbed-runs)")
    group.add_argument("--from-runs", metavar="DIR",
                       help="read the runs already in DIR instead of running the test bed")


def real_system_runs(args, ariadne, scenarios):
    """The result.json of each run of `scenarios`, by scenario, from testbed/run.py (or from
    --from-runs DIR). Exits 0 saying `skipped` when the machine cannot host the test bed."""
    folder = args.from_runs or args.real_out
    if not args.from_runs:
        command = [sys.executable, os.path.join(REPO_ROOT, "testbed", "run.py"), *scenarios,
                   "--seeds", args.real_seeds, "--duration", str(args.real_duration),
                   "--out", folder,
                   "--ariadne", ariadne]
        print("$ " + " ".join(shown_path(c) if c.startswith(REPO_ROOT) else c
                              for c in command) + "\n", flush=True)
        done = subprocess.run(command, stdout=subprocess.DEVNULL)
        if done.returncode == TESTBED_SKIP:
            print("skipped: this machine cannot host the test bed (testbed/run.py says why)")
            sys.exit(0)
        if done.returncode != 0:
            print(f"note: testbed/run.py exited {done.returncode}; see its messages above")
    runs = {}
    for scenario in scenarios:
        runs[scenario] = []
        for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
            path = os.path.join(folder, name, "result.json")
            if name.startswith(scenario + "-s") and name[len(scenario) + 2:].isdigit() \
                    and os.path.exists(path):
                with open(path, encoding="utf-8") as source:
                    runs[scenario].append(json.load(source))
        runs[scenario].sort(key=lambda r: r["seed"])
    return runs


def percent(share):
    """A share in percent: one decimal below 10% (0.2%), none above (21%)."""
    return f"{share:.1f}%" if 0 < share < 10 else f"{share:.0f}%"


def real_system_table(runs, out=sys.stdout):
    """One row per scenario: runs, verdicts of both workloads, acknowledged adds lost
    (median and range of the per-run shares), crashed ops, check time."""
    rows = []
    for scenario, results in runs.items():
        if not results:
            rows.append([scenario, "0"] + ["-"] * 6)
            continue
        shares = [100.0 * r["workloads"]["set"]["lost"] / r["workloads"]["set"]["acknowledged"]
                  for r in results if r["workloads"]["set"].get("lost") is not None
                  and r["workloads"]["set"]["acknowledged"]]
        refuted = {w: sum(1 for r in results if r["workloads"][w]["check"].get("verdict")
                          == "not-linearizable") for w in ("register", "set")}
        lost_runs = sum(1 for r in results if r["workloads"]["set"].get("lost"))
        ops = [r["workloads"][w]["ops"] for r in results for w in ("register", "set")]
        crashed = [r["workloads"][w]["crashed"] for r in results for w in ("register", "set")]
        seconds = [r["workloads"][w]["check"]["check_seconds"] for r in results
                   for w in ("register", "set")]
        rows.append([scenario, str(len(results)),
                     f"{refuted['register']} of {len(results)}",
                     f"{refuted['set']} of {len(results)}",
                     f"{lost_runs} of {len(results)}",
                     f"{percent(median(shares))} ({percent(min(shares))}-{percent(max(shares))})"
                     if shares else "-",
                     f"{min(ops):,}-{max(ops):,} ({min(crashed)}-{max(crashed)} crashed)",
                     f"{max(seconds):.2f}"])
    print_table(["scenario", "runs", "register refuted", "set refuted", "runs losing acked adds",
                 "acked adds lost: median (range)", "ops per history", "slowest check s"],
                rows, out=out)


def timeline_excerpt(run_dir, most=24):
    """The lines of a run's timeline.txt around its first loss: from the fault before the
    first LOST line to the moment the node that acknowledged the lost writes threw them
    away (its next full resync): the faults, each Sentinel decision once, the promoted
    node and what the acknowledging node did. Empty when nothing was lost."""
    path = os.path.join(run_dir, "timeline.txt")
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as source:
        lines = [line.rstrip("\n") for line in source][1:]
    lost = next((i for i, line in enumerate(lines) if "LOST" in line), None)
    if lost is None:
        return []
    first = max((i for i in range(lost) if "NEMESIS" in lines[i]), default=lost)
    nodes = re.findall(r"\bn\d+\b", lines[lost].split("acknowledged by", 1)[-1])
    last = next((i for i in range(lost + 1, len(lines))
                 if any(f"{n} redis: Full resync" in lines[i] for n in nodes)), lost)
    wanted, seen = [], set()
    for line in lines[first:last + 1]:
        text = line.split(None, 1)[1]
        if "sentinel:" in text:
            event = text.split("sentinel: ", 1)[1]
            if "odown" in event or event in seen:
                continue  # five Sentinels report each decision; the first is enough
            seen.add(event)
        elif " redis: " in text and not (any(text.startswith(n + " ") for n in nodes)
                                         or "MASTER MODE" in text):
            continue  # the other replicas following along
        elif "Connection with master lost" in text:
            continue
        wanted.append(line)
    return wanted if len(wanted) <= most else wanted[:most // 2] + ["    ..."] + wanted[-most // 2:]


def conclude(problems, reproduced):
    """The last lines of a reproduce script: NOT REPRODUCED with the problems (exit status
    1), or REPRODUCED and the summary (0)."""
    print()
    if problems:
        print("NOT REPRODUCED: " + "; ".join(problems))
        return 1
    print(f"REPRODUCED: {reproduced}")
    return 0
