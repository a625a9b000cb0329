#!/usr/bin/env python3
"""`ariadne check FILE --follow`, end to end, with the history written by another
process as a test would write it.

- A writer (this script) appends a generated history a line at a time, a few hundred
  operations a second; `ariadne check --follow` reads it as it grows. With a planted
  stale read, the violation must be reported on stderr within 1 s of the line that
  completes the failing op being written (that op, the first completion after which no
  order exists, comes from the offline check of the finished file); without one, no
  violation may be reported, and the answer holds to the end. Either way the final
  answer (verdict, failing op, core) must equal the offline check of the finished file.
  Each of four formats (EDN op maps, jepsen.log, Porcupine kv, JSON lines).
- --fail-fast: exit 1 while the writer is still writing.
- A pipe at full speed: the same answer as the offline check.
- A writer that dies mid-line (--pid), a file truncated under ariadne, a file rotated
  away: a clear message on stderr and the verdict of what was complete.
- Ctrl-C: exit 130.

Usage: follow_command_test.py --ariadne build/ariadne --work-dir DIR
"""
import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

FAILURES = []


def check(condition, message):
    if not condition:
        FAILURES.append(message)
        print("FAIL: " + message, flush=True)


def run(command, **kwargs):
    return subprocess.run(command, capture_output=True, text=True, **kwargs)


def offline(ariadne, path, model, extra=()):
    done = run([ariadne, "check", path, "--model", model, "--json", *extra])
    return json.loads(done.stdout)


def event_lines(path):
    """The file's lines, and the indices of those that hold events (comments and
    blank lines aside), in order."""
    with open(path) as f:
        lines = f.readlines()
    events = [i for i, line in enumerate(lines) if line.strip() and not line.lstrip().startswith(";")]
    return lines, events


def completion_line(lines, events, op_id, process_of):
    """The index of the line that completes op `op_id` (the op's id is the position of its
    invocation among the events): the next event of the same process."""
    invocation = events[op_id]
    process = process_of(lines[invocation])
    for i in events:
        if i > invocation and process_of(lines[i]) == process:
            return i
    raise AssertionError("op %d never completes" % op_id)


def edn_process(line):
    at = line.index(":process") + len(":process")
    return line[at:].split(",")[0].split()[0].strip()


def json_process(line):
    return json.loads(line)["process"]


def log_process(line):
    return line.split(" - ", 1)[1].split()[0]


class Follower:
    """`ariadne check --follow` running, its stderr read line by line with the time each
    line arrived."""

    def __init__(self, command):
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.stderr = []  # (time, line)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.process.stderr:
            self.stderr.append((time.monotonic(), line))

    def finish(self, timeout=60):
        out = self.process.stdout.read()
        self.process.wait(timeout=timeout)
        self.reader.join(timeout=5)
        return self.process.returncode, out

    def first(self, text):
        for at, line in self.stderr:
            if text in line:
                return at
        return None

    def text(self):
        return "".join(line for _, line in self.stderr)


def write_slowly(lines, path, per_second, watch_line=None, stop=None):
    """Appends `lines` to `path`, flushing each, `per_second` lines a second. Returns
    the time the line `watch_line` was written."""
    written_at = None
    with open(path, "a") as out:
        start = time.monotonic()
        for i, line in enumerate(lines):
            if stop is not None and stop():
                break
            delay = start + i / per_second - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            out.write(line)
            out.flush()
            if i == watch_line:
                written_at = time.monotonic()
    return written_at


