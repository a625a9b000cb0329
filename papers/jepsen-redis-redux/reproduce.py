#!/usr/bin/env python3
"""Jepsen's "Redis redux" (Kingsbury 2013): offset-based failover after a healed partition
loses acknowledged writes. Runs `ariadne explore redis-redux`: (a) the article's scenario,
replayed step by step with --replay: the acknowledged write is lost, and the register
history stays linearizable; (b) the same scenario with one more read, which makes it not
linearizable, certified with a minimal core; (c) a random search for the shortest
counterexample, shrunk and certified; (d) scripted partitions of several lengths,
reporting the share of acknowledged writes lost against the partition's share of the run
(measure-only: clients only write), with and without Redis unstable's offset reset, next
to Jepsen's ~45% at ~45%; (e) the same partitions with every history checked.

With --real-system, the same claim on the real programs instead: testbed/run.py runs
redis-nowait and redis-wait (Redis 7.0, five nodes, Sentinel; needs root) over --real-seeds,
prints one row per scenario and the servers' events around the first loss, and exits 0
when every redis-nowait run lost acknowledged writes and its set history was refuted.

Usage: papers/jepsen-redis-redux/reproduce.py [--ariadne build/ariadne] [--quick]
           [--trajectories N]
       papers/jepsen-redis-redux/reproduce.py --real-system [--real-seeds 1-10]
           [--real-duration 30] [--real-out DIR] | --from-runs DIR
Exit status: 0 when (a) loses the acknowledged write and is linearizable, (b) is not
linearizable with a minimal core that holds c2's acknowledged write, (c) finds a
counterexample that check() refutes and that involves an election, (d) shows no loss for
the tiniest partition, a loss that does not shrink as the partition grows, and at least
10% of acknowledged writes lost for a partition of 45% of the run, and (e) loses
acknowledged writes at 45% too; 1 otherwise.
"""
import json
import math
import os
import re
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ left in the source tree
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import paperlib  # noqa: E402

RUN_STEPS = 100  # steps per trajectory in (d) and (e): --depth and run-steps alike
FRACTIONS = [0.02, 0.1, 0.2, 0.3, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9]
QUICK_FRACTIONS = [0.02, 0.3, 0.45, 0.6, 0.9]
JEPSEN_FRACTION, JEPSEN_LOST = 0.45, 45.0  # "a partition lasting about 45% ... about 45% ... lost"
SUBSTANTIAL = 10.0  # percent of acknowledged writes: what (d) calls a material loss at F = 0.45
NOISE = 1.0  # percentage points two neighbouring fractions may invert by chance

# The article's scenario as step names (what reports print and --replay takes), each with
# what it does. Values are minted 1, 2, 3, ... in the order the writes happen.
PARTITION = [
    ("nemesis partition {n1 n2} {n3 n4 n5}", "c1 is cut off with n1 and n2"),
    ("coord elect n3", "n3-n5 are level at offset 0; the tie goes to n3"),
]
C2_ACKNOWLEDGED = [
    ("c2 write to n3", "c2 writes {v} to n3 and waits for three copies"),
    ("n4 resync-from-primary n3", ""),
    ("n5 resync-from-primary n3", ""),
    ("n4 ack-offset-to-primary n3", ""),
    ("n5 ack-offset-to-primary n3", ""),
    ("c2 write completes", "WAIT 2 is met: {v} is acknowledged, held by n3, n4 and n5"),
]
C1_TIMES_OUT_TWICE = [
    ("c1 write to n1", "c1 writes {v} to n1, which keeps it: n1's offset 1"),
    ("c1 write times out", "only n1 and n2 can hold {v}, WAIT 2 cannot be met: :info"),
    ("c1 write to n1", "c1, under a new process number, writes {v}: n1's offset 2"),
    ("c1 write times out", ":info again; n1 keeps {v}"),
]
HEAL_KEEP_N1 = [
    ("nemesis heal", ""),
    ("coord elect n1", "n1's offset 2 beats n3's 1: n1 stays primary, n3-n5 become its replicas"),
    ("n3 resync-from-primary n1", "n3 copies n1's log: the acknowledged value is gone from it"),
]
LOST_WRITE = (PARTITION + C2_ACKNOWLEDGED + C1_TIMES_OUT_TWICE + HEAL_KEEP_N1
              + [("c2 read from n1", "c2 reads {v}, c1's last value")])
PINNED_WRITE = (PARTITION + C1_TIMES_OUT_TWICE + [("c1 read from n1", "c1 reads {v}, its own timed-out value, back")]
                + C2_ACKNOWLEDGED + HEAL_KEEP_N1 + [("c2 read from n1", "c2 reads {v}, c1's value, again")])

