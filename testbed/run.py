#!/usr/bin/env python3
"""Runs a real cluster under faults, records Jepsen histories, and checks them.

    testbed/run.py redis-nowait --seed 1 --duration 60
    testbed/run.py etcd-linearizable --seeds 1-10 --duration 30 --out runs/
    testbed/run.py --list

Each run builds the network (testbed/net.py), starts the cluster, runs the register
and set workloads (testbed/workloads.py) on clients beside every node while the
nemesis injects the scenario's faults (testbed/nemesis.py), heals, waits for the
cluster to settle, makes the final reads, stops every process by pid, removes the
network, checks that nothing of it is left, and runs `ariadne check` on the two
histories. It writes OUT/SCENARIO-sSEED/ (the histories, result.json, the servers'
logs) and prints one table row per workload; with several runs, OUT/table.md and
OUT/results.tsv gather them.

Missing Debian packages are installed first (testbed/install-deps.sh; --no-install
leaves them out).

Exit status: 0 every run ran and was checked (whatever the verdicts), 1 a run
failed (an error, something left behind, a check that did not answer), 77 this
machine cannot host the test bed (not root, no namespaces, a server missing: the
message says which; testbed/install-deps.sh installs the packages), 64 bad usage.
"""

import argparse
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import threading
import time

sys.dont_write_bytecode = True  # no __pycache__ left in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import net  # noqa: E402
from history import History  # noqa: E402
from nemesis import FAULTS, Nemesis  # noqa: E402
from redis_cluster import RedisCluster  # noqa: E402
from scenarios import SCENARIOS  # noqa: E402
from timeline import write_timeline  # noqa: E402
from workloads import RegisterWorkload, SetWorkload  # noqa: E402

SKIP = 77


class Interrupted(Exception):
    """SIGINT or SIGTERM; `leftovers` says what the run could not remove."""

    leftovers = []


# The first signal raises Interrupted in the main thread, except during a teardown,
# which must finish: then it is deferred until the teardown is done.
SIGNALS = {"tearing_down": False, "deferred": False, "first": None}


def on_signal(signum, frame):
    SIGNALS["first"] = SIGNALS["first"] or signal.Signals(signum).name
    if SIGNALS["tearing_down"]:
        SIGNALS["deferred"] = True
        return
    raise Interrupted(SIGNALS["first"])


def parse_seeds(text):
    seeds = []
    for part in text.split(","):
        if "-" in part:
            low, high = part.split("-", 1)
            seeds += range(int(low), int(high) + 1)
        else:
            seeds.append(int(part))
    return seeds


def find_ariadne(given):
    if given:
        return given
    built = os.path.join(HERE, "..", "build", "ariadne")
    if os.access(built, os.X_OK):
        return os.path.normpath(built)
    return shutil.which("ariadne") or "ariadne"


def start_workers(cluster, workload, concurrency, errors):
    """One thread per client, spread over the nodes, each inside its node's namespace."""
    threads = []
    for index in range(concurrency):
        node = cluster.nodes[index % len(cluster.nodes)]

        def body(index=index, node=node):
            try:
                net.enter(cluster.network.namespace(node))
                client = cluster.client(node)
                try:
                    workload.worker(index, client)
                finally:
                    client.close()
            except Exception as error:  # reported after the run
                errors.append(f"{workload.name} client {index}: {error!r}")

        thread = threading.Thread(target=body, name=f"{workload.name}-{index}", daemon=True)
        thread.start()
        threads.append(thread)
    return threads


def final_reads(cluster, workloads, deadline, errors):
    """The final reads, by a client beside the first node, once everything is healed."""
    def body():
        try:
            net.enter(cluster.network.namespace(cluster.nodes[0]))
            client = cluster.client(cluster.nodes[0], final=True)
            try:
                for workload in workloads:
                    workload.final_reads(client, deadline)
            finally:
                client.close()
        except Exception as error:
            errors.append(f"final reads: {error!r}")
    thread = threading.Thread(target=body, name="final-reads", daemon=True)
    thread.start()
    thread.join()


