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
    assert result.why == ("Read 1 (op 4, process 1) has no write of 1 left to read from: op 0 wrote 1 but was "
                          "overwritten by write 2 (op 2, process 0), which completed before the read began.")
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


def test_timestamps_give_real_time():
    # The write's completion is recorded after the read's invocation, but returned first.
    h = ariadne.History()
    h.invoke(0, "write", 1, timestamp=100)
    h.invoke(1, "read", timestamp=250)
    h.ok(0, "write", 1, timestamp=200)
    h.ok(1, "read", 0, timestamp=300)
    result = ariadne.check(h, model="register", init=0)
    assert result.verdict == "not-linearizable" and result.core == [0, 2]
    with pytest.raises(ariadne.InputError, match="without a timestamp"):
        h.invoke(2, "read")
    with pytest.raises(ariadne.InputError, match="goes back from"):
        h.invoke(0, "read", timestamp=150)
    ops = [{"process": 0, "type": "invoke", "f": "write", "value": 1, "timestamp": 100},
           {"process": 1, "type": "invoke", "f": "read", "value": None, "timestamp": 250},
           {"process": 0, "type": "ok", "f": "write", "value": 1, "timestamp": 200},
           {"process": 1, "type": "ok", "f": "read", "value": 0, "timestamp": 300}]
    assert ariadne.check(ops, model="register", init=0).core == [0, 2]
    for op in ops:
        del op["timestamp"]
    assert ariadne.check(ops, model="register", init=0).linearizable


@pytest.fixture(params=["extension", "python-loop"])
def path(request, monkeypatch):
    """Both ways a list of op dicts is added: the C extension and the Python loop."""
    if request.param == "python-loop":
        monkeypatch.setattr(ariadne._capi, "_events", None)
    elif ariadne._capi._events is None:
        if os.environ.get("ARIADNE_EXPECT_EXTENSION"):
            pytest.fail("the C extension (ariadne/_events.c) was not built")
        pytest.skip("the C extension is not built here")
    return request.param


# Values of every kind the EDN writers know, each read back as written.
ODD_VALUES = [None, True, False, 0, -7, 2 ** 70, 1.5, "", "a \"quoted\"\\ line\n\tend\r", ariadne.Keyword("kw"),
              [1, [2, 3]], (4, 5), {1, 2}, frozenset(), {"k": [1, None], ariadne.Keyword("x"): "y"}, "ünïcödé"]


def test_both_paths_write_every_value_alike(path):
    for value in ODD_VALUES:
        ops = [{"process": 0, "type": "invoke", "f": "write", "value": value},
               {"process": 0, "type": "ok", "f": "write", "value": value},
               {"process": 1, "type": "invoke", "f": "read"},
               {"process": 1, "type": "ok", "f": "read", "value": value}]
        assert ariadne.check(ops, model="register", init=0).linearizable, value
    # A keyword is not the string of its name, and a tuple is a vector like a list.
    ops = [{"process": 0, "type": "invoke", "f": "write", "value": ariadne.Keyword("x")},
           {"process": 0, "type": "ok", "f": "write", "value": ariadne.Keyword("x")},
           {"process": 1, "type": "invoke", "f": "read"},
           {"process": 1, "type": "ok", "f": "read", "value": "x"}]
    assert ariadne.check(ops, model="register", init=0).verdict == "not-linearizable"
    ops[0]["value"], ops[1]["value"], ops[3]["value"] = (1, 2), (1, 2), [1, 2]
    assert ariadne.check(ops, model="register", init=0).linearizable


def test_a_nemesis_keeps_its_place_among_op_ids(path):
    ops = [{"process": 0, "type": "invoke", "f": "write", "value": 1},
           {"process": "nemesis", "type": "info", "f": "start", "value": "partition"},
           {"process": 0, "type": "ok", "f": "write", "value": 1},
           {"process": ariadne.Keyword("nemesis"), "type": "info", "f": "stop"},
           {"process": 1, "type": "invoke", "f": "read"},
           {"process": 1, "type": "ok", "f": "read", "value": 2}]
    result = ariadne.check(ops, model="register", init=0)
    assert result.verdict == "not-linearizable" and result.core == [4]


def test_both_paths_refuse_alike(path):
    cases = [
        ([{"process": 0, "type": "invoke"}], ariadne.InputError, r"history:1:1: an op needs"),
        ([{"process": 0, "type": "invoke", "f": "write", "value": 1},
          {"process": 0, "type": "ok", "f": "write", "value": 1},
          {"process": 0, "type": "ok", "f": "write", "value": 1}], ariadne.InputError, r"history:3:1: .*completed twice"),
        ([{"process": 0, "type": "begin", "f": "write"}], ariadne.UsageError, "event type 'begin' is none of"),
        ([{"process": 0, "type": "invoke", "f": "write", "value": object()}], ariadne.UsageError, "no EDN for object"),
        ([{"process": 2 ** 64, "type": "invoke", "f": "write"}], ariadne.InputError, "is no 64-bit integer"),
        ([{"process": 0, "type": "invoke", "f": "write", "timestamp": "noon"}], ariadne.InputError,
         "timestamp is no 64-bit integer"),
        ([{"process": 0, "type": "invoke", "f": "write", "value": 1, "timestamp": 5},
          {"process": 0, "type": "ok", "f": "write", "value": 1, "timestamp": 4}], ariadne.InputError,
         "history:2:1: timestamp 4 of process 0 goes back from 5"),
    ]
    for ops, error, message in cases:
        with pytest.raises(error, match=message):
            ariadne.check(ops, model="register")
