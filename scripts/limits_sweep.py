#!/usr/bin/env python3
"""Measures whether --timeout and --memory-limit hold, from outside, on real and
generated histories (the limits issue): every engine alone, the race, check
--explain --proof, check --html, corpus --certify and cross-check, the key shards of
kv histories (check --shard I/N, then check --merge), and histories read from a pipe
(`cat FILE | ariadne check /dev/stdin`, and a writer that sleeps 30 s before it
writes), each run timed and its peak resident size read by /usr/bin/time -f %M (the
largest of the process and its Z3 child), against the limit.

    scripts/limits_sweep.py --ariadne build/ariadne [--timeout 1] [--memory-limit-mib 512]
                            [--per-model 20] [--modes SUBSTRING,...] [--big] [--tokens] [--json OUT]

A run holds when its wall time is at most --timeout + --slack-s past what the command
could not have avoided (for cross-check: each engine run and the certification
separately, read from its JSON; for a pipe: ariadne's own time, not the writer's) and
its peak resident size, less the program's own (ariadne checking a two-event
history, measured first), is at most the memory limit + 10 %: the limit counts what
the command takes beyond the program itself. --big adds a 10^6-op kv history (1,000
keys) checked with --html and with --proof under --timeout 4 and --memory-limit
400MiB (issue 41). --tokens adds ten histories whose one huge token (a string, a
keyword, a number, a comment, in EDN, JSON, Jepsen logs and Porcupine kv) is 64 MiB,
read from the file and from a pipe under --memory-limit 20MiB (issue 41). Prints one line per failure, a table per mode, and
the worst cases. Runs one command at a time: timings on a shared machine are noisy
enough.
"""
import argparse
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

MODELS = ["register", "cas-register", "etcd", "multi-register", "kv", "fifo-queue", "stack", "unordered-queue",
          "set", "mutex"]
ENGINES = ["wgl", "jit", "sat", "smt", "brute", "unique", "auto"]
KEY_SHARDS = 2


def generated_histories(ariadne, folder, per_model):
    """per_model histories per model: half linearizable, half with --violation; 200
    and 2,000 operations alternately, 2% crashed ops; queues and stacks all 2,000."""
    out = []
    for model in MODELS:
        for seed in range(1, per_model + 1):
            big = model in ("fifo-queue", "stack", "unordered-queue") or seed % 2 == 0
            ops = 2000 if big else 200
            violation = seed % 4 in (1, 2)
            name = f"{model}-{ops}-{seed}{'-violation' if violation else ''}"
            path = os.path.join(folder, name, name + ".edn")
            os.makedirs(os.path.dirname(path), exist_ok=True)
            args = [ariadne, "generate", "atomic", "--model", model, "--ops", str(ops), "--processes", "10",
                    "--crash-rate", "0.02", "--seed", str(seed), "-o", path]
            if violation:
                args.append("--violation")
            subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
            out.append((name, path, model))
    return out


def reported_histories(shared, folder):
    out = []
    reported = os.path.join(shared, "corpus", "reported")
    tsv = os.path.join(reported, "expected.tsv")
    if not os.path.exists(tsv):
        return out
    for line in open(tsv):
        file, verdict, model = line.rstrip("\n").split("\t")
        name = os.path.splitext(file)[0]
        path = os.path.join(folder, name, file)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        # A corpus folder of one file needs the header lines `corpus DIR` reads.
        with open(path, "w") as copy:
            copy.write(f"; expected: {verdict}\n; model: {model}\n")
            copy.write(open(os.path.join(reported, file)).read())
        out.append((name, path, model))
    return out