def slow_writer_case(ariadne, work, name, source, model, fmt, process_of, expect_violation):
    lines, events = event_lines(source)
    expected = offline(ariadne, source, model)
    live = os.path.join(work, name + ".live")
    open(live, "w").close()
    watch_line = None
    if expect_violation:
        check(expected["verdict"] == "not-linearizable", name + ": the generated history is refuted offline")
        watch_line = completion_line(lines, events, expected["failing_op"], process_of)
    follower = Follower([ariadne, "check", live, "--model", model, "--format", fmt, "--follow", "--idle", "1",
                         "--json"])
    # ~250 ops a second: 500 lines.
    written_at = write_slowly(lines, live, 500, watch_line)
    status, out = follower.finish()
    answer = json.loads(out)
    for key in ("verdict", "failing_op", "core"):
        check(answer.get(key) == expected.get(key),
              "%s: --follow's %s %r equals the offline check's %r" % (name, key, answer.get(key), expected.get(key)))
    reported = follower.first("NOT LINEARIZABLE")
    if expect_violation:
        check(status == 1, name + ": exit 1, got %d" % status)
        check(reported is not None, name + ": the violation was reported while following")
        if reported is not None:
            latency = reported - written_at
            print("%s: violation reported %.0f ms after the failing op's completion was written (line %d of %d)"
                  % (name, latency * 1000, watch_line + 1, len(lines)), flush=True)
            check(latency < 1.0, name + ": reported within 1 s of the violating completion (%.3f s)" % latency)
    else:
        check(status == 0, name + ": exit 0, got %d" % status)
        check(reported is None, name + ": no violation reported on a linearizable history")
        print("%s: linearizable to the end, %d lines" % (name, len(lines)), flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ariadne", required=True)
    parser.add_argument("--work-dir", required=True)
    args = parser.parse_args()
    ariadne = os.path.abspath(args.ariadne)
    os.makedirs(args.work_dir, exist_ok=True)
    work = tempfile.mkdtemp(prefix="follow-", dir=args.work_dir)
    try:
        run_all(ariadne, work)
    finally:
        shutil.rmtree(work)
    if FAILURES:
        print("%d failures" % len(FAILURES))
        return 1
    print("all follow checks passed")
    return 0


def generate(ariadne, path, model, ops, violation, seed, processes=5, extra=()):
    command = [ariadne, "generate", "atomic", "--model", model, "--ops", str(ops), "--processes", str(processes),
               "--seed", str(seed), "-o", path, *extra]
    if violation:
        command.append("--violation")
    subprocess.run(command, check=True)


def convert(ariadne, source, target, fmt):
    subprocess.run([ariadne, "convert", source, "--to", fmt, "-o", target], check=True)


def run_all(ariadne, work):
    bad = os.path.join(work, "bad.edn")
    good = os.path.join(work, "good.edn")
    generate(ariadne, bad, "cas-register", 600, True, 11)
    generate(ariadne, good, "cas-register", 600, False, 12)

    slow_writer_case(ariadne, work, "edn-violation", bad, "cas-register", "edn", edn_process, True)
    slow_writer_case(ariadne, work, "edn-linearizable", good, "cas-register", "edn", edn_process, False)
    log = os.path.join(work, "bad.log")
    convert(ariadne, bad, log, "jepsen-log")
    slow_writer_case(ariadne, work, "jepsen-log-violation", log, "cas-register", "jepsen-log", log_process, True)
    kv = os.path.join(work, "kv.edn")
    generate(ariadne, kv, "kv", 600, True, 13, processes=8)
    kv_txt = os.path.join(work, "kv.txt")
    convert(ariadne, kv, kv_txt, "porcupine-kv")
    slow_writer_case(ariadne, work, "porcupine-kv-violation", kv_txt, "kv", "porcupine-kv", edn_process, True)
    json_lines = os.path.join(work, "bad.jsonl")
    with open(json_lines, "w") as out:
        for event in json.load(open(convert_json(ariadne, bad, work)))["events"]:
            out.write(json.dumps(event) + "\n")
    slow_writer_case(ariadne, work, "json-lines-violation", json_lines, "cas-register", "json", json_process, True)

    fail_fast(ariadne, work, bad)
    pipe_full_speed(ariadne, work)
    writer_dies_mid_line(ariadne, work, good)
    truncated_under_it(ariadne, work, good)
    rotated_away(ariadne, work, good)
    interrupted(ariadne, work, good)


def convert_json(ariadne, source, work):
    target = os.path.join(work, "events.json")
    convert(ariadne, source, target, "json")
    return target


def fail_fast(ariadne, work, bad):
    lines, _ = event_lines(bad)
    live = os.path.join(work, "fail-fast.edn")
    open(live, "w").close()
    follower = Follower([ariadne, "check", live, "--model", "cas-register", "--follow", "--fail-fast", "--json"])
    stop = threading.Event()
    writer = threading.Thread(target=lambda: write_slowly(lines * 4, live, 500, stop=stop.is_set), daemon=True)
    started = time.monotonic()
    writer.start()
    status, out = follower.finish()
    stopped_after = time.monotonic() - started
    writing_left = writer.is_alive()
    stop.set()
    writer.join()
    answer = json.loads(out)
    check(status == 1 and answer["verdict"] == "not-linearizable", "fail-fast: exit 1, not linearizable")
    check(writing_left, "fail-fast: exited while the writer was still writing (after %.1f s)" % stopped_after)
    print("fail-fast: exit %d after %.1f s, the writer still writing: %s" % (status, stopped_after, writing_left))


def pipe_full_speed(ariadne, work):
    big = os.path.join(work, "kv-big.edn")
    generate(ariadne, big, "kv", 50000, False, 21, processes=20, extra=("--keys", "500", "--crash-rate", "0.01"))
    expected = offline(ariadne, big, "kv")
    # A pipe from another process (standard input from a file is followed as a file).
    cat = subprocess.Popen(["cat", big], stdout=subprocess.PIPE)
    done = subprocess.run([ariadne, "check", "-", "--model", "kv", "--follow", "--json"], stdin=cat.stdout,
                          capture_output=True, text=True)
    cat.stdout.close()
    cat.wait()
    answer = json.loads(done.stdout)
    check(answer["verdict"] == expected["verdict"] == "linearizable", "pipe: linearizable, as offline")
    check(answer["operations"] == expected["operations"], "pipe: every operation read")
    check("end of input" in done.stderr or "closed" in done.stderr, "pipe: says it ended at the end of input: "
          + done.stderr.strip())


def writer_dies_mid_line(ariadne, work, good):
    lines, _ = event_lines(good)
    live = os.path.join(work, "dies.edn")
    half = len(lines) // 2
    cut = lines[half][: len(lines[half]) // 2]
    script = ("import sys, time\nout = open(sys.argv[1], 'a')\nfor line in open(sys.argv[2]).readlines()[:%d]:\n"
              "    out.write(line); out.flush()\nout.write(%r); out.flush(); time.sleep(0.3)\n" % (half, cut))
    open(live, "w").close()
    writer = subprocess.Popen([sys.executable, "-c", script, live, good])
    follower = Follower([ariadne, "check", live, "--model", "cas-register", "--follow", "--pid", str(writer.pid),
                         "--json"])
    writer.wait()
    status, out = follower.finish()
    answer = json.loads(out)
    complete = os.path.join(work, "dies-complete.edn")
    with open(complete, "w") as f:
        f.writelines(lines[:half])
    expected = offline(ariadne, complete, "cas-register")
    check(status == 0 and answer["verdict"] == expected["verdict"], "writer dies mid-line: the verdict of the complete "
          "lines (%s, exit %d)" % (answer["verdict"], status))
    check(answer["operations"] == expected["operations"], "writer dies mid-line: the complete lines' operations")
    check("no line break" in follower.text() and "exited" in follower.text(),
          "writer dies mid-line: says so: " + follower.text().strip())


def truncated_under_it(ariadne, work, good):
    lines, _ = event_lines(good)
    live = write_lines(work, "truncated.edn", lines[:200])
    follower = Follower([ariadne, "check", live, "--model", "cas-register", "--follow", "--json"])
    time.sleep(0.5)
    with open(live, "w") as f:  # truncated in place, then written anew
        f.writelines(lines[:10])
    status, out = follower.finish()
    answer = json.loads(out)
    check(status in (0, 1) and "truncated" in follower.text(), "truncated: says so: " + follower.text().strip())
    check(answer["verdict"] == offline(ariadne, write_lines(work, "t200.edn", lines[:200]), "cas-register")["verdict"],
          "truncated: the verdict of what was read before")


def rotated_away(ariadne, work, good):
    lines, _ = event_lines(good)
    live = write_lines(work, "rotated.edn", lines[:300])
    follower = Follower([ariadne, "check", live, "--model", "cas-register", "--follow", "--json"])
    time.sleep(0.5)
    with open(live, "a") as f:
        f.writelines(lines[300:400])
    os.rename(live, live + ".1")
    with open(live, "w") as f:
        f.writelines(lines[:5])
    status, out = follower.finish()
    answer = json.loads(out)
    expected = offline(ariadne, write_lines(work, "r400.edn", lines[:400]), "cas-register")
    check("replaced" in follower.text() or "rotated" in follower.text(), "rotated: says so: " + follower.text().strip())
    check(answer["verdict"] == expected["verdict"] and answer["operations"] == expected["operations"],
          "rotated: the verdict of the old file's lines, its last ones included")


def interrupted(ariadne, work, good):
    lines, _ = event_lines(good)
    live = write_lines(work, "interrupted.edn", lines[:100])
    follower = Follower([ariadne, "check", live, "--model", "cas-register", "--follow", "--json"])
    time.sleep(0.5)
    follower.process.send_signal(signal.SIGINT)
    status, out = follower.finish()
    answer = json.loads(out)
    check(status == 130 and answer["verdict"] == "unknown", "Ctrl-C: exit 130, unknown (exit %d)" % status)


def write_lines(work, name, lines):
    path = os.path.join(work, name)
    with open(path, "w") as f:
        f.writelines(lines)
    return path


if __name__ == "__main__":
    sys.exit(main())
