"""Faults on a schedule drawn from the seed, recorded in every history.

After two quiet seconds the nemesis repeats: pick a fault from the scenario's list,
start it, hold it 3-6 s (a kill: 0.5-3 s, then restart), heal it, stay quiet 2-4 s.
It stops starting faults when the workload ends, and then heals whatever is on.

  partition-primary  cut the current primary (Redis) or leader (etcd) from every
                     other node; clients beside it stay with it
  partition-halves   cut the nodes into two random halves, the smaller first
  pause-primary      SIGSTOP the primary's or leader's server, SIGCONT to heal
  kill-primary       SIGKILL it, start it again (same configuration and data
                     directory) to heal
  kill-random        SIGKILL a random server, start it again to heal

Each start and heal is written to every history as Jepsen's nemesis writes it: an
:info event of process :nemesis, `:f` the fault, `:value` what it hit.
"""

import random
import threading
import time

FAULTS = ["partition-primary", "partition-halves", "pause-primary", "kill-primary",
          "kill-random"]


class Nemesis(threading.Thread):
    def __init__(self, network, cluster, histories, faults, seed):
        super().__init__(name="nemesis", daemon=True)
        self.network = network
        self.cluster = cluster
        self.histories = histories
        self.faults = faults
        self.rng = random.Random(seed * 31 + 17)
        self.stopping = threading.Event()
        self.partitioned = False
        self.paused = []
        self.killed = []
        self.log = []  # {"at": seconds since start, "wall": time.time(), "f", "value"}
        self.start_time = time.monotonic()
        self.error = None

    def record(self, f, value):
        self.log.append({"at": round(time.monotonic() - self.start_time, 2),
                         "wall": time.time(), "f": f, "value": value})
        for history in self.histories:
            history.nemesis(f, value)

    def run(self):
        try:
            if self.stopping.wait(2.0):
                return
            while not self.stopping.is_set():
                fault = self.rng.choice(self.faults)
                self.begin(fault)
                hold = self.rng.uniform(0.5, 3) if fault.startswith("kill") else self.rng.uniform(3, 6)
                self.stopping.wait(hold)
                self.heal()
                if self.stopping.wait(self.rng.uniform(2, 4)):
                    return
        except Exception as error:  # reported by the run, which then fails
            self.error = error

    def begin(self, fault):
        nodes = self.cluster.nodes
        if fault == "partition-primary":
            primary = self.cluster.primary()
            self.network.partition([[primary], [n for n in nodes if n != primary]])
            self.partitioned = True
            self.record("start-partition", f"isolated {primary}")
        elif fault == "partition-halves":
            shuffled = nodes[:]
            self.rng.shuffle(shuffled)
            half = len(nodes) // 2
            sides = [sorted(shuffled[:half]), sorted(shuffled[half:])]
            self.network.partition(sides)
            self.partitioned = True
            self.record("start-partition", " | ".join(" ".join(s) for s in sides))
        elif fault == "pause-primary":
            primary = self.cluster.primary()
            self.cluster.process_of(primary).pause()
            self.paused.append(primary)
            self.record("pause", primary)
        elif fault in ("kill-primary", "kill-random"):
            node = self.cluster.primary() if fault == "kill-primary" else self.rng.choice(nodes)
            self.cluster.process_of(node).kill()
            self.killed.append(node)
            self.record("kill", node)
        else:
            raise ValueError(f"unknown fault {fault}")

    def heal(self):
        if self.partitioned:
            self.network.heal()
            self.partitioned = False
            self.record("stop-partition", "healed")
        # Each fault leaves its list as it is healed, so a heal that fails halfway and is
        # retried (finish) never restarts a server twice.
        while self.paused:
            node = self.paused.pop(0)
            self.cluster.process_of(node).resume()
            self.record("resume", node)
        while self.killed:
            node = self.killed.pop(0)
            self.cluster.restart(node)
            self.record("restart", node)

    def finish(self):
        """Stops the schedule and heals what is still on (from the controller's thread)."""
        self.stopping.set()
        self.join()
        self.heal()
