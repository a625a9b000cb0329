"""What the clients do: a register workload and a set workload, each one history.

register  Knossos' cas-register over independent keys: reads, writes and
          compare-and-sets, all clients on one key until it has had `ops_per_key`
          invocations, then on the next (Jepsen's jepsen.independent), so each key's
          history stays small enough to check however many crashed ops it holds.
          Values are unique (each write and cas writes a new number: the default,
          since a refutation then reads as a stale read or a lost write in two or
          three ops) or come from a small domain (0-4, where the search is
          hardest). Checked with `--model cas-register --independent`.
set       adds of unique numbers to one set, then, once the faults are healed and
          the cluster has settled, one read of the whole set: an acknowledged add
          missing from it is a lost write. Checked with `--model set`.

Both end with final reads, after the faults: a lost write is invisible to a
register history unless something reads the key afterwards.

A client reports an op's outcome by returning (ok), raising Failed (it certainly
did not take effect) or raising Indeterminate (it may have). A read that ends
indeterminate is recorded as :fail, since a read changes nothing (Jepsen does the
same); any other indeterminate op is :info and its process is retired.
"""

import random
import threading
import time

from history import Keyword


class Failed(Exception):
    """The op certainly did not take effect (refused, not sent)."""


class Indeterminate(Exception):
    """The op may or may not have taken effect (timeout, connection lost mid-request)."""


class Workload:
    """Shared by the workers of one workload: its history, its stop flag, its counters."""

    def __init__(self, name, history, concurrency, seed, stagger):
        self.name = name
        self.history = history
        self.concurrency = concurrency
        self.seed = seed
        self.stagger = stagger
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.counter = 0
        self.next_process = concurrency  # fresh process numbers, e.g. for final reads

    def fresh_process(self):
        with self.lock:
            process = self.next_process
            self.next_process += 1
            return process

    def run_op(self, process, f, value, action, client):
        """Invokes, performs and completes one op; returns the process to use next and
        the completion's type. The completion names the node the client sent the op to
        (`client.server`) as :node, which checkers ignore and the timeline uses."""
        self.history.invoke(process, f, value)
        try:
            result = action()
        except Failed as error:
            self.history.complete(process, "fail", f, value, str(error), client.server)
            return process, "fail"
        except Indeterminate as error:
            kind = "fail" if f == "read" else "info"
            self.history.complete(process, kind, f, value, str(error), client.server)
            return (process if kind == "fail" else self.fresh_process()), kind
        self.history.complete(process, "ok", f, result, node=client.server)
        return process, "ok"

    def pause(self, rng):
        if self.stagger > 0:
            time.sleep(rng.uniform(0, 2 * self.stagger))


class RegisterWorkload(Workload):
    def __init__(self, history, concurrency, seed, stagger, ops_per_key=200, values="unique"):
        super().__init__("register", history, concurrency, seed, stagger)
        self.ops_per_key = ops_per_key
        self.values = values
        self.keys_used = 0
        self.last_seen = {}  # key -> the last value a completed op read or wrote

    def next_op(self, rng):
        with self.lock:
            key = self.counter // self.ops_per_key
            self.counter += 1
            self.keys_used = max(self.keys_used, key + 1)
            unique = self.counter
        roll = rng.random()
        if self.values == "unique":
            if roll < 0.5:
                return "read", key, None
            if roll < 0.75:
                return "write", key, unique
            # Compare against the last value any client saw on the key, so that some
            # cas ops succeed; a number never written would always fail. Never nil: a
            # cas from nil means "from absent" to the model, which neither server has.
            old = self.last_seen.get(key)
            return "cas", key, [0 if old is None else old, unique]
        if roll < 0.5:
            return "read", key, None
        if roll < 0.75:
            return "write", key, rng.randint(0, 4)
        return "cas", key, [rng.randint(0, 4), rng.randint(0, 4)]

    def worker(self, index, client):
        rng = random.Random(self.seed * 7919 + index)
        process = index
        while not self.stop.is_set():
            f, key, value = self.next_op(rng)
            read = {}
            if f == "read":
                def action():
                    read["value"] = client.read(key)
                    return [key, read["value"]]
            elif f == "write":
                action = lambda: (client.write(key, value), [key, value])[1]
            else:
                def action():
                    if not client.cas(key, value[0], value[1]):
                        raise Failed("cas: value differs")
                    return [key, value]
            process, outcome = self.run_op(process, Keyword(f), [key, value], action, client)
            if outcome == "ok":
                with self.lock:
                    self.last_seen[key] = {"read": read.get("value"), "write": value,
                                           "cas": value[1] if f == "cas" else None}[f]
            self.pause(rng)

    def final_reads(self, client, deadline):
        """Reads every key once, retrying a key until a read succeeds or time runs out."""
        for key in range(self.keys_used):
            while time.monotonic() < deadline:
                _, outcome = self.run_op(self.fresh_process(), Keyword("read"), [key, None],
                                         lambda: [key, client.read(key)], client)
                if outcome == "ok":
                    break
                time.sleep(0.2)


class SetWorkload(Workload):
    def __init__(self, history, concurrency, seed, stagger):
        super().__init__("set", history, concurrency, seed, stagger)

    def worker(self, index, client):
        rng = random.Random(self.seed * 104729 + index)
        process = index
        while not self.stop.is_set():
            with self.lock:
                element = self.counter
                self.counter += 1
            process, _ = self.run_op(process, Keyword("add"), element,
                                     lambda: (client.add(element), element)[1], client)
            self.pause(rng)

    def final_reads(self, client, deadline):
        while time.monotonic() < deadline:
            _, outcome = self.run_op(self.fresh_process(), Keyword("read"), None,
                                     lambda: set(client.read_set()), client)
            if outcome == "ok":
                return
            time.sleep(0.2)

    def tally(self):
        """Acknowledged adds, and those missing from the final read (lost)."""
        acknowledged, final = set(), None
        for invocation, completion in self.history.ops():
            if completion is None or completion["type"] != "ok":
                continue
            if invocation["f"] == "add":
                acknowledged.add(invocation["value"])
            elif invocation["f"] == "read":
                final = completion["value"]
        lost = sorted(acknowledged - final) if final is not None else None
        return {"acknowledged": len(acknowledged),
                "lost": None if lost is None else len(lost),
                "lost_examples": [] if lost is None else lost[:10],
                "final_read": final is not None}
