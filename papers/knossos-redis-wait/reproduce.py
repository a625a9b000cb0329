#!/usr/bin/env python3
"""Knossos' Redis WAIT result: random 15-step trajectories of the WAIT + failover model find
histories no order explains; the same design fenced with terms shows none.

Runs `ariadne explore redis-wait` with Knossos' budget (4 workers x 10,000 trajectories of
15 steps) for several seeds, the exhaustive search to depth 15, and the fenced design with
the same random budget and an exhaustive search.

With --real-system, the claim on the real programs instead: testbed/run.py runs
redis-wait (WAIT 2; the primary isolated or paused) and redis-wait-aof (WAIT 2, AOF with
fsync always; the primary killed and restarted) on Redis 7.0 with Sentinel (needs root)
over --real-seeds, prints a row per scenario, the servers' events around a lost
WAIT-acknowledged write, and one refuted register history in ariadne's words, and exits 0
when most redis-wait register histories are not linearizable.

Usage: papers/knossos-redis-wait/reproduce.py [--ariadne build/ariadne] [--seeds 20]
           [--fenced-depth 20] [--quick]
       papers/knossos-redis-wait/reproduce.py --real-system [--real-seeds 1-10]
           [--real-duration 30] [--real-out DIR] | --from-runs DIR
Exit status: 0 when redis-wait fails for seed 0 and in the exhaustive search (with a
counterexample that `ariadne check` refutes) and the fenced design fails nowhere; 1 otherwise.
"""
import json
import os
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ left in the source tree
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import paperlib  # noqa: E402

BUDGET = ["--depth", "15", "--trajectories", "40000", "--jobs", "4"]


def explore(ariadne, *args):
    """Runs `ariadne explore ... --json`; returns (status, report)."""
    done = subprocess.run([ariadne, "explore", *args, "--json"], capture_output=True, text=True)
    if done.returncode not in (0, 1, 2):
        sys.exit(f"error: ariadne explore {' '.join(args)} exited {done.returncode}: {done.stderr.strip()}")
    return done.returncode, json.loads(done.stdout)


def real_system(args, ariadne):
    """The claim on real Redis 7.0 with Sentinel (testbed/): redis-wait, redis-wait-aof."""
    print("# Knossos on WAIT, on a real Redis: five nodes, Sentinel, every write followed by "
          "WAIT 2\n")
    runs = paperlib.real_system_runs(args, ariadne, ["redis-wait", "redis-wait-aof"])
    paperlib.real_system_table(runs)
    problems = []
    wait = runs["redis-wait"]
    refuted = [r for r in wait if r["workloads"]["register"]["check"].get("verdict")
               == "not-linearizable"]
    if not wait or 2 * len(refuted) < len(wait):
        problems.append(f"WAIT 2 registers refuted in {len(refuted)} of {len(wait)} runs, "
                        "not most")
    folder = args.from_runs or args.real_out
    for scenario in ("redis-wait", "redis-wait-aof"):
        losing = [r for r in runs[scenario] if r["workloads"]["set"].get("lost")]
        if losing:
            seed = losing[0]["seed"]
            print(f"\nHow a WAIT-acknowledged write is lost ({scenario} seed {seed}, "
                  f"{os.path.join(folder, f'{scenario}-s{seed}', 'timeline.txt')}):\n")
            for line in paperlib.timeline_excerpt(os.path.join(folder, f"{scenario}-s{seed}")):
                print("    " + line)
    if refuted:
        example = refuted[0]["workloads"]["register"]["check"]
        print(f"\nA refuted WAIT 2 register history (redis-wait seed {refuted[0]['seed']}), "
              "in ariadne's words:\n")
        lines = example["explanation"].rstrip().splitlines()
        print(paperlib.indent("\n".join(lines[:30] + (["..."] if len(lines) > 30 else []))))
    return paperlib.conclude(problems, "with WAIT 2, real Redis with Sentinel was not "
                                       f"linearizable in {len(refuted)} of {len(wait)} runs")


