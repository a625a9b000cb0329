"""The Python package against the command line and against bad input (pytest).

ARIADNE_CLI names the command line to compare with, ARIADNE_SOURCE_DIR the source
tree whose corpus/ the histories come from (tests/python/python_package_test.py sets
both)."""

import json
import os
import subprocess

import pytest

import ariadne

SOURCE = os.environ.get("ARIADNE_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
CLI = os.environ.get("ARIADNE_CLI", os.path.join(SOURCE, "build", "ariadne"))

# (file under the source tree, model, independent keys)
HISTORIES = [
    ("corpus/classic/lecture-example-1.edn", "register", False),
    ("corpus/classic/worked-example-abcd.edn", "register(0)", False),
    ("corpus/classic/herlihy-wing-h1.edn", "fifo-queue", False),
    ("corpus/generated/crash-storm/crash-storm-200-10-5.edn", "cas-register(0)", False),
    ("corpus/generated/crash-storm/crash-storm-200-10-6-stale.edn", "cas-register(0)", False),
    ("corpus/generated/kv/atomic-kv-120-5.edn", "kv", False),
    ("corpus/generated/kv/atomic-kv-120-6-violation.edn", "kv", False),
    ("corpus/testbed/etcd-linearizable-s9-register.edn", "cas-register", True),
    ("corpus/testbed/etcd-serializable-s6-register.edn", "cas-register", True),
    ("corpus/testbed/redis-wait-aof-s7-set.edn", "set", False),
]


def through_cli(path, model, independent):
    command = [CLI, "check", path, "--model", model, "--json"] + (["--independent"] if independent else [])
    report = json.loads(subprocess.run(command, capture_output=True, text=True).stdout)
    return (report["verdict"], report.get("linearization", []), report.get("core", []), report.get("failing_op"))


@pytest.mark.parametrize("relative,model,independent", HISTORIES)
def test_the_answer_is_the_command_lines(relative, model, independent):
    path = os.path.join(SOURCE, relative)
    result = ariadne.check(path, model=model, independent=independent)
    assert (result.verdict, result.linearization, result.core, result.failing_op) == \
        through_cli(path, model, independent)


def test_a_list_of_jepsen_ops_with_a_stale_read():
    history = [
        {"process": 0, "type": "invoke", "f": "write", "value": 1},
        {"process": 0, "type": "ok", "f": "write", "value": 1},
        {"process": 0, "type": ":invoke", "f": ":write", "value": 2},
        {"process": 0, "type": ":ok", "f": ":write", "value": 2},
        {"process": 1, "type": "invoke", "f": "read", "value": None},
        {"process": 1, "type": "ok", "f": "read", "value": 1},
    ]
    result = ariadne.check(history, model="register", init=0, timeout=10)
    assert result.verdict == "not-linearizable"
    assert result.core == [0, 2, 4] and result.core_minimal and result.failing_op == 4
    assert "read 1" in result.explanation
    assert not result.linearizable


def test_a_history_recorded_as_the_test_runs():
    h = ariadne.History()
    h.invoke(0, "cas", [0, 1]).ok(0, "cas", [0, 1])
    h.invoke(1, "read").ok(1, "read", 1)
    h.invoke(2, "write", 5).info(2, "write", 5)
    assert len(h) == 6
    result = ariadne.check(h, model="cas-register", init=0, engine="wgl")
    assert result.linearizable and result.linearization[:2] == [0, 2]


def test_keys_of_an_independent_history():
    h = ariadne.History()
    h.invoke(0, "write", [1, 10]).ok(0, "write", [1, 10])
    h.invoke(1, "read", [2, None]).ok(1, "read", [2, 7])
    result = ariadne.check(h, model="register", independent=True)
    assert result.verdict == "not-linearizable"
    assert result.keys == {"1": "linearizable", "2": "not-linearizable"} and result.failing_key == "2"


def test_an_op_completed_twice_is_refused_at_the_call():
    h = ariadne.History()
    h.invoke(0, "write", 1).ok(0, "write", 1)
    with pytest.raises(ariadne.InputError, match=r"history:3:1: .*completed twice"):
        h.ok(0, "write", 1)
    assert len(h) == 2
    h.invoke(1, "read").info(1, "read")
    with pytest.raises(ariadne.InputError, match="fresh process id"):
        h.invoke(1, "read")


def test_bad_input_says_where(tmp_path):
    broken = tmp_path / "broken.edn"
    broken.write_text("{:type :invoke, :f :write, :value 1, :process 0}\n{:type :ok, :f :write, :value [1\n")
    with pytest.raises(ariadne.InputError, match=r"broken\.edn:3:1: unterminated vector"):
        ariadne.check(str(broken), model="register")
    with pytest.raises(ariadne.InputError, match="an op needs"):
        ariadne.check([{"process": 0}], model="register")
    with pytest.raises(ariadne.InputError, match=r"history:2:1: .*cas"):
        ariadne.check([{"process": 0, "type": "invoke", "f": "cas", "value": 7},
                       {"process": 0, "type": "ok", "f": "cas", "value": 7}], model="cas-register")


def test_usage_errors():
    with pytest.raises(ariadne.UsageError, match="no-such-model"):
        ariadne.check([], model="no-such-model")
    with pytest.raises(ariadne.UsageError, match="quantum"):
        ariadne.check([], model="register", engine="quantum")
    with pytest.raises(ariadne.UsageError, match="event type"):
        ariadne.History().add(0, "done", "write")
    with pytest.raises(ariadne.UsageError, match="no EDN"):
        ariadne.History().invoke(0, "write", object())