def record_run(args, scenario_name, seed, run_dir, facts):
    """Runs the cluster and the workloads and returns the workloads; fills `facts` (the run
    id, errors, whether the cluster settled, the faults, what was left behind) as it goes,
    so that they survive an exception."""
    scenario = SCENARIOS[scenario_name]
    net.check_host()
    # Names and addresses are drawn afresh, not from the seed, so that two runs at once
    # (two seeds, or a test beside a grid) never share a namespace or a bridge; the owner
    # file makes the id this run's alone.
    while True:
        run_id = "tb" + secrets.token_hex(3)
        if not net.Network(run_id, [], "").leftovers() and net.claim(run_id):
            break
    facts["run_id"] = run_id
    subnet = f"10.{secrets.randbelow(64) + 64}.{secrets.randbelow(254) + 1}"
    network = net.Network(run_id, scenario["cluster"].nodes, subnet)
    settings = dict(scenario["settings"])
    if args.down_after is not None:
        settings["down_after_ms"] = args.down_after
    cluster = scenario["cluster"](network, run_dir, **settings)
    start, start_wall = time.monotonic_ns(), time.time()
    facts["start_wall"] = start_wall  # the histories' time 0, for timeline.txt
    # The register history is written as it happens, so `ariadne check --follow` can
    # check the run while it goes on (testbed/README.md).
    register = RegisterWorkload(History(start, start_wall, os.path.join(run_dir, "register.edn")), args.clients,
                                seed, args.stagger,
                                ops_per_key=args.ops_per_key, values=args.values)
    adds = SetWorkload(History(start, start_wall), max(1, args.clients // 2), seed,
                       args.stagger)
    workloads = [register, adds]
    faults = args.faults.split(",") if args.faults else scenario["faults"]
    nemesis = None
    threads = []
    try:
        network.up()
        cluster.start()
        nemesis = Nemesis(network, cluster, [w.history for w in workloads], faults, seed)
        for workload in workloads:
            threads += start_workers(cluster, workload, workload.concurrency, facts["errors"])
        nemesis.start()
        time.sleep(args.duration)
        for workload in workloads:
            workload.stop.set()
        for thread in threads:
            thread.join()
        nemesis.finish()
        if nemesis.error:
            facts["errors"].append(f"nemesis: {nemesis.error!r}")
        settle_deadline = time.monotonic() + args.settle
        while time.monotonic() < settle_deadline and not cluster.settled():
            time.sleep(0.25)
        facts["settled"] = cluster.settled()
        time.sleep(1.0)  # replication catching up after the roles settled
        final_reads(cluster, workloads, time.monotonic() + 20, facts["errors"])
    finally:
        # A signal now is remembered, not raised: a teardown cut halfway would leave
        # servers and namespaces behind. The thread may have been caught inside a
        # node's namespace (net.inside), and ip and nft must run from home.
        SIGNALS["tearing_down"] = True
        try:
            net.go_home()
            for workload in workloads:
                workload.stop.set()
            if nemesis is not None and nemesis.is_alive():
                nemesis.stopping.set()
                nemesis.join()
            cluster.stop()
            network.down()
            left = network.leftovers()
            left += [f"pid {pid}" for s in cluster.services() for pid in s.alive_pids()]
            facts["leftovers"] = left
            if not left:
                net.release(run_id)  # else the next run's sweep removes what is left
            facts["faults"] = nemesis.log if nemesis else []
        finally:
            SIGNALS["tearing_down"] = False
            if SIGNALS["deferred"]:
                raise Interrupted(SIGNALS["first"])
    return workloads


def check(args, path, model, independent, json_path):
    command = [args.ariadne, "check", path, "--model", model, "--json",
               "--timeout", str(args.check_timeout)]
    if independent:
        command.append("--independent")
    began = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True)
    seconds = time.monotonic() - began
    with open(json_path, "w", encoding="utf-8") as out:
        out.write(done.stdout)
    try:
        report = json.loads(done.stdout)
    except ValueError:
        report = {"verdict": "error", "reason": (done.stderr or done.stdout).strip()[:500]}
    report.pop("linearization", None)  # kept in the check's own JSON file
    report["check_seconds"] = round(seconds, 2)
    report["exit_status"] = done.returncode
    report["command"] = " ".join(command[1:])
    return report


def summarize(workload):
    pairs = workload.history.ops()
    return {"ops": len(pairs),
            "ok": sum(1 for _, c in pairs if c and c["type"] == "ok"),
            "crashed": sum(1 for _, c in pairs if c is None or c["type"] == "info"),
            "failed": sum(1 for _, c in pairs if c and c["type"] == "fail")}


