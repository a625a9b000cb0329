#!/usr/bin/env python3
"""The search frontier (issue 42): for every setting of generated single-object
histories, the largest size each way of checking decides within the limits, and
WGL's steps per second.

Usage: scripts/bench_frontier.py [--ariadne build/ariadne] [--models cas-register,register,etcd,kv]
                                 [--values 3,5] [--processes 5,20,40] [--crash-rates 0,0.05,0.2]
                                 [--sizes 1000,5000,20000,100000] [--seeds 3]
                                 [--kinds linearizable,violation] [--engines default,wgl,jit,sat,smt]
                                 [--timeout 60] [--memory-limit 4GiB] [--nice 10]
                                 [--cache FILE] [--json OUT] [--keep DIR]

A setting is a model, a value domain, a number of processes, a crash rate and a kind
(linearizable, or with --violation). Its histories are
  ariadne generate atomic --model M --values V --processes P --crash-rate C --ops N
                          --seed S [--violation] -o FILE
for each size N and seeds S = 1..SEEDS (kv with --keys 1: one key; etcd is the
register whose cas that finds another value completes with :fail). Each is checked
with the model the file's "; model:" line names (M with its initial state) by
  default  `ariadne check FILE --model M --json`: the engine race, core included
  wgl, jit, sat, smt  `--engine E --no-core`: that engine alone
each with --timeout and --memory-limit, one run at a time, under `nice`.

A run decides when its verdict is the one the generator built (linearizable without
--violation, not linearizable with it). A contradicting verdict is printed as WRONG
at once and makes the script exit 1; so does a run that crashes (an exit other than
0, 1 or 2) or outlives its limits by a minute. Per setting and engine, sizes go up in
order, seeds 1 to SEEDS at each; at the first run that does not decide (unknown:
timeout or memory), the engine's remaining seeds at that size and all larger sizes
are skipped, and the table says where it stopped and why.

The table has a row per setting and a cell per engine: the largest size every seed
decided, the slowest seed's time there and the largest peak RSS (/usr/bin/time -f %M,
the whole command), then where it stopped. Times are ariadne's own: for the default
check "elapsed_ms" (the verdict and the core; reading excluded), for an engine alone
the time to the verdict ("verdict_ms" for refutations, else "elapsed_ms"). "cores
minimal" counts the default check's refutations whose JSON has core_minimal true.
"WGL steps/s" is --engine wgl's "steps" over its time to the verdict (or to the
limit), the median over the seeds at the largest size it ran.

--cache FILE keeps every run as a JSON line, keyed by the binary's SHA-256, the
setting, size, seed, engine and limits: a run already there is not repeated, so an
interrupted run continues where it stopped, and a rebuilt binary starts afresh.
--json OUT writes every run and the table's rows. Generated files go to a temporary
folder removed at the end, or to --keep DIR, where they are kept and reused.

The full grid is 144 settings of 5 ways; with 60 s timeouts it should take roughly 12
to 20 hours on 2 cores (docs/frontier.md, which has a subset's table and the command
that made it). A benchmark, not a test: it asserts only that no answer is wrong.
"""
import argparse
import hashlib
import itertools
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time

from history_headers import read_headers

ENGINES = ["default", "wgl", "jit", "sat", "smt"]
KINDS = ["linearizable", "violation"]
EXPECTED = {"linearizable": "linearizable", "violation": "not-linearizable"}
# Past the run's own --timeout, how long it may go on before it counts as hung.
HANG_GRACE_SECONDS = 60


def split_list(convert):
    return lambda text: [convert(x) for x in text.split(",") if x]


def size_text(ops):
    """10^3, 5·10^3, 2·10^4, 10^5: the sizes as the issue writes them."""
    exponent = len(str(ops)) - 1
    mantissa, remainder = divmod(ops, 10 ** exponent)
    if remainder:
        return f"{ops:,}"
    return f"10^{exponent}" if mantissa == 1 else f"{mantissa}·10^{exponent}"


