#!/usr/bin/env python3
"""libariadne_c.so through ctypes, against `ariadne check --json` on the same files.

    shared_library_test.py --library build/libariadne_c.so --ariadne build/ariadne --source-dir .

Loads the shared library as Python's ctypes (or Go's cgo) would, checks that it exports
the C API's functions and nothing of the C++ inside, then reads each history below
through ariadne_history_read, checks it with ariadne_check, and compares the verdict,
the linearization, the core and the failing op with what the command line prints for
the same file and model. Exits 0 when all agree, 1 otherwise (saying where).
"""

import argparse
import ctypes
import json
import os
import subprocess
import sys

# (file under the source tree, model, extra check options as the C struct's fields)
HISTORIES = [
    ("corpus/classic/lecture-example-1.edn", "register", {}),
    ("corpus/classic/worked-example-abcd.edn", "register(0)", {}),
    ("corpus/classic/herlihy-wing-h1.edn", "fifo-queue", {}),
    ("corpus/generated/crash-storm/crash-storm-200-10-5.edn", "cas-register(0)", {}),
    ("corpus/generated/crash-storm/crash-storm-200-10-6-stale.edn", "cas-register(0)", {}),
    ("corpus/generated/kv/atomic-kv-120-5.edn", "kv", {}),
    ("corpus/generated/kv/atomic-kv-120-6-violation.edn", "kv", {}),
    ("corpus/testbed/etcd-linearizable-s9-register.edn", "cas-register", {"independent": 1}),
    ("corpus/testbed/etcd-serializable-s6-register.edn", "cas-register", {"independent": 1}),
    ("corpus/testbed/redis-wait-aof-s7-set.edn", "set", {}),
]


class CheckOptions(ctypes.Structure):
    _fields_ = [("size", ctypes.c_size_t), ("timeout_seconds", ctypes.c_double),
                ("memory_limit_bytes", ctypes.c_uint64), ("engine", ctypes.c_char_p),
                ("consistency", ctypes.c_char_p), ("independent", ctypes.c_int),
                ("jobs", ctypes.c_uint), ("minimal_core", ctypes.c_int)]


def load(path):
    lib = ctypes.CDLL(os.path.abspath(path))
    lib.ariadne_last_error.restype = ctypes.c_char_p
    lib.ariadne_version.restype = ctypes.c_char_p
    lib.ariadne_history_read.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
    lib.ariadne_history_free.argtypes = [ctypes.c_void_p]
    lib.ariadne_check_options_init.argtypes = [ctypes.POINTER(CheckOptions)]
    lib.ariadne_check.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p,
                                  ctypes.POINTER(CheckOptions), ctypes.POINTER(ctypes.c_void_p)]
    lib.ariadne_result_verdict.argtypes = [ctypes.c_void_p]
    lib.ariadne_result_verdict.restype = ctypes.c_char_p
    for name in ("ariadne_result_linearization", "ariadne_result_core"):
        getattr(lib, name).argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.POINTER(ctypes.c_uint32))]
        getattr(lib, name).restype = ctypes.c_size_t
    lib.ariadne_result_failing_op.argtypes = [ctypes.c_void_p]
    lib.ariadne_result_failing_op.restype = ctypes.c_int64
    lib.ariadne_result_free.argtypes = [ctypes.c_void_p]
    return lib


def ids(lib, name, result):
    pointer = ctypes.POINTER(ctypes.c_uint32)()
    count = getattr(lib, name)(result, ctypes.byref(pointer))
    return [pointer[i] for i in range(count)]


def through_c(lib, path, model, extra):
    history = ctypes.c_void_p()
    status = lib.ariadne_history_read(path.encode(), None, ctypes.byref(history))
    if status != 0:
        raise RuntimeError(f"ariadne_history_read: {status}: {lib.ariadne_last_error().decode()}")
    options = CheckOptions()
    lib.ariadne_check_options_init(ctypes.byref(options))
    for field, value in extra.items():
        setattr(options, field, value)
    result = ctypes.c_void_p()
    status = lib.ariadne_check(history, model.encode(), None, ctypes.byref(options), ctypes.byref(result))
    lib.ariadne_history_free(history)
    if status != 0:
        raise RuntimeError(f"ariadne_check: {status}: {lib.ariadne_last_error().decode()}")
    answer = {"verdict": lib.ariadne_result_verdict(result).decode(),
              "linearization": ids(lib, "ariadne_result_linearization", result),
              "core": ids(lib, "ariadne_result_core", result),
              "failing_op": lib.ariadne_result_failing_op(result)}
    lib.ariadne_result_free(result)
    return answer


def through_cli(ariadne, path, model, extra):
    command = [ariadne, "check", path, "--model", model, "--json"]
    if extra.get("independent"):
        command.append("--independent")
    report = json.loads(subprocess.run(command, capture_output=True, text=True).stdout)
    return {"verdict": report["verdict"], "linearization": report.get("linearization", []),
            "core": report.get("core", []),
            "failing_op": report["failing_op"] if report.get("failing_op") is not None else -1}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--library", required=True)
    parser.add_argument("--ariadne", required=True)
    parser.add_argument("--source-dir", required=True)
    args = parser.parse_args()
    lib = load(args.library)
    failures = 0

    exported = subprocess.run(["nm", "-D", "--defined-only", args.library], capture_output=True,
                              text=True).stdout.split("\n")
    names = [line.split()[-1] for line in exported if len(line.split()) == 3]
    strays = [name for name in names if not name.startswith("ariadne_")]
    if strays or "ariadne_check" not in names:
        print(f"FAIL: exports {len(names)} symbols, {len(strays)} not of the C API, e.g. {strays[:5]}")
        failures += 1
    else:
        print(f"ok: exports the C API alone ({len(names)} functions), version "
              f"{lib.ariadne_version().decode()}")

    for relative, model, extra in HISTORIES:
        path = os.path.join(args.source_dir, relative)
        c_answer = through_c(lib, path, model, extra)
        cli_answer = through_cli(args.ariadne, path, model, extra)
        # The same library on the same events: the same answer, order included (these
        # histories are all decided before any race, by the unique-value test or WGL).
        same = c_answer == cli_answer and (c_answer["verdict"] != "linearizable"
                                           or len(c_answer["linearization"]) > 0)
        print(f"{'ok' if same else 'FAIL'}: {relative} ({model}): {c_answer['verdict']}, core "
              f"{c_answer['core'][:6]}, failing op {c_answer['failing_op']}, "
              f"{len(c_answer['linearization'])} ops ordered; the command line: {cli_answer['verdict']}, "
              f"core {cli_answer['core'][:6]}, failing op {cli_answer['failing_op']}")
        failures += 0 if same else 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