def one_run(args, scenario_name, seed):
    """One run, recorded and checked; its result.json is written whatever happens, an
    error included (then with no workloads), except when the machine cannot host the
    test bed or a signal stops the run (Interrupted, carrying what was left behind)."""
    run_dir = os.path.abspath(os.path.join(args.out, f"{scenario_name}-s{seed}"))
    if os.path.exists(run_dir):
        shutil.rmtree(run_dir)
    os.makedirs(run_dir)
    print(f"== {scenario_name} seed {seed}: {args.duration:g} s of traffic, "
          f"faults {args.faults or ','.join(SCENARIOS[scenario_name]['faults'])} -> {run_dir}",
          flush=True)
    facts = {"run_id": None, "errors": [], "settled": False, "leftovers": [], "faults": []}
    workloads = []
    try:
        workloads = record_run(args, scenario_name, seed, run_dir, facts)
    except net.SetupError:
        raise
    except Interrupted as error:
        error.leftovers = facts["leftovers"]
        raise
    except Exception as error:  # a server that would not start, a failing ip or nft
        facts["errors"].append(f"{type(error).__name__}: {error}")
    result = {"scenario": scenario_name, "seed": seed, "duration": args.duration,
              "faults_chosen": args.faults.split(",") if args.faults
              else SCENARIOS[scenario_name]["faults"],
              "sentinel_down_after_ms": args.down_after or RedisCluster.default_down_after_ms
              if SCENARIOS[scenario_name]["cluster"] is RedisCluster else None,
              **facts, "workloads": {}}
    for workload in workloads:
        path = os.path.join(run_dir, f"{workload.name}.edn")
        workload.history.write(path)
        entry = summarize(workload)
        if workload.name == "register":
            entry["check"] = check(args, path, "cas-register", True,
                                   os.path.join(run_dir, "check-register.json"))
        else:
            entry.update(workload.tally())
            entry["check"] = check(args, path, "set", False,
                                   os.path.join(run_dir, "check-set.json"))
        result["workloads"][workload.name] = entry
    if workloads:
        write_timeline(run_dir, SCENARIOS[scenario_name]["cluster"].nodes, facts["faults"],
                       workloads[1].history)
    with open(os.path.join(run_dir, "result.json"), "w", encoding="utf-8") as out:
        json.dump(result, out, indent=2, default=list)
        out.write("\n")
    return result


COLUMNS = ["scenario", "seed", "workload", "verdict", "ops", "crashed", "acknowledged",
           "lost", "check s"]


def rows_of(result):
    for name, entry in result["workloads"].items():
        acknowledged = entry.get("acknowledged", "")
        lost = entry.get("lost", "")
        if name == "set" and lost not in ("", None) and acknowledged:
            share = 100.0 * lost / acknowledged
            lost = f"{lost} ({share:.1f}%)" if 0 < share < 10 else f"{lost} ({share:.0f}%)"
        yield [result["scenario"], str(result["seed"]), name, entry["check"].get("verdict", "?"),
               str(entry["ops"]), str(entry["crashed"]), str(acknowledged),
               "?" if lost is None else str(lost), f"{entry['check']['check_seconds']:.2f}"]


