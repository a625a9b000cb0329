#!/usr/bin/env python3
"""Gibbons and Korach (SIAM J. Comput. 1997): checking a register history is NP-complete
in general but polynomial when every written value is unique. Measures how ariadne's
time grows with history size for unique values and for small value domains.

Usage: papers/gibbons-korach-1997/reproduce.py [--ariadne build/ariadne]
           [--sizes 100,200,500,1000,2000,5000] [--values unique,2] [--seeds 1,2,3]
           [--engines wgl,sat,auto] [--timeout 10] [--processes 8] [--crash-rate 0.1]
           [--out papers/gibbons-korach-1997] [--plot-only]

Histories come from `ariadne generate atomic --model 'register(0)'` (a simulated atomic
register, linearizable by construction, or with --violation a stale read no order
explains), so every verdict is known. Each is checked by each engine with --timeout;
an engine that gives up on most seeds at one size is not run on larger ones (recorded
as skipped, and left out of the medians and the plot). Writes runs.tsv (every run)
and medians.tsv (one row per curve point) into --out, then draws scaling.svg with
gnuplot (plot.gp) when gnuplot is installed.

Exit status: 0 when no verdict contradicts the construction and the race (auto)
decides every unique-value history within the time limit; 1 otherwise.
"""
import csv
import math
import os
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ left in the source tree
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import paperlib  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
MODEL = "register(0)"
RUN_FIELDS = ["ops", "values", "violation", "seed", "engine", "expected", "verdict", "ms", "wall_ms", "reason"]
MEDIAN_FIELDS = ["ops", "values", "violation", "engine", "seeds", "decided", "median_ms", "gave_up"]


def generate(ariadne, path, ops, values, violation, seed, args):
    command = [ariadne, "generate", "atomic", "--model", MODEL, "--ops", str(ops), "--processes",
               str(args.processes), "--values", values, "--crash-rate", str(args.crash_rate), "--seed", str(seed),
               "-o", path] + (["--violation"] if violation else [])
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"error: `{' '.join(command)}` exited {done.returncode} (does this ariadne have "
                 f"`generate atomic`?):\n{done.stderr}")


def sweep(ariadne, args):
    """Every run, as dicts with RUN_FIELDS."""
    runs = []
    # Curves (engine, values, violation) that gave up on most seeds at some size: larger
    # sizes are not run for them (recorded as skipped), which keeps the sweep to minutes.
    beaten = set()
    with tempfile.TemporaryDirectory() as folder:
        for violation in (False, True):
            expected = "not-linearizable" if violation else "linearizable"
            for values in args.values:
                for ops in args.sizes:
                    paths = {}
                    if all((engine, values, violation) in beaten for engine in args.engines):
                        break  # every engine gave up at a smaller size
                    for seed in args.seeds:
                        paths[seed] = os.path.join(folder, f"register-{values}-{ops}-{seed}-{int(violation)}.edn")
                        generate(ariadne, paths[seed], ops, values, violation, seed, args)
                    for engine in args.engines:
                        curve = (engine, values, violation)
                        decided = 0
                        for seed in args.seeds:
                            row = {"ops": ops, "values": values, "violation": int(violation), "seed": seed,
                                   "engine": engine, "expected": expected}
                            if curve in beaten:
                                row.update(verdict="skipped", ms="", wall_ms="",
                                           reason="not run: gave up on most seeds at a smaller size")
                            else:
                                result, wall = paperlib.check(ariadne, paths[seed], MODEL, "--engine", engine,
                                                              "--timeout", str(args.timeout), "--no-core",
                                                              timeout=args.timeout * 3 + 30)
                                ms = result.get("verdict_ms", result.get("elapsed_ms", args.timeout * 1000))
                                row.update(verdict=result["verdict"], ms=round(ms, 3), wall_ms=round(wall, 1),
                                           reason=result.get("reason", ""))
                                decided += result["verdict"] != "unknown"
                            runs.append(row)
                        if curve not in beaten and 2 * decided < len(args.seeds):
                            beaten.add(curve)
                        point = medians_of(runs, ops, values, violation, engine, args.timeout * 1000)
                        print(f"  {'violation' if violation else 'linearizable'} values={values} ops={ops} "
                              f"{engine}: {summary_cell(point, args)}", file=sys.stderr)
    return runs