def timed(args, writer=None):
    """Wall seconds, peak RSS in bytes, exit status, stdout. With `writer` (a command
    whose stdout is the run's stdin), the writer is started first and killed once the
    run has ended: the time is the run's own."""
    feed = subprocess.Popen(writer, stdout=subprocess.PIPE, start_new_session=True) if writer else None
    start = time.monotonic()
    with tempfile.NamedTemporaryFile("r") as rss:
        p = subprocess.run(["/usr/bin/time", "-o", rss.name, "-f", "%M"] + args, stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True, stdin=feed.stdout if feed else None)
        wall = time.monotonic() - start
        lines = [l for l in open(rss.name).read().split("\n") if l.strip().isdigit()]
        peak = int(lines[-1]) * 1024 if lines else 0
    if feed:
        feed.stdout.close()
        if feed.poll() is None:
            os.killpg(feed.pid, 9)
        feed.wait()
    return wall, peak, p.returncode, p.stdout


def history_modes(ariadne, folder, name, path, model, t, mem):
    """(mode, command, writer) for every way one history is checked."""
    here = os.path.dirname(path)
    limits = ["--timeout", t, "--memory-limit", mem]
    modes = [(f"check --engine {e}", [ariadne, "check", path, "--model", model, "--engine", e, "--json"] + limits,
              None) for e in ENGINES]
    proof = os.path.join(here, "proof")
    modes.append(("check --explain --proof", [ariadne, "check", path, "--model", model, "--explain", "--json",
                                              "--proof", proof] + limits, None))
    modes.append(("check --html", [ariadne, "check", path, "--model", model, "--json", "--html",
                                   os.path.join(here, "report.html")] + limits, None))
    modes.append(("check --html --proof", [ariadne, "check", path, "--model", model, "--json", "--html",
                                           os.path.join(here, "report.html"), "--proof", proof] + limits, None))
    modes.append(("corpus --certify", [ariadne, "corpus", here, "--certify", os.path.join(folder, "cert-" + name),
                                       "--jobs", "1", "--json"] + limits, None))
    modes.append(("cross-check", [ariadne, "cross-check", here, "--jobs", "1", "--json"] + limits, None))
    if model == "kv":
        # Key shards: each shard's check, then the merge of their reports, each a run.
        reports = [os.path.join(here, f"shard-{i}.json") for i in range(KEY_SHARDS)]
        for i, report in enumerate(reports):
            modes.append(("check --shard", ["sh", "-c", '"$0" "$@" > ' + shlex.quote(report), ariadne, "check", path,
                                            "--model", model, "--shard", f"{i}/{KEY_SHARDS}", "--json"] + limits,
                          None))
        modes.append(("check --merge", [ariadne, "check", path, "--model", model, "--merge"] + reports + ["--json"] +
                      limits, None))
    # Pipes: the file read from stdin, whole at once and from a writer that sleeps
    # far past the timeout (reading must stop at the timeout all the same).
    modes.append(("check /dev/stdin (cat)", [ariadne, "check", "/dev/stdin", "--model", model, "--json"] + limits,
                  ["cat", path]))
    modes.append(("check /dev/stdin (slow writer)", [ariadne, "check", "/dev/stdin", "--model", model, "--json"] +
                  limits, ["sh", "-c", 'sleep 30; cat "$0"', path]))
    return modes


def big_history_modes(ariadne, folder):
    """The 10^6-op kv history of issue 41, with --html and --proof."""
    path = os.path.join(folder, "big", "big.edn")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    subprocess.run([ariadne, "generate", "atomic", "--model", "kv", "--keys", "1000", "--ops", "1000000",
                    "--processes", "8", "--seed", "3", "-o", path], check=True, stdout=subprocess.DEVNULL)
    limits = ["--timeout", "4", "--memory-limit", "400MiB"]
    here = os.path.dirname(path)
    return [("big", path, "kv", 4.0, 400 << 20, [
        ("big check --html", [ariadne, "check", path, "--model", "kv", "--json", "--html",
                              os.path.join(here, "r.html")] + limits, None),
        ("big check --proof", [ariadne, "check", path, "--model", "kv", "--json", "--proof",
                               os.path.join(here, "proof")] + limits, None),
    ])]


TOKEN_BYTES = 64 << 20
TOKEN_MEMORY = 20 << 20