_EVENT = re.compile(r"\{:process (:?\w+), :type :(\w+), :f :([\w-]+), :value ([^}]*)\}")


def explore(ariadne, *args):
    """Runs `ariadne explore redis-redux --json ARGS`; returns (exit status, parsed object).

    Exit status 0 (no counterexample, or a linearizable replay) and 1 (a counterexample,
    or a replay that is not linearizable) are answers; anything else, or output that is
    not JSON, stops the script as a broken run.
    """
    command = [ariadne, "explore", "redis-redux", "--json", *args]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode not in (0, 1):
        sys.exit(f"error: `{' '.join(command)}` exited with {done.returncode}:\n{done.stderr}")
    try:
        return done.returncode, json.loads(done.stdout)
    except json.JSONDecodeError:
        sys.exit(f"error: `{' '.join(command)}` printed no JSON:\n{done.stdout}\n{done.stderr}")


def events_of(history):
    """(process, type, f, value) of each line of an EDN history; op ids are invoke positions."""
    return [_EVENT.match(line).groups() for line in history.splitlines() if line.strip()]


def describe(events, op_id):
    """`read 2 (op 6, c1 as process 7)` for the operation invoked at event op_id."""
    process, _, f, value = events[op_id]
    if f == "read":
        value = next(v for p, kind, _, v in events[op_id + 1:] if p == process and kind == "ok")
    client = (int(process) - 1) % 3 + 1  # process numbers are c + 3 x (timeouts so far)
    return f"{f} {value} (op {op_id}, c{client} as process {process})"


def replay(ariadne, label, scenario, problems):
    """Replays a scenario with --replay, prints it and returns (exit status, trajectory)."""
    steps = "; ".join(name for name, _ in scenario)
    status, result = explore(ariadne, "--replay", steps)
    trajectory = result["trajectory"]
    print(f"    ariadne explore redis-redux --replay '{steps}'\n")
    events = events_of(trajectory["history"])
    written = iter(v for _, kind, f, v in events if (kind, f) == ("invoke", "write"))
    read = iter(v for _, kind, f, v in events if (kind, f) == ("ok", "read"))
    pending = {}  # client -> the value of its write in flight
    for number, (name, note) in enumerate(scenario, 1):
        client, _, action = name.partition(" ")
        if action.startswith("write to"):
            pending[client] = next(written)
        value = next(read) if action.startswith("read") else pending.get(client)
        print(f"  {number:2}. {name:38} {note.format(v=value)}".rstrip())
    print("\nIts history, events numbered from 0 (op ids are the numbers of their invocations):\n")
    for number, line in enumerate(trajectory["history"].splitlines()):
        print(f"    {number:2}  {line}")
    tally = trajectory["final_tally"]
    print(f"\nThe design's counters at the end: {tally['acknowledged writes']} acknowledged write(s), "
          f"{tally['acknowledged writes lost']} of them missing from the log of the coordinator's primary; "
          f"{tally['heal elections that demoted the primary']} of {tally['heal elections']} heal election(s) "
          "demoted the partition's primary.")
    print(f"ariadne check: {trajectory['verdict']} ({trajectory['engine']}), exit status {status}.")
    if (status == 0) != (trajectory["verdict"] == "linearizable"):
        problems.append(f"{label} exited {status} but says {trajectory['verdict']}")
    return status, trajectory


def part_a(ariadne, problems):
    print("## (a) The article's scenario, replayed: an acknowledged write is lost\n")
    status, trajectory = replay(ariadne, "(a)", LOST_WRITE, problems)
    tally = trajectory["final_tally"]
    print("""
c2 was told its write was on three nodes (WAIT 2), yet after the heal it is in no log that
survives: n1 never had it, n3 dropped it at its full resync, and n4 and n5 will drop it at
their next one. The register history is still linearizable. c1's two writes timed out
(:info), and a timed-out write may take effect at any time after it began, or never. So
the order c2's write, c1's first, c1's second, c2's read explains every result: to a
register, the lost write looks like one overwritten by a write that was still in flight.
Only the design's counter shows the loss, which is why (d) counts lost writes instead of
waiting for a read to expose them.
""")
    if status != 0 or trajectory["verdict"] != "linearizable":
        problems.append(f"(a) the replayed scenario is {trajectory['verdict']}, not linearizable")
    if (tally["acknowledged writes"], tally["acknowledged writes lost"]) != (1, 1):
        problems.append(f"(a) the replayed scenario's counters are {tally}, not 1 acknowledged and 1 lost")
    if tally["heal elections that demoted the primary"] != 1:
        problems.append("(a) the heal's election did not demote n3")