def table(rows):
    widths = [max([len(c)] + [len(r[i]) for r in rows]) for i, c in enumerate(COLUMNS)]
    line = lambda cells: "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths)) + " |"
    return "\n".join([line(COLUMNS), "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
                     + [line(r) for r in rows])


def problems_of(result):
    problems = list(result["errors"])
    if result["leftovers"]:
        problems.append("left behind: " + ", ".join(result["leftovers"]))
    if not result["settled"]:
        problems.append("the cluster did not settle after the faults were healed")
    for name, entry in result["workloads"].items():
        if entry["check"].get("exit_status") not in (0, 1):
            problems.append(f"{name}: ariadne check exited {entry['check'].get('exit_status')}"
                            f" ({entry['check'].get('reason', '')})")
        if name == "set" and not entry.get("final_read"):
            problems.append("set: no final read succeeded")
    return problems


def main():
    parser = argparse.ArgumentParser(
        description="Run a real Redis or etcd cluster under faults, record Jepsen histories, "
                    "check them with ariadne.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="scenarios:\n" + "\n".join(f"  {name:18} {s['about']}"
                                          for name, s in SCENARIOS.items())
               + "\n\nfaults (--faults): " + ", ".join(FAULTS))
    parser.add_argument("scenarios", nargs="*", metavar="SCENARIO",
                        help="one or more scenario names, or 'all'")
    parser.add_argument("--list", action="store_true", help="list the scenarios and exit")
    parser.add_argument("--seed", type=int, default=1, help="the run's seed (default 1)")
    parser.add_argument("--seeds", help="several seeds, e.g. 1-10 or 1,4,7 (overrides --seed)")
    parser.add_argument("--duration", type=float, default=60,
                        help="seconds of traffic under faults (default 60)")
    parser.add_argument("--out", default="testbed-runs",
                        help="where runs are written (default ./testbed-runs)")
    parser.add_argument("--ariadne", help="the ariadne binary (default build/ariadne, "
                                          "else ariadne on PATH)")
    parser.add_argument("--faults", help="comma-separated faults instead of the scenario's")
    parser.add_argument("--clients", type=int, default=10,
                        help="register clients (the set workload gets half as many)")
    parser.add_argument("--values", choices=["unique", "small"], default="unique",
                        help="register values: each write new (default), or 0-4")
    parser.add_argument("--ops-per-key", type=int, default=200,
                        help="register invocations per key before the next key")
    parser.add_argument("--stagger", type=float, default=0.02,
                        help="mean seconds a client waits between ops (default 0.02)")
    parser.add_argument("--settle", type=float, default=30,
                        help="seconds to wait for the cluster to settle after healing")
    parser.add_argument("--down-after", type=int, metavar="MS",
                        help="Redis: Sentinel's down-after-milliseconds (default 1000)")
    parser.add_argument("--no-install", action="store_true",
                        help="do not install missing Debian packages (testbed/install-deps.sh)")
    parser.add_argument("--check-timeout", type=float, default=300,
                        help="ariadne check's --timeout per history (default 300)")
    args = parser.parse_args()
    if args.list:
        for name, s in SCENARIOS.items():
            print(f"{name:18} {s['about']}")
        return 0
    names = list(SCENARIOS) if args.scenarios == ["all"] else args.scenarios
    unknown = [n for n in names if n not in SCENARIOS]
    if not names or unknown:
        parser.print_usage(sys.stderr)
        print(f"run.py: unknown scenario {', '.join(unknown)}" if unknown else
              f"run.py: name a scenario ({', '.join(SCENARIOS)}, or all)", file=sys.stderr)
        return 64
    if args.down_after is not None and any(SCENARIOS[n]["cluster"] is not RedisCluster
                                           for n in names):
        print("run.py: --down-after is Sentinel's setting: Redis scenarios only",
              file=sys.stderr)
        return 64
    if args.faults and any(f not in FAULTS for f in args.faults.split(",")):
        print(f"run.py: --faults takes {', '.join(FAULTS)}", file=sys.stderr)
        return 64
    args.ariadne = find_ariadne(args.ariadne)
    if shutil.which(args.ariadne) is None and not os.access(args.ariadne, os.X_OK):
        print(f"run.py: no ariadne at {args.ariadne} (build it, or pass --ariadne)",
              file=sys.stderr)
        return 64
    needed = ["ip", "nft"] + [b for n in names for b in SCENARIOS[n]["cluster"].binaries]
    if any(shutil.which(b) is None for b in needed) and not args.no_install \
            and os.geteuid() == 0:
        print("run.py: installing the Debian packages the test bed needs "
              "(testbed/install-deps.sh)", flush=True)
        subprocess.run([os.path.join(HERE, "install-deps.sh")])
    missing = [b for b in needed if shutil.which(b) is None]
    if missing:
        print(f"run.py: cannot run the test bed here: {', '.join(missing)} missing "
              "(testbed/install-deps.sh installs them on Debian 12)", file=sys.stderr)
        return SKIP

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    if os.geteuid() == 0:
        for run_id in net.sweep_orphans():
            print(f"run.py: removed what the dead run {run_id} left behind", flush=True)

    seeds = parse_seeds(args.seeds) if args.seeds else [args.seed]
    os.makedirs(args.out, exist_ok=True)
    rows, status = [], 0
    for name in names:
        for seed in seeds:
            try:
                result = one_run(args, name, seed)
            except net.SetupError as error:
                print(f"run.py: cannot run the test bed here: {error}", file=sys.stderr)
                return SKIP
            except Interrupted as stopped:
                if stopped.leftovers:
                    print(f"run.py: stopped by {stopped}; left behind, for the next run to "
                          f"remove: {', '.join(stopped.leftovers)}", file=sys.stderr)
                else:
                    print(f"run.py: stopped by {stopped}; everything made was removed",
                          file=sys.stderr)
                return 130
            rows += list(rows_of(result))
            if result["workloads"]:
                print(table(list(rows_of(result))), flush=True)
            for problem in problems_of(result):
                print(f"run.py: {name} seed {seed}: {problem}", file=sys.stderr)
                status = 1
    if len(names) * len(seeds) > 1:
        with open(os.path.join(args.out, "table.md"), "w", encoding="utf-8") as out:
            out.write(table(rows) + "\n")
        with open(os.path.join(args.out, "results.tsv"), "w", encoding="utf-8") as out:
            out.write("\t".join(COLUMNS) + "\n" + "".join("\t".join(r) + "\n" for r in rows))
        print("\n" + table(rows))
    return status


if __name__ == "__main__":
    sys.exit(main())