def main():
    parser = paperlib.argument_parser(__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20, help="random seeds per design (default 20)")
    parser.add_argument("--fenced-depth", type=int, default=20,
                        help="depth of the fenced design's exhaustive search (default 20)")
    parser.add_argument("--quick", action="store_true", help="5 seeds and depth 15: a few seconds")
    paperlib.add_real_system_options(parser)
    args = parser.parse_args()
    ariadne = paperlib.require_binary(args.ariadne)
    if args.real_system or args.from_runs:
        return real_system(args, ariadne)
    seeds = 5 if args.quick else args.seeds
    fenced_depth = 15 if args.quick else args.fenced_depth
    problems = []

    print("# Knossos: Redis WAIT with a failover coordinator, model-checked\n")
    print(f"`ariadne explore DESIGN {' '.join(BUDGET)} --seed S`: Knossos' budget, 4 workers x 10,000 random "
          "trajectories of 15 steps, each history checked online against a register starting at nil.\n")
    rows = []
    found_seeds = {}
    for design in ("redis-wait", "redis-wait-fenced"):
        failing = []
        rates = []
        for seed in range(seeds):
            status, report = explore(ariadne, design, *BUDGET, "--seed", str(seed), "--no-shrink")
            failing.append(report["counterexamples"])
            rates.append(report["trajectories_per_second"])
        found_seeds[design] = sum(1 for f in failing if f > 0)
        rows.append([design, seeds, f"{found_seeds[design]} of {seeds}", sum(failing),
                     f"{sum(failing) / (40000.0 * seeds):.1e}", f"{paperlib.median(rates):,.0f}"])
    paperlib.print_table(["design", "seeds", "seeds with a counterexample", "failing trajectories",
                          "per trajectory", "trajectories/s (median)"], rows)
    if found_seeds["redis-wait-fenced"]:
        problems.append("the fenced design failed in a random run")

    status, seed0 = explore(ariadne, "redis-wait", *BUDGET, "--seed", "0")
    cx = seed0["counterexample"]
    if status != 1 or cx is None:
        problems.append("redis-wait: seed 0 found no counterexample")
    else:
        print(f"\n## The counterexample of seed 0, trajectory {cx['trajectory']}: {cx['original_steps']} steps, "
              f"shrunk to {cx['steps']}" + (" (no shorter trajectory fails)" if cx["proven_shortest"] else ""))
        for number, action in enumerate(cx["actions"], 1):
            print(f"  {number:2}. {action}")
        print("\nSystem state at the end:\n" + cx["final_state"])
        print(f"check(): {cx['verdict']}, minimal core of {len(cx['core'])} ops")
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "counterexample.edn")
            with open(path, "w") as out:
                out.write(cx["history"])
            checked, _ = paperlib.check(ariadne, path, "register(nil)")
            if checked["verdict"] != "not-linearizable":
                problems.append(f"ariadne check calls the counterexample {checked['verdict']}")

    print("\n## Exhaustive search (depth-first, states visited once, values renamed)\n")
    rows = []
    for design, depth in (("redis-wait", 15), ("redis-wait-fenced", fenced_depth)):
        status, report = explore(ariadne, design, "--exhaustive", "--depth", str(depth), "--no-shrink")
        found = report["counterexample"] is not None
        outcome = "counterexample" if found else ("none, every trajectory covered" if report["complete"]
                                                 else "none, stopped: " + report["stopped"])
        rows.append([design, depth, f"{report['states']:,}", f"{report['transitions']:,}",
                     f"{report['seconds']:.2f}", outcome])
        if design == "redis-wait" and not found:
            problems.append("redis-wait: the exhaustive search to depth 15 found nothing")
        if design == "redis-wait-fenced" and (found or not report["complete"]):
            problems.append(f"redis-wait-fenced: exhaustive search to depth {depth}: {outcome}")
    paperlib.print_table(["design", "depth", "states", "transitions", "seconds", "outcome"], rows)

    if problems:
        print("\nDOES NOT REPRODUCE:\n  " + "\n  ".join(problems))
        return 1
    print("\nREPRODUCED: Knossos' model of Redis WAIT is not linearizable; fenced with terms, no "
          "counterexample in the same budget or the exhaustive search.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