def medians_of(runs, ops, values, violation, engine, limit_ms):
    """One curve point. A run that gave up counts as slower than any decided one, so
    the median is a real time when most seeds were decided, and the time limit (with
    gave_up = 1) when most gave up."""
    rows = [r for r in runs if (r["ops"], r["values"], r["violation"], r["engine"]) ==
            (ops, values, int(violation), engine)]
    if all(r["verdict"] == "skipped" for r in rows):
        return None
    decided = sorted(float(r["ms"]) for r in rows if r["verdict"] in ("linearizable", "not-linearizable"))
    times = decided + [float("inf")] * (len(rows) - len(decided))
    middle = times[len(times) // 2] if times else float("inf")
    return {"ops": ops, "values": values, "violation": int(violation), "engine": engine, "seeds": len(rows),
            "decided": len(decided), "median_ms": round(min(middle, limit_ms), 3),
            "gave_up": int(middle == float("inf"))}


def duration(ms):
    if ms < 1:
        return f"{ms:.2f} ms"
    if ms < 1000:
        return f"{ms:.3g} ms"
    return f"{ms / 1000:.3g} s"


def summary_cell(point, args):
    if point is None:
        return "not run"
    if int(point["gave_up"]):
        return f"gave up ({point['decided']}/{point['seeds']} decided)" if int(point["decided"]) else \
            f"> {args.timeout:g} s"
    text = duration(float(point["median_ms"]))
    if int(point["decided"]) < int(point["seeds"]):
        text += f" ({point['decided']}/{point['seeds']} decided)"
    return text


def write_tsv(path, fields, rows):
    with open(path, "w", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=fields, delimiter="\t", lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def read_tsv(path):
    with open(path, newline="") as text:
        return list(csv.DictReader(text, delimiter="\t"))


def plot(out_dir, args):
    """Draws scaling.svg from medians.tsv with plot.gp; says so when gnuplot is missing."""
    script = os.path.join(HERE, "plot.gp")
    svg = os.path.join(out_dir, "scaling.svg")
    settings = (f"datafile='{os.path.join(out_dir, 'medians.tsv')}'; outfile='{svg}'; "
                f"engines='{' '.join(args.engines)}'; domains='{' '.join(args.values)}'; "
                f"limit_ms={args.timeout * 1000:g}")
    try:
        subprocess.run(["gnuplot", "-e", settings, script], check=True)
    except FileNotFoundError:
        print("gnuplot is not installed (Debian: gnuplot-nox): no plot drawn")
        return
    print(f"plot: {paperlib.shown_path(svg) if svg.startswith(paperlib.REPO_ROOT) else svg}")


def growth_exponent(points):
    """Least-squares slope of log(time) against log(ops), over the points at or above
    1 ms (below that, process noise dominates); None with fewer than three."""
    points = [p for p in points if float(p["median_ms"]) >= 1]
    xs = [math.log(float(p["ops"])) for p in points]
    ys = [math.log(float(p["median_ms"])) for p in points]
    if len(xs) < 3:
        return None
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def report(medians, args):
    """Prints one table per verdict: rows are sizes, columns engine x values."""
    curves = [(e, v) for e in args.engines for v in args.values]
    for violation, title in ((0, "linearizable histories"), (1, "histories with a stale read (--violation)")):
        print(f"\n## {title}: median time to the verdict over {len(args.seeds)} seeds "
              f"(limit {args.timeout:g} s)\n")
        rows = []
        for ops in args.sizes:
            row = [ops]
            for engine, values in curves:
                point = next((p for p in medians if (int(p["ops"]), p["values"], int(p["violation"]), p["engine"])
                              == (ops, values, violation, engine)), None)
                row.append(summary_cell(point, args))
            rows.append(row)
        exponents = ["growth n^k"]
        for engine, values in curves:
            points = [p for p in medians if not int(p["gave_up"])
                      and (p["values"], int(p["violation"]), p["engine"]) == (values, violation, engine)]
            k = growth_exponent(points)
            exponents.append(f"k = {k:.2f}" if k is not None else "-")
        rows.append(exponents)
        paperlib.print_table(["ops"] + [f"{e}, {'unique' if v == 'unique' else 'K=' + v}" for e, v in curves], rows)


def main():
    parser = paperlib.argument_parser(__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,200,500,1000,2000,5000")
    parser.add_argument("--values", default="unique,2", help="value domains: unique, or K values")
    parser.add_argument("--seeds", default="1,2,3")
    parser.add_argument("--engines", default="wgl,sat,auto")
    parser.add_argument("--timeout", type=float, default=10, help="seconds per check (default 10)")
    parser.add_argument("--processes", type=int, default=8)
    parser.add_argument("--crash-rate", type=float, default=0.1)
    parser.add_argument("--out", default=HERE, help="where runs.tsv, medians.tsv and scaling.svg go "
                        "(default: this folder)")
    parser.add_argument("--plot-only", action="store_true", help="redraw from the --out folder's TSV files")
    args = parser.parse_args()
    args.sizes = [int(s) for s in args.sizes.split(",")]
    args.values = args.values.split(",")
    args.seeds = [int(s) for s in args.seeds.split(",")]
    args.engines = args.engines.split(",")
    os.makedirs(args.out, exist_ok=True)

    print("# Gibbons and Korach 1997: register histories, unique values against small domains\n")
    print(f"`ariadne generate atomic --model '{MODEL}' --ops N --processes {args.processes} --values V "
          f"--crash-rate {args.crash_rate:g} [--violation] --seed S`, then `ariadne check --engine E --timeout "
          f"{args.timeout:g} --no-core`; time is ariadne's own time to the verdict.")
    if args.plot_only:
        medians = read_tsv(os.path.join(args.out, "medians.tsv"))
        runs = read_tsv(os.path.join(args.out, "runs.tsv"))
    else:
        ariadne = paperlib.require_binary(args.ariadne)
        runs = sweep(ariadne, args)
        medians = [medians_of(runs, ops, values, violation, engine, args.timeout * 1000)
                   for violation in (False, True) for values in args.values for ops in args.sizes
                   for engine in args.engines]
        medians = [m for m in medians if m is not None]
        write_tsv(os.path.join(args.out, "runs.tsv"), RUN_FIELDS, runs)
        write_tsv(os.path.join(args.out, "medians.tsv"), MEDIAN_FIELDS, medians)
        medians = read_tsv(os.path.join(args.out, "medians.tsv"))
    report(medians, args)
    print()
    plot(args.out, args)

    wrong = [r for r in runs if r["verdict"] in ("linearizable", "not-linearizable") and r["verdict"] != r["expected"]]
    unique_undecided = [r for r in runs if r["values"] == "unique" and r["engine"] == "auto"
                        and r["verdict"] not in ("linearizable", "not-linearizable")]
    print()
    if wrong or unique_undecided:
        for r in wrong:
            print(f"WRONG VERDICT: {r}")
        for r in unique_undecided:
            print(f"UNDECIDED (unique values, auto): ops {r['ops']} seed {r['seed']} violation {r['violation']}")
        print("NOT REPRODUCED")
        return 1
    decided = sum(r["verdict"] in ("linearizable", "not-linearizable") for r in runs)
    print(f"REPRODUCED: every unique-value history decided by the race within {args.timeout:g} s; "
          f"{decided} of {len(runs)} runs decided, none contradicting the construction")
    return 0


if __name__ == "__main__":
    sys.exit(main())