def part_b(ariadne, problems):
    print("## (b) The same loss, made visible: c1 reads its write back before c2 writes\n")
    status, trajectory = replay(ariadne, "(b)", PINNED_WRITE, problems)
    events = events_of(trajectory["history"])
    core = trajectory["core"]
    minimal = "minimal" if trajectory["core_minimal"] else "not shown minimal"
    print(f"The online checker stops at step {trajectory.get('failing_step')} of {len(PINNED_WRITE)}; "
          f"ariadne check's core ({len(core)} ops, {minimal}):\n")
    for op_id in core:
        print(f"  - {describe(events, op_id)}")
    print("""
c1's read fixes its second write before c2's write began, and c2's write completed before
c2's final read began. A register that reads c1's value, then has c2's written, cannot
read c1's value again unless c1's write takes effect twice. The history is the loss of (a)
with one more read; `corpus/explored/redis-redux-lost-write.edn` holds it.
""")
    acknowledged = next((i for i, (p, kind, f, _) in enumerate(events) if (p, kind, f) == ("2", "invoke", "write")),
                        None)
    if status != 1 or trajectory["verdict"] != "not-linearizable":
        problems.append(f"(b) the replayed variant is {trajectory['verdict']}, not not-linearizable")
    if not trajectory["core_minimal"] or len(core) != 3 or acknowledged not in core:
        problems.append(f"(b) the core {core} is not a minimal core of 3 ops holding c2's write (op {acknowledged})")
    if trajectory.get("failing_step") != len(PINNED_WRITE):
        problems.append(f"(b) the online checker failed at step {trajectory.get('failing_step')}, not at the last")
    if trajectory["final_tally"]["acknowledged writes lost"] != 1:
        problems.append("(b) the variant did not lose the acknowledged write")


def part_c(ariadne, trajectories, problems):
    print("## (c) The shortest counterexample: `ariadne explore redis-redux`\n")
    _, result = explore(ariadne, "--trajectories", str(trajectories))
    example = result["counterexample"]
    print(f"{result['trajectories']:,} random trajectories of up to {result['depth']} steps, free nemesis, "
          f"in {result['seconds']:.2f} s "
          f"({result['trajectories_per_second']:,.0f} a second, {result['jobs']} threads); "
          f"{result['counterexamples']:,} failed.")
    if example is None:
        problems.append("(c) no counterexample found")
        return
    shortest = "no shorter one exists" if example.get("proven_shortest") else "shorter ones not ruled out"
    print(f"The first failing trajectory ({example['trajectory']:,}) shrunk from {example['original_steps']} "
          f"to {example['steps']} steps ({shortest}):\n")
    for number, name in enumerate(example["actions"], 1):
        print(f"  {number:2}. {name}")
    print("\nIts history (internal steps are :info events of keyword processes, which checkers ignore):\n")
    print(paperlib.indent(example["history"]), end="")
    print(f"\nariadne check: {example['verdict']} ({example['engine']}); minimal core of "
          f"{len(example['core'])} ops:\n")
    print(paperlib.indent(example["explanation"].split("Why no order works")[0]), end="")
    print("\nTwo primaries serve reads at once. The lost write of (a) and (b) takes more steps, so the "
          "shrinker never reaches it.\n")
    if example["verdict"] != "not-linearizable":
        problems.append(f"(c) check() says {example['verdict']}")
    if not any(name.startswith("coord elect") for name in example["actions"]):
        problems.append("(c) the counterexample has no election")


def scripted_steps(fraction):
    """The partition's first and heal steps, as the design computes them (C's lround)."""
    start = math.floor((1 - fraction) / 2 * RUN_STEPS + 0.5)
    return start, start + max(2, math.floor(fraction * RUN_STEPS + 0.5))


def percent(part, whole):
    return 100.0 * part / whole if whole else 0.0


def scripted_run(ariadne, fraction, trajectories, *extra):
    """One scripted run; returns the counters and the run's speed."""
    _, result = explore(ariadne, "--depth", str(RUN_STEPS), "--trajectories", str(trajectories), "--no-shrink",
                        "--param", f"partition-fraction={fraction}", "--param", f"run-steps={RUN_STEPS}", *extra)
    tally = result["tally"]
    return {"acknowledged": tally["acknowledged writes"], "lost": tally["acknowledged writes lost"],
            "heals": tally["heal elections"], "demoted": tally["heal elections that demoted the primary"],
            "trajectories": result["trajectories"], "rate": result["trajectories_per_second"],
            "counterexamples": result["counterexamples"], "dead_ends": result["dead_ends"]}


