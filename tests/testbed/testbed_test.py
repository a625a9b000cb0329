#!/usr/bin/env python3
"""A short run of the test bed on a real cluster (testbed/run.py), and what it must show.

    testbed_test.py redis-nowait --ariadne build/ariadne --work-dir DIR
    testbed_test.py etcd-linearizable --ariadne build/ariadne --work-dir DIR

redis-nowait: about 25 s of traffic while the primary is isolated; the set history
must be refuted with acknowledged adds lost, its minimal core an acknowledged add
and the final read that lacks it.
etcd-linearizable: 20 s of traffic under kills, pauses and partitions, which must bite
(ops timed out); both histories must be linearizable, and the register's witness must
replay under `ariadne verify-witness`.

Either way, nothing of the run may be left: no process still running from its
folder, no namespace, link or nftables table named after its run id (checked here,
apart from the run's own check). Exits 77 (ctest's skip) when the machine cannot
host the test bed, saying why.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys

SKIP = 77


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def leftovers(run_id, run_dir):
    left = []
    namespaces = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    left += [line for line in namespaces.splitlines() if line.startswith(run_id)]
    links = subprocess.run(["ip", "-o", "link", "show"], capture_output=True, text=True).stdout
    left += [line.split(": ")[1] for line in links.splitlines()
             if len(line.split(": ")) > 1 and line.split(": ")[1].startswith(run_id)]
    tables = subprocess.run(["nft", "list", "tables"], capture_output=True, text=True).stdout
    left += [line for line in tables.splitlines() if line.endswith(" " + run_id)]
    # A server of the run names its folder in its arguments (etcd) or works in it (Redis
    # and Sentinel chdir into their `dir` and rewrite their process titles).
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                arguments = cmdline.read()
            directory = os.readlink(f"/proc/{pid}/cwd")
        except OSError:
            continue
        if run_dir.encode() in arguments or directory.startswith(run_dir):
            program = arguments.split(b"\0")[0].decode(errors="replace")
            left.append(f"process {pid} ({program})")
    return left


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("scenario", choices=["redis-nowait", "etcd-linearizable"])
    parser.add_argument("--ariadne", required=True)
    parser.add_argument("--work-dir", required=True)
    parser.add_argument("--duration", type=float,
                        help="seconds of traffic (default 25 for Redis, 20 for etcd)")
    args = parser.parse_args()
    # Redis gets 25 s: a Sentinel whose first failover is aborted waits twice the failover
    # timeout (8 s) before the next, and a loss needs a failover inside a partition.
    duration = args.duration or (25 if args.scenario.startswith("redis") else 20)

    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    out = os.path.join(os.path.abspath(args.work_dir), f"testbed-{args.scenario}")
    shutil.rmtree(out, ignore_errors=True)
    command = [sys.executable, "-B", os.path.join(root, "testbed", "run.py"), args.scenario,
               "--seed", "1", "--duration", str(duration), "--out", out,
               "--ariadne", args.ariadne, "--check-timeout", "60", "--no-install"]
    print("$ " + " ".join(command), flush=True)
    done = subprocess.run(command)
    if done.returncode == SKIP:
        print("SKIP: this machine cannot host the test bed (the message above says why)")
        return SKIP
    run_dir = os.path.join(out, f"{args.scenario}-s1")
    try:
        with open(os.path.join(run_dir, "result.json"), encoding="utf-8") as source:
            result = json.load(source)
    except OSError as error:
        fail(f"run.py exited {done.returncode} and wrote no result: {error}")
    # No run id: the run failed before it made anything; its errors say why.
    left = leftovers(result["run_id"], run_dir) if result["run_id"] else []
    if left or result["leftovers"]:
        fail(f"left behind: {left + result['leftovers']}")
    if result["errors"]:
        fail(f"the run went wrong: {result['errors']}")
    if done.returncode != 0:
        fail(f"run.py exited {done.returncode}")
    register, adds = result["workloads"]["register"], result["workloads"]["set"]
    if register["ops"] < 500 or adds["ops"] < 200:
        fail(f"too little traffic: {register['ops']} register ops, {adds['ops']} adds")

    if args.scenario == "redis-nowait":
        if not adds["lost"]:
            fail(f"no acknowledged add was lost ({adds['acknowledged']} acknowledged)")
        check = adds["check"]
        if check["verdict"] != "not-linearizable":
            fail(f"the set history was {check['verdict']}, with {adds['lost']} adds lost")
        with open(os.path.join(run_dir, "set.edn"), encoding="utf-8") as source:
            events = source.readlines()
        core = [events[i] for i in check["core"]]
        if len(core) != 2 or ":f :add" not in core[0] or ":f :read" not in core[1]:
            fail(f"the core is not an add and the read that lacks it: {core}")
        if "add" not in check["explanation"] or "read" not in check["explanation"]:
            fail(f"the explanation names neither the add nor the read: {check['explanation']}")
        print(f"redis-nowait: {adds['lost']} of {adds['acknowledged']} acknowledged adds lost; "
              f"set refuted by {core[0].strip()} and the final read; register "
              f"{register['check']['verdict']}")
    else:
        # Linearizable is only worth something if the faults bit: some op must have
        # timed out, and the nemesis must have struck more than once.
        if register["crashed"] + adds["crashed"] == 0 or len(result["faults"]) < 4:
            fail(f"the faults did not bite: {len(result['faults'])} nemesis events, "
                 f"{register['crashed'] + adds['crashed']} crashed ops")
        for name, entry in (("register", register), ("set", adds)):
            if entry["check"]["verdict"] != "linearizable":
                fail(f"etcd's {name} history was {entry['check']['verdict']}")
        if adds["lost"]:
            fail(f"etcd lost {adds['lost']} acknowledged adds")
        verify = subprocess.run(
            [args.ariadne, "verify-witness", os.path.join(run_dir, "register.edn"),
             "--model", "independent(cas-register)",
             "--witness", os.path.join(run_dir, "check-register.json")],
            capture_output=True, text=True)
        if verify.returncode != 0 or not verify.stdout.startswith("WITNESS OK"):
            fail(f"the witness did not replay: {verify.stdout}{verify.stderr}")
        print(f"etcd-linearizable: {register['ops']} register ops ({register['crashed']} "
              f"crashed) and {adds['ops']} adds linearizable; {verify.stdout.strip()}")
    shutil.rmtree(out, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