def token_history_modes(ariadne, folder, timeout):
    """Histories of one huge token each, from the file and from a pipe (issue 41)."""
    big = "A" * TOKEN_BYTES
    texts = {
        "edn-string.edn": '{:type :invoke, :f :write, :value "x", :process 0}\n'
                          '{:type :ok, :f :write, :value "%s", :process 0}\n' % big,
        "edn-escaped-string.edn": '{:type :invoke, :f :write, :value "x", :process 0}\n'
                                  '{:type :ok, :f :write, :value "\\n%s", :process 0}\n' % big,
        "edn-vector.edn": '[{:type :invoke, :f :write, :value "x", :process 0}\n'
                          ' {:type :ok, :f :write, :value "%s", :process 0}]\n' % big,
        "edn-keyword.edn": '{:type :invoke, :f :write, :value :x, :process 0}\n'
                           '{:type :ok, :f :write, :value :%s, :process 0}\n' % big,
        "edn-comment.edn": '{:type :invoke, :f :write, :value 1, :process 0}\n;%s\n'
                           '{:type :ok, :f :write, :value 1, :process 0}\n' % big,
        "json-string.json": '[{"process": 0, "type": "invoke", "f": "write", "value": "x"},\n'
                            ' {"process": 0, "type": "ok", "f": "write", "value": "%s"}]\n' % big,
        "json-pretty.json": '[{"process": 0, "type": "invoke", "f": "write", "value": "x"},\n'
                            ' {"process": 0,\n "type": "ok",\n "f": "write",\n "value": "%s"\n}]\n' % big,
        "json-number.json": '[{"process": 0, "type": "invoke", "f": "write", "value": 1},\n'
                            ' {"process": 0, "type": "ok", "f": "write", "value": %s}]\n' % ("1" * TOKEN_BYTES),
        "jepsen.log": 'INFO  jepsen.util - 0\t:invoke\t:write\t"x"\n'
                      'INFO  jepsen.util - 0\t:ok\t:write\t"%s"\n' % big,
        "porcupine-kv.txt": '{:process 0, :type :invoke, :f :put, :key "k", :value "x"}\n'
                            '{:process 0, :type :ok, :f :put, :key "k", :value "%s"}\n' % big,
    }
    limits = ["--timeout", str(timeout), "--memory-limit", f"{TOKEN_MEMORY >> 20}MiB"]
    plan = []
    for name, text in texts.items():
        path = os.path.join(folder, "tokens", name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as out:
            out.write(text)
        model = "kv" if name.startswith("porcupine") else "register"
        plan.append((name, path, model, timeout, TOKEN_MEMORY, [
            ("token check", [ariadne, "check", path, "--model", model, "--json"] + limits, None),
            ("token check /dev/stdin (cat)", [ariadne, "check", "/dev/stdin", "--model", model, "--json"] + limits,
             ["cat", path]),
        ]))
    return plan


def program_resident_bytes(ariadne, folder):
    """The peak resident size of ariadne checking a two-event history: the program's
    own, which the memory limit does not count."""
    path = os.path.join(folder, "two-events.edn")
    with open(path, "w") as out:
        out.write("{:type :invoke, :f :write, :value 1, :process 0}\n{:type :ok, :f :write, :value 1, :process 0}\n")
    return min(timed([ariadne, "check", path, "--model", "register", "--json"])[1] for _ in range(3))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ariadne", default="build/ariadne")
    ap.add_argument("--shared", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared"))
    ap.add_argument("--timeout", type=float, default=1.0)
    ap.add_argument("--memory-limit-mib", type=int, default=512)
    ap.add_argument("--per-model", type=int, default=20)
    ap.add_argument("--slack-s", type=float, default=0.25, help="allowed past --timeout (issue 41: 0.25 s)")
    ap.add_argument("--modes", help="only the modes containing one of these comma-separated substrings")
    ap.add_argument("--big", action="store_true", help="add the 10^6-op kv history with --html and --proof")
    ap.add_argument("--tokens", action="store_true", help="add the histories of one 64 MiB token each")
    ap.add_argument("--json", help="write every run as JSON here")
    args = ap.parse_args()
    ariadne = os.path.abspath(args.ariadne)
    limit = args.memory_limit_mib << 20
    t = str(args.timeout)
    mem = f"{args.memory_limit_mib}MiB"

    folder = tempfile.mkdtemp(prefix="ariadne-limits-")
    runs = []
    failures = []
    try:
        program = program_resident_bytes(ariadne, folder)
        histories = reported_histories(args.shared, folder) + generated_histories(ariadne, folder, args.per_model)
        print(f"{len(histories)} histories, --timeout {t}, --memory-limit {mem}; the program itself "
              f"{program / (1 << 20):.1f} MiB", file=sys.stderr)
        plan = [(name, path, model, args.timeout, limit, history_modes(ariadne, folder, name, path, model, t, mem))
                for name, path, model in histories]
        if args.big:
            plan += big_history_modes(ariadne, folder)
        if args.tokens:
            plan += token_history_modes(ariadne, folder, args.timeout)
        wanted = args.modes.split(",") if args.modes else None
        for n, (name, path, model, timeout, memory, modes) in enumerate(plan):
            for mode, command, writer in modes:
                if wanted and not any(w in mode for w in wanted):
                    continue
                wall, peak, status, out = timed(command, writer)
                allowed = timeout + args.slack_s
                worst_part = wall
                if mode == "cross-check":
                    # Six engine runs and a certification, each under the limit.
                    try:
                        report = json.loads(out)
                        parts = [r["ms"] / 1000 for row in report["rows"] for r in row["runs"]]
                        parts += [row["refutation"]["ms"] / 1000 for row in report["rows"] if "refutation" in row]
                        worst_part = max(parts) if parts else 0
                    except (ValueError, KeyError):
                        worst_part = float("inf")
                run = {"history": name, "mode": mode, "wall_s": round(wall, 3), "worst_part_s": round(worst_part, 3),
                       "over_s": round(worst_part - timeout, 3), "peak_mib": round(peak / (1 << 20), 1),
                       "over_memory": round(max(0, peak - program) / memory, 3), "status": status}
                runs.append(run)
                held_time = worst_part <= allowed
                held_memory = peak - program <= memory * 1.1
                if not (held_time and held_memory) or status not in (0, 1, 2):
                    failures.append(run)
                    print(f"FAIL {name} {mode}: {run}", file=sys.stderr)
            print(f"[{n + 1}/{len(plan)}] {name}", file=sys.stderr)
    finally:
        shutil.rmtree(folder, ignore_errors=True)

    print(f"{'mode':28} {'runs':>5} {'median s':>9} {'max s':>7} {'max part s':>10} {'max MiB':>8}")
    for mode in sorted({r["mode"] for r in runs}):
        rs = [r for r in runs if r["mode"] == mode]
        print(f"{mode:28} {len(rs):5} {statistics.median(r['wall_s'] for r in rs):9.3f} "
              f"{max(r['wall_s'] for r in rs):7.3f} {max(r['worst_part_s'] for r in rs):10.3f} "
              f"{max(r['peak_mib'] for r in rs):8.1f}")
    print(f"\n{len(runs)} runs, {len(failures)} past --timeout + {args.slack_s} s or --memory-limit + 10% "
          f"(or an exit status other than 0, 1, 2)")
    if runs:
        worst = max(runs, key=lambda r: r["over_s"])
        print(f"  worst overshoot of the timeout: {worst['over_s']} s ({worst['history']} {worst['mode']}); "
              f"largest peak: {max(r['over_memory'] for r in runs):.2f} of the memory limit")
    for mode in sorted({r["mode"] for r in failures}):
        print(f"  failing mode: {mode}: {sum(1 for r in failures if r['mode'] == mode)} runs")
    for r in sorted(runs, key=lambda r: -r["worst_part_s"])[:5]:
        print(f"  slowest: {r['history']} {r['mode']}: {r['worst_part_s']} s, {r['peak_mib']} MiB")
    if args.json:
        with open(args.json, "w") as out:
            json.dump(runs, out, indent=1)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