def part_d(ariadne, fractions, trajectories, problems):
    print(f"## (d) Acknowledged writes lost, by the partition's share of a {RUN_STEPS}-step run (measure-only)\n")
    print(f"`ariadne explore redis-redux --depth {RUN_STEPS} --trajectories {trajectories} --no-shrink "
          f"--param partition-fraction=F --param run-steps={RUN_STEPS} --param measure-only=true`, and the "
          "same with `--param reset-offset-on-promotion=true`. In measure-only mode clients only write, "
          "their operations are notes the online checker skips (writes alone are always linearizable), and "
          "writes may time out without limit. The nemesis partitions {n1 n2} | {n3 n4 n5} at a fixed step "
          "and heals it F x 100 steps later; each is followed by the coordinator's election. Counters are "
          "summed over all runs; \"heals that demoted n3\" counts the elections after the heal that replaced "
          "the primary the partition's election had chosen.\n")
    rows, lost = [], {}
    for fraction in fractions:
        start, heal = scripted_steps(fraction)
        plain = scripted_run(ariadne, fraction, trajectories, "--param", "measure-only=true")
        reset = scripted_run(ariadne, fraction, trajectories, "--param", "measure-only=true",
                             "--param", "reset-offset-on-promotion=true")
        lost[fraction] = percent(plain["lost"], plain["acknowledged"])
        sys.stdout.flush()
        print(f"  F={fraction}: {lost[fraction]:.1f}% lost, {percent(reset['lost'], reset['acknowledged']):.1f}% "
              f"with the reset ({plain['rate']:,.0f} runs/s)", file=sys.stderr)
        rows.append([f"{fraction:g}", f"{start}, {heal}", f"{percent(heal - start, RUN_STEPS):.0f}%",
                     f"{plain['acknowledged'] / plain['trajectories']:.1f}",
                     f"{plain['lost'] / plain['trajectories']:.1f}", f"**{lost[fraction]:.1f}%**",
                     f"{percent(plain['demoted'], plain['heals']):.0f}%",
                     f"{percent(reset['lost'], reset['acknowledged']):.1f}%",
                     f"{percent(reset['demoted'], reset['heals']):.0f}%"])
        for run in (plain, reset):
            if run["counterexamples"]:
                problems.append(f"(d) F={fraction}: a measure-only run reported a counterexample")
    paperlib.print_table(["F", "partition, heal at step", "share", "acked writes / run", "lost / run",
                          "lost", "heals that demoted n3", "lost, offset reset", "demoted, offset reset"], rows)
    near = min(fractions, key=lambda f: abs(f - JEPSEN_FRACTION))
    print(f"\nJepsen [Kingsbury13b]: about {JEPSEN_LOST:.0f}% of acknowledged writes lost for a partition of "
          f"about {JEPSEN_FRACTION:.0%} of the test. This model: {lost[near]:.1f}% at F={near:g}.\n")

    smallest = fractions[0]
    if lost[smallest] != 0:
        problems.append(f"(d) the tiniest partition (F={smallest:g}) lost {lost[smallest]:.2f}%, not 0")
    for shorter, longer in zip(fractions, fractions[1:]):
        if lost[longer] < lost[shorter] - NOISE:
            problems.append(f"(d) F={longer:g} lost less ({lost[longer]:.1f}%) than F={shorter:g} "
                            f"({lost[shorter]:.1f}%)")
    if lost[near] < SUBSTANTIAL:
        problems.append(f"(d) F={near:g} lost only {lost[near]:.1f}% (under {SUBSTANTIAL:.0f}%)")
    return lost, near


