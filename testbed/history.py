"""A Jepsen history, recorded as the test runs, written as EDN one op map per line.

The order of the events in the file is the real-time order the checker relies on:
an invocation is appended before its request is sent, its completion after the
reply is read, both under one lock, so an op that completed before another was
invoked comes first in the file. `:time` is nanoseconds since the start of the run
on the monotonic clock, which every network namespace shares.

Completions follow Jepsen's conventions: `:ok` the op took effect (a read returns
its value), `:fail` it certainly did not, `:info` unknown: it may take effect at
any later time or never, so the process that issued it never issues another op
(the client goes on under a new process number).
"""

import os
import threading
import time


class Keyword(str):
    """An EDN keyword: Keyword("ok") prints as :ok."""


def edn(value):
    if value is None:
        return "nil"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Keyword):
        return ":" + value
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        escaped = (value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
                   .replace("\r", "\\r").replace("\t", "\\t"))
        return '"' + escaped + '"'
    if isinstance(value, (set, frozenset)):
        return "#{" + " ".join(edn(v) for v in sorted(value)) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + " ".join(edn(v) for v in value) + "]"
    raise TypeError(f"no EDN for {value!r}")


def op_map(event):
    """The event as one EDN op map, a line of the history file."""
    fields = [f":type :{event['type']}", f":f :{event['f']}", f":value {edn(event['value'])}"]
    process = event["process"]
    fields.append(":process " + (":nemesis" if process == "nemesis" else str(process)))
    fields.append(f":time {event['time']}")
    for key in ("node", "error"):
        if key in event:
            fields.append(f":{key} {edn(event[key])}")
    return "{" + ", ".join(fields) + "}\n"


class History:
    def __init__(self, start_ns, start_wall, live_path=None):
        """With `live_path`, every event is also appended to that file as it happens,
        a line each, flushed, so that `ariadne check FILE --follow` can check the run
        while it goes on; write() to the same path then leaves the file as it is."""
        self.start_ns = start_ns
        self.start_wall = start_wall  # time.time() at start_ns, to line up with server logs
        self.lock = threading.Lock()
        self.events = []
        self.live_path = live_path
        self.live = open(live_path, "w", encoding="utf-8") if live_path else None

    def _add(self, process, kind, f, value, extra):
        with self.lock:
            event = {"type": kind, "f": f, "value": value, "process": process,
                     "time": time.monotonic_ns() - self.start_ns}
            event.update(extra)
            self.events.append(event)
            if self.live:
                self.live.write(op_map(event))
                self.live.flush()

    def invoke(self, process, f, value):
        self._add(process, "invoke", f, value, {})

    def complete(self, process, kind, f, value, error=None, node=None):
        """`node`, when known, is the server that answered (or was asked), kept as :node."""
        extra = {"error": error} if error else {}
        if node:
            extra["node"] = node
        self._add(process, kind, f, value, extra)

    def nemesis(self, f, value):
        """A fault as Jepsen's nemesis records it: an :info invocation and completion."""
        self._add("nemesis", "info", f, value, {})

    def write(self, path):
        with self.lock:
            if self.live and os.path.abspath(path) == os.path.abspath(self.live_path):
                self.live.close()  # written as it went: a follower sees the file end, not rewritten
                self.live = None
                return
            with open(path, "w", encoding="utf-8") as out:
                for event in self.events:
                    out.write(op_map(event))

    def ops(self):
        """The client ops as (invocation, completion or None), in invocation order."""
        pending, pairs = {}, []
        with self.lock:
            for event in self.events:
                if event["process"] == "nemesis":
                    continue
                if event["type"] == "invoke":
                    pending[event["process"]] = len(pairs)
                    pairs.append([event, None])
                else:
                    pairs[pending.pop(event["process"])][1] = event
        return pairs
