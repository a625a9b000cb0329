"""One run's events on one clock: the nemesis, the servers' role changes, the lost writes.

A lost write is a fact about the history; why it was lost is in the servers' logs.
This lines them up: the faults the nemesis injected, what the Sentinels decided
(+odown, +selected-slave, +promoted-slave, +switch-master), what each Redis server
did (started, loaded its data, became a primary or a replica, resynced in full), or,
for etcd, each member's Raft role changes; and, from the set history, the spans of
acknowledged adds that the final read did not contain, with the node that
acknowledged them. Written as timeline.txt next to the histories.
"""

import datetime
import json
import os
import re

REDIS_LINE = re.compile(r"^\d+:([XMSC]) (\d+ \w+ \d+ [\d:.]+) [#*.-] (.*)$")
REDIS_EVENTS = ["Redis is starting", "DB loaded from append only file", "MASTER MODE enabled",
                "REPLICAOF", "Full resync from master", "Successful partial resynchronization",
                "Done loading RDB", "Connection with master lost"]
SENTINEL_EVENTS = ["+odown", "-odown", "+selected-slave", "+promoted-slave", "+switch-master",
                   "+convert-to-slave", "-failover-abort"]
ETCD_EVENTS = ["became leader", "became follower", "elected leader", "lost leader",
               "became candidate"]


def _redis_time(text):
    return datetime.datetime.strptime(text, "%d %b %Y %H:%M:%S.%f").timestamp()


def _server_events(run_dir, node):
    events = []
    for name, wanted in (("redis.log", REDIS_EVENTS), ("sentinel.log", SENTINEL_EVENTS)):
        path = os.path.join(run_dir, node, name)
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8", errors="replace") as log:
            for line in log:
                match = REDIS_LINE.match(line.rstrip("\n"))
                if match and any(w in match.group(3) for w in wanted):
                    text = re.sub(r" \(user request from .*\)$", "", match.group(3))
                    who = "sentinel" if name == "sentinel.log" else "redis"
                    events.append((_redis_time(match.group(2)), f"{node} {who}: {text}"))
    path = os.path.join(run_dir, node, "etcd.log")
    if os.path.exists(path):
        with open(path, encoding="utf-8", errors="replace") as log:
            for line in log:
                try:
                    entry = json.loads(line)
                except ValueError:
                    continue
                message = entry.get("msg", "")
                if any(w in message for w in ETCD_EVENTS) and "ts" in entry:
                    when = datetime.datetime.fromisoformat(entry["ts"].replace("Z", "+00:00"))
                    events.append((when.timestamp(), f"{node} etcd: {message}"))
    return events


def lost_spans(history, gap=1.0):
    """The acknowledged adds the final read lacks, as spans of acknowledgement time:
    (first wall time, last wall time, count, lowest value, highest value, nodes)."""
    acknowledged, final = {}, None
    for invocation, completion in history.ops():
        if completion is None or completion["type"] != "ok":
            continue
        if invocation["f"] == "add":
            acknowledged[invocation["value"]] = completion
        elif invocation["f"] == "read":
            final = completion["value"]
    if final is None:
        return []
    lost = sorted((c["time"], v, c.get("node")) for v, c in acknowledged.items()
                  if v not in final)
    spans = []
    for time_ns, value, node in lost:
        wall = history.start_wall + time_ns / 1e9
        if spans and wall - spans[-1][1] <= gap:
            first, _, count, low, high, nodes = spans[-1]
            spans[-1] = (first, wall, count + 1, min(low, value), max(high, value),
                         nodes | {node})
        else:
            spans.append((wall, wall, 1, value, value, {node}))
    return spans


def write_timeline(run_dir, nodes, nemesis_log, set_history):
    events = [(e["wall"], f"NEMESIS {e['f']} {e['value']}") for e in nemesis_log]
    for node in nodes:
        events += _server_events(run_dir, node)
    for first, last, count, low, high, servers in lost_spans(set_history):
        acknowledged_by = ", ".join(sorted(str(s) for s in servers))
        events.append((first, f"LOST {count} acknowledged adds ({low}..{high}), "
                              f"acknowledged by {acknowledged_by} until "
                              f"+{last - first:.2f} s"))
    events.sort()
    origin = set_history.start_wall
    with open(os.path.join(run_dir, "timeline.txt"), "w", encoding="utf-8") as out:
        out.write("seconds since the histories began; NEMESIS: a fault; LOST: acknowledged "
                  "adds missing from the final read\n")
        for when, text in events:
            out.write(f"{when - origin:9.3f}  {text}\n")