def part_e(ariadne, fractions, trajectories, measured, problems):
    print("## (e) The same partitions with every history checked\n")
    print(f"`ariadne explore redis-redux --depth {RUN_STEPS} --trajectories {trajectories} --no-shrink "
          f"--param partition-fraction=F --param run-steps={RUN_STEPS}`: clients read as well as write, "
          "every history is checked online against a register, at most 12 writes time out per run "
          "(max-timeouts, the default), and a run ends at its first result no order explains. A run that ends "
          "before the heal has lost nothing: until then the coordinator's primary holds every acknowledged "
          "write.\n")
    rows, lost = [], {}
    for fraction in fractions:
        run = scripted_run(ariadne, fraction, trajectories)
        lost[fraction] = percent(run["lost"], run["acknowledged"])
        # Every run that did not stop at a counterexample reaches the heal's election (there
        # are no dead ends, and the election comes before step 100), so the runs that lack
        # it stopped before it.
        before_heal = run["trajectories"] - run["heals"]
        if run["dead_ends"]:
            problems.append(f"(e) F={fraction}: {run['dead_ends']} dead ends")
        rows.append([f"{fraction:g}", f"{percent(run['counterexamples'], run['trajectories']):.0f}%",
                     f"{before_heal:,} of {run['counterexamples']:,}",
                     f"{run['acknowledged'] / run['trajectories']:.1f}",
                     f"{run['lost'] / run['heals'] if run['heals'] else 0:.2f}",
                     f"**{lost[fraction]:.1f}%**", f"{measured[fraction]:.1f}%", f"{run['rate']:,.0f}"])
    paperlib.print_table(["F", "runs stopped at a counterexample", "of them before the heal",
                          "acked writes / run", "lost / run that reached the heal", "lost, checked",
                          "lost, measure-only (d)", "runs/s"], rows)
    near = min(fractions, key=lambda f: abs(f - JEPSEN_FRACTION))
    print(f"\nChecked runs lose less ({lost[near]:.1f}% at F={near:g}) mostly because the runs that stop at a "
          "counterexample, nearly all before the heal, lose nothing but still count the writes they had "
          "acknowledged.\n")
    if lost[near] <= 0:
        problems.append(f"(e) checked runs at F={near:g} lost nothing")


def real_system(args, ariadne):
    """The claim on real Redis 7.0 with Sentinel (testbed/): redis-nowait and redis-wait."""
    print("# Jepsen, Redis redux, on a real Redis: five nodes, Sentinel, the primary isolated\n")
    runs = paperlib.real_system_runs(args, ariadne, ["redis-nowait", "redis-wait"])
    paperlib.real_system_table(runs)
    problems = []
    nowait = runs["redis-nowait"]
    if not nowait:
        problems.append("no redis-nowait run")
    for result in nowait:
        adds = result["workloads"]["set"]
        if not adds.get("lost") or adds["check"].get("verdict") != "not-linearizable":
            problems.append(f"redis-nowait seed {result['seed']} lost {adds.get('lost')} "
                            f"acknowledged adds, set {adds['check'].get('verdict')}")
    losing = [r for r in nowait if r["workloads"]["set"].get("lost")]
    if losing:
        folder = args.from_runs or args.real_out
        example = losing[0]
        print(f"\nHow a loss happens (redis-nowait seed {example['seed']}, "
              f"{os.path.join(folder, 'redis-nowait-s%d' % example['seed'], 'timeline.txt')}):\n")
        for line in paperlib.timeline_excerpt(
                os.path.join(folder, f"redis-nowait-s{example['seed']}")):
            print("    " + line)
    return paperlib.conclude(problems, "real Redis with Sentinel lost acknowledged writes in "
                                       f"every one of {len(nowait)} runs with the primary isolated")


def main():
    parser = paperlib.argument_parser(__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help=f"5 fractions and 1,500 runs each instead of {len(FRACTIONS)} and 20,000")
    parser.add_argument("--trajectories", type=int,
                        help="measure-only runs per fraction (default 20,000; 1,500 with --quick); "
                             "checked runs are a quarter of these, at least 500")
    paperlib.add_real_system_options(parser)
    args = parser.parse_args()
    ariadne = paperlib.require_binary(args.ariadne)
    if args.real_system or args.from_runs:
        return real_system(args, ariadne)
    fractions = QUICK_FRACTIONS if args.quick else FRACTIONS
    trajectories = args.trajectories or (1500 if args.quick else 20000)
    started = time.perf_counter()

    print("# Jepsen, Redis redux: offset-based failover after a healed partition\n")
    problems = []
    part_a(ariadne, problems)
    part_b(ariadne, problems)
    part_c(ariadne, 10000 if args.quick else 40000, problems)
    measured, near = part_d(ariadne, fractions, trajectories, problems)
    part_e(ariadne, fractions, max(500, trajectories // 4), measured, problems)
    print(f"({time.perf_counter() - started:.0f} s in all)\n")
    if problems:
        print("NOT REPRODUCED: " + "; ".join(problems))
        return 1
    print(f"REPRODUCED: a healed partition loses acknowledged writes, none for the tiniest and more the longer "
          f"it lasts; {measured[near]:.1f}% at F={JEPSEN_FRACTION:g} against Jepsen's ~{JEPSEN_LOST:.0f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