def binary_digest(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


class Cache:
    """Runs already done, as JSON lines, so an interrupted benchmark resumes."""

    def __init__(self, path):
        self.path = path
        self.runs = {}
        if path and os.path.exists(path):
            with open(path) as f:
                for line in f:
                    line = line.strip()
                    if not line:
                        continue
                    try:
                        run = json.loads(line)
                    except json.JSONDecodeError:
                        continue  # a line cut short when the last run was interrupted
                    self.runs[self.key(run)] = run

    @staticmethod
    def key(run):
        return json.dumps({k: run[k] for k in ("ariadne_sha256", "model", "values", "processes", "crash_rate",
                                              "kind", "ops", "seed", "engine", "timeout", "memory_limit")},
                          sort_keys=True)

    def get(self, run_key):
        return self.runs.get(self.key(run_key))

    def add(self, run):
        self.runs[self.key(run)] = run
        if self.path:
            with open(self.path, "a") as f:
                f.write(json.dumps(run, sort_keys=True) + "\n")


def generate(args, folder, setting, ops, seed):
    model, values, processes, crash_rate, kind = setting
    name = f"{model}-v{values}-p{processes}-c{crash_rate}-{kind}-{ops}-{seed}.edn"
    path = os.path.join(folder, name)
    if not os.path.exists(path):
        command = [args.ariadne, "generate", "atomic", "--model", model, "--values", str(values), "--processes",
                   str(processes), "--crash-rate", str(crash_rate), "--ops", str(ops), "--seed", str(seed),
                   "-o", path + ".part"]
        if model == "kv":
            command[5:5] = ["--keys", "1"]
        if kind == "violation":
            command.append("--violation")
        subprocess.run(command, check=True)
        os.replace(path + ".part", path)
    headers = read_headers(path)
    if headers.get("expected") != EXPECTED[kind]:
        sys.exit(f"{path}: the generator says '{headers.get('expected')}', expected {EXPECTED[kind]}")
    return path, headers.get("model", model)


def run_check(args, path, model_spec, engine):
    """One `ariadne check`, under nice and /usr/bin/time; its JSON, exit status, peak RSS."""
    command = [args.ariadne, "check", path, "--model", model_spec, "--json", "--timeout", str(args.timeout),
               "--memory-limit", args.memory_limit]
    if engine != "default":
        command += ["--engine", engine, "--no-core"]
    with tempfile.NamedTemporaryFile("r") as rss:
        # A session of its own, so that a hung run is stopped whole (time and ariadne,
        # and Z3's child under smt) and Ctrl-C reaches only this script, which stops it.
        process = subprocess.Popen(["nice", "-n", str(args.nice), "/usr/bin/time", "-f", "%M", "-o", rss.name]
                                   + command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                   start_new_session=True)
        start = time.monotonic()
        try:
            stdout, stderr = process.communicate(timeout=args.timeout + HANG_GRACE_SECONDS)
        except BaseException:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            if sys.exc_info()[0] is not subprocess.TimeoutExpired:
                raise
            return {"exit": None, "error": f"still running {args.timeout + HANG_GRACE_SECONDS:g} s after its start"
                                           f" (limits not held): {' '.join(command)}"}
        wall_ms = (time.monotonic() - start) * 1000
        lines = rss.read().strip().splitlines()
    peak_mib = int(lines[-1]) / 1024 if lines and lines[-1].isdigit() else None
    outcome = {"exit": process.returncode, "wall_ms": round(wall_ms, 1), "peak_rss_mib": peak_mib}
    if process.returncode not in (0, 1, 2):
        outcome["error"] = f"exit {process.returncode}: {stderr.strip()[-500:]} ({' '.join(command)})"
        return outcome
    try:
        outcome["json"] = json.loads(stdout)
    except json.JSONDecodeError:
        outcome["error"] = f"no JSON on stdout: {stdout[:200]!r} ({' '.join(command)})"
    return outcome


def summarise(run_key, outcome, expected):
    """The run's record: what the cache keeps and the table reads."""
    run = dict(run_key)
    run.update({k: outcome.get(k) for k in ("exit", "wall_ms", "peak_rss_mib", "error")})
    result = outcome.get("json")
    if result is None:
        run.update({"verdict": "error", "decided": False, "wrong": False})
        return run
    verdict = result.get("verdict")
    run.update({
        "verdict": verdict,
        "expected": expected,
        "decided": verdict == expected,
        "wrong": verdict in ("linearizable", "not-linearizable") and verdict != expected,
        "winner": result.get("engine"),
        "operations": result.get("operations"),
        "elapsed_ms": result.get("elapsed_ms"),
        "verdict_ms": result.get("verdict_ms"),
        "total_ms": result.get("total_ms"),
        "core_ms": result.get("core_ms"),
        "steps": result.get("steps"),
        "reason": result.get("reason"),
        "limit": result.get("limit"),
        "limit_phase": result.get("limit_phase"),
    })
    if "core" in result:
        run["core_size"] = len(result["core"])
        run["core_minimal"] = bool(result.get("core_minimal"))
    return run


def check_time_ms(run):
    """The default check's time includes its core; an engine alone is timed to its verdict."""
    if run["engine"] == "default":
        return run.get("elapsed_ms") or 0
    return run.get("verdict_ms") or run.get("elapsed_ms") or 0


def why_not(run):
    """Why a run did not decide, in a word: WRONG, ERROR, timeout, memory, unsupported."""
    if run.get("error"):
        return "ERROR"
    if run.get("wrong"):
        return "WRONG"
    if run.get("limit"):
        return run["limit"]
    return "unsupported" if "unsupported" in (run.get("reason") or "") else "unknown"


def seconds_text(ms):
    if ms < 10:
        return f"{ms:.1f} ms"
    if ms < 1000:
        return f"{ms:.0f} ms"
    return f"{ms / 1000:.2f} s"


def cell_text(frontier):
    """'5·10^3, 1.10 s, 120 MiB; 2·10^4: timeout (seed 1), larger skipped'."""
    parts = []
    if frontier["largest"]:
        runs = frontier["largest_runs"]
        slowest = max(check_time_ms(r) for r in runs)
        peaks = [r["peak_rss_mib"] for r in runs if r.get("peak_rss_mib") is not None]
        parts.append(f"{size_text(frontier['largest'])}, {seconds_text(slowest)}"
                     + (f", {max(peaks):.0f} MiB" if peaks else ""))
    else:
        parts.append("none")
    stop = frontier["stopped"]
    if stop:
        text = f"{size_text(stop['ops'])}: {why_not(stop)} (seed {stop['seed']})"
        if stop["ops"] != frontier["sizes"][-1]:
            text += ", larger skipped"
        parts.append(text)
    return "; ".join(parts)


def steps_per_second(wgl_runs):
    """Median over the seeds at the largest size WGL ran, and that size."""
    timed = [r for r in wgl_runs if r.get("steps") and check_time_ms(r) > 0]
    if not timed:
        return None
    largest = max(r["ops"] for r in timed)
    rates = [r["steps"] / (check_time_ms(r) / 1000) for r in timed if r["ops"] == largest]
    return statistics.median(rates), largest


def rate_text(rate):
    if rate is None:
        return "-"
    value, ops = rate
    return f"{value / 1e6:.2f} M at {size_text(ops)}"


def bench_setting(args, cache, digest, folder, setting):
    """Every engine's frontier on one setting: sizes up, seeds 1..N, each engine stopping at its first miss."""
    model, values, processes, crash_rate, kind = setting
    frontiers = {e: {"largest": None, "largest_runs": [], "stopped": None, "sizes": args.sizes, "runs": []}
                 for e in args.engines}
    for ops in args.sizes:
        alive = [e for e in args.engines if frontiers[e]["stopped"] is None]
        if not alive:
            break
        decided_here = {e: [] for e in alive}
        for seed in range(1, args.seeds + 1):
            path = model_spec = None
            for engine in alive:
                if frontiers[engine]["stopped"] is not None:
                    continue
                run_key = {"ariadne_sha256": digest, "model": model, "values": values, "processes": processes,
                           "crash_rate": crash_rate, "kind": kind, "ops": ops, "seed": seed, "engine": engine,
                           "timeout": args.timeout, "memory_limit": args.memory_limit}
                run = cache.get(run_key)
                if run is None:
                    if path is None:
                        path, model_spec = generate(args, folder, setting, ops, seed)
                    run = summarise(run_key, run_check(args, path, model_spec, engine), EXPECTED[kind])
                    run["model_spec"] = model_spec
                    cache.add(run)
                    cached = ""
                else:
                    cached = " (cached)"
                frontiers[engine]["runs"].append(run)
                report_run(run, cached)
                if run["decided"]:
                    decided_here[engine].append(run)
                else:
                    frontiers[engine]["stopped"] = run
            if path is not None and not args.keep:
                os.remove(path)
        for engine in alive:
            if frontiers[engine]["stopped"] is None:
                frontiers[engine]["largest"] = ops
                frontiers[engine]["largest_runs"] = decided_here[engine]
    return frontiers


def report_run(run, cached):
    what = (f"{run['model']} v{run['values']} p{run['processes']} c{run['crash_rate']} {run['kind']} "
            f"{size_text(run['ops'])} seed {run['seed']} {run['engine']}")
    if run.get("error"):
        print(f"ERROR {what}: {run['error']}", file=sys.stderr, flush=True)
        return
    if run.get("wrong"):
        print(f"WRONG {what}: answered {run['verdict']}, the generator built {run['expected']}",
              file=sys.stderr, flush=True)
        return
    detail = seconds_text(check_time_ms(run))
    if run.get("peak_rss_mib") is not None:
        detail += f", {run['peak_rss_mib']:.0f} MiB"
    if run["verdict"] == "unknown":
        detail += f", {run.get('reason')}"
    if run.get("core_size") is not None and run["engine"] == "default":
        detail += f", core {run['core_size']}{'' if run.get('core_minimal') else ' NOT minimal'}"
    print(f"  {what}: {run['verdict']} ({detail}){cached}", file=sys.stderr, flush=True)


def cores_text(frontier, kind):
    if kind != "violation":
        return "-"
    cores = [r for r in frontier["runs"] if r.get("decided") and "core_minimal" in r]
    return f"{sum(r['core_minimal'] for r in cores)}/{len(cores)}" if cores else "-"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ariadne", default="build/ariadne")
    parser.add_argument("--models", type=split_list(str), default=["cas-register", "register", "etcd", "kv"])
    parser.add_argument("--values", type=split_list(int), default=[3, 5])
    parser.add_argument("--processes", type=split_list(int), default=[5, 20, 40])
    parser.add_argument("--crash-rates", type=split_list(str), default=["0", "0.05", "0.2"])
    parser.add_argument("--sizes", type=split_list(int), default=[1000, 5000, 20000, 100000])
    parser.add_argument("--seeds", type=int, default=3, help="seeds 1..N a cell")
    parser.add_argument("--kinds", type=split_list(str), default=KINDS)
    parser.add_argument("--engines", type=split_list(str), default=ENGINES)
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--memory-limit", default="4GiB")
    parser.add_argument("--nice", type=int, default=10)
    parser.add_argument("--cache", help="JSON lines of finished runs, read and appended to")
    parser.add_argument("--json", dest="json_out", help="write every run and the table's rows here")
    parser.add_argument("--keep", help="generate into this folder and keep the files")
    args = parser.parse_args()
    for name, given, known in (("--kinds", args.kinds, KINDS), ("--engines", args.engines, ENGINES)):
        unknown = set(given) - set(known)
        if unknown:
            parser.error(f"{name}: unknown {', '.join(sorted(unknown))} (known: {', '.join(known)})")
    args.sizes = sorted(set(args.sizes))
    args.engines = [e for e in ENGINES if e in args.engines]
    if not os.access(args.ariadne, os.X_OK):
        parser.error(f"{args.ariadne}: not an executable (build it first: make build)")
    if args.timeout == int(args.timeout):
        args.timeout = int(args.timeout)  # "--timeout 60", as a user would type it
    digest = binary_digest(args.ariadne)
    cache = Cache(args.cache)

    settings = list(itertools.product(args.models, args.values, args.processes, args.crash_rates, args.kinds))
    started = time.monotonic()
    rows = []
    with tempfile.TemporaryDirectory(prefix="ariadne-frontier-") as scratch:
        folder = args.keep or scratch
        os.makedirs(folder, exist_ok=True)
        try:
            for setting in settings:
                frontiers = bench_setting(args, cache, digest, folder, setting)
                rows.append((setting, frontiers))
        except KeyboardInterrupt:
            resume = f"; the same command continues from {args.cache}" if args.cache else " (no --cache given)"
            print(f"\ninterrupted after {len(rows)} of {len(settings)} settings{resume}", file=sys.stderr)
            sys.exit(130)

    all_runs = [r for _, frontiers in rows for f in frontiers.values() for r in f["runs"]]
    wrong = [r for r in all_runs if r.get("wrong")]
    errors = [r for r in all_runs if r.get("error")]
    print(f"\n## The search frontier: largest size decided by every seed ({args.seeds} a cell), "
          f"--timeout {args.timeout} --memory-limit {args.memory_limit}\n")
    print(f"sizes {', '.join(size_text(s) for s in args.sizes)}; {os.cpu_count()} cores; "
          f"{time.monotonic() - started:.0f} s wall for this invocation (runs found in the cache cost nothing)\n")
    print("| model | values | procs | crash | kind | " + " | ".join(args.engines)
          + (" | cores minimal" if "default" in args.engines else "")
          + (" | WGL steps/s" if "wgl" in args.engines else "") + " |")
    columns = 5 + len(args.engines) + ("default" in args.engines) + ("wgl" in args.engines)
    print("|" + "---|" * columns)
    table = []
    for (model, values, processes, crash_rate, kind), frontiers in rows:
        cells = [cell_text(frontiers[e]) for e in args.engines]
        row = {"model": model, "values": values, "processes": processes, "crash_rate": crash_rate, "kind": kind,
               "largest_decided": {e: frontiers[e]["largest"] for e in args.engines}, "cells": cells}
        if "default" in args.engines:
            cells.append(cores_text(frontiers["default"], kind))
            row["cores_minimal"] = cells[-1]
        if "wgl" in args.engines:
            rate = steps_per_second(frontiers["wgl"]["runs"])
            cells.append(rate_text(rate))
            row["wgl_steps_per_second"] = rate[0] if rate else None
        table.append(row)
        print(f"| {model} | {values} | {processes} | {crash_rate} | {kind} | " + " | ".join(cells) + " |")
    if wrong:
        print(f"\n*** WRONG: {len(wrong)} answers contradict how the history was generated ***")
    for run in wrong:
        print(f"WRONG: {run['model']} values {run['values']} processes {run['processes']} crash {run['crash_rate']} "
              f"{run['kind']} {run['ops']} ops seed {run['seed']} engine {run['engine']}: answered "
              f"{run['verdict']}, the generator built {run['expected']}")
    for run in errors:
        print(f"ERROR: {run['model']} {run['kind']} {run['ops']} ops seed {run['seed']} engine {run['engine']}: "
              f"{run['error']}")
    if args.json_out:
        with open(args.json_out, "w") as f:
            json.dump({"ariadne_sha256": digest, "timeout": args.timeout, "memory_limit": args.memory_limit,
                       "seeds": args.seeds, "sizes": args.sizes, "rows": table, "runs": all_runs}, f, indent=1)
    if wrong or errors:
        sys.exit(1)


if __name__ == "__main__":
    main()
