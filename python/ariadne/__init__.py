"""ariadne from Python: is this concurrent history linearizable?

    import ariadne
    history = [
        {"process": 0, "type": "invoke", "f": "write", "value": 1},
        {"process": 0, "type": "ok", "f": "write", "value": 1},
        {"process": 1, "type": "invoke", "f": "read", "value": None},
        {"process": 1, "type": "ok", "f": "read", "value": 2},
    ]
    result = ariadne.check(history, model="register", init=0)
    result.verdict        # 'not-linearizable'
    result.core           # [2]: op ids, the invocations' positions among the events
    print(result.explanation)   # the read of 2, which nothing wrote

`history` is a list of Jepsen-shaped op dicts (type "invoke", "ok", "fail" or "info",
with or without Jepsen's leading colon), a path to a history file in any format the
command line reads, or a `History` built as the test runs:

    h = ariadne.History()
    h.invoke(0, "cas", [0, 1]); h.ok(0, "cas", [0, 1])

The answer is the C++ library's, through its C API (libariadne_c.so, docs/c-api.md),
certified before it is returned. Bad input raises `InputError` (a ValueError) with the
message and where (`history:3:1`, the third event; `file:line:column` for a file).
"""

import os

from . import _capi
from ._capi import lib

__all__ = ["check", "History", "Result", "Keyword", "InputError", "UsageError", "InternalError",
           "__version__"]
__version__ = lib.ariadne_version().decode()


class AriadneError(Exception):
    """The base of ariadne's errors: the message, and where in the input when known."""

    def __init__(self, message):
        super().__init__(message)
        self.message = message


class InputError(AriadneError, ValueError):
    """A malformed value or file, an event out of sequence, a value the model cannot read."""


class UsageError(AriadneError, ValueError):
    """An unknown model, engine, format or consistency; a bad argument."""


class InternalError(AriadneError, RuntimeError):
    """A bug in ariadne (please report it), or memory exhausted."""


_ERRORS = {_capi.USAGE_ERROR: UsageError, _capi.INPUT_ERROR: InputError, _capi.INTERNAL_ERROR: InternalError}


def _raise_for(status):
    if status != _capi.SUCCESS:
        raise _ERRORS.get(status, InternalError)(lib.ariadne_last_error().decode(errors="replace"))


class Keyword(str):
    """An EDN keyword: Keyword("x") is :x (a plain str is an EDN string)."""


def edn(value):
    """A Python value as EDN text: None, bools, ints, floats, str (a string), Keyword,
    lists and tuples (vectors), sets (sets) and dicts (maps)."""
    if value is None:
        return "nil"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Keyword):
        return ":" + value
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        escaped = (value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
                   .replace("\r", "\\r").replace("\t", "\\t"))
        return '"' + escaped + '"'
    if isinstance(value, (list, tuple)):
        return "[" + " ".join(edn(v) for v in value) + "]"
    if isinstance(value, (set, frozenset)):
        return "#{" + " ".join(edn(v) for v in value) + "}"
    if isinstance(value, dict):
        return "{" + ", ".join(edn(k) + " " + edn(v) for k, v in value.items()) + "}"
    raise UsageError(f"no EDN for {type(value).__name__} value {value!r}")


_INT64_MIN, _INT64_MAX = -(2 ** 63), 2 ** 63 - 1
_TYPES = {"invoke": _capi.INVOKE, "ok": _capi.OK, "fail": _capi.FAIL, "info": _capi.INFO}


class History:
    """A history built event by event, in real-time order, for a harness that records as
    it goes. Each call is held to Jepsen's rules at once: an op completed twice, a second
    invocation while one is open, or an invocation after the process crashed raises
    InputError and leaves the history as it was."""

    def __init__(self, _handle=None):
        self._handle = _handle if _handle is not None else lib.ariadne_history_new()
        if not self._handle:
            raise InternalError("out of memory")

    @classmethod
    def read(cls, path, format=None):
        """A history file in any format the command line reads (format None: detected)."""
        handle = _capi.ctypes.c_void_p()
        _raise_for(lib.ariadne_history_read(os.fsencode(path), format and format.encode(),
                                            _capi.ctypes.byref(handle)))
        return cls(handle.value)

    @classmethod
    def parse(cls, text, format=None):
        """A history from text (str or bytes)."""
        data = text.encode() if isinstance(text, str) else bytes(text)
        handle = _capi.ctypes.c_void_p()
        _raise_for(lib.ariadne_history_parse(data, len(data), format and format.encode(),
                                             _capi.ctypes.byref(handle)))
        return cls(handle.value)

    def add(self, process, type, f, value=None, timestamp=None, key=None):
        """One event: `type` is "invoke", "ok", "fail" or "info" (":ok" too). A process
        that is no integer (Keyword("nemesis")) is no client: its event takes no part
        but keeps its place among the op ids. `timestamp`: when the event happened, an
        integer on one clock (time.monotonic_ns()); with timestamps, real time is their
        order, not the order of the calls (docs/formats.md, "Timestamps"). `key`:
        Porcupine's key, which the kv model reads."""
        name = str(type).lstrip(":")
        event = _capi.Event()
        lib.ariadne_event_init(_capi.ctypes.byref(event))
        if name not in _TYPES:
            raise UsageError(f"event type '{name}' is none of invoke, ok, fail, info")
        event.type = _TYPES[name]
        if not isinstance(process, int):
            event.process_edn = edn(process).encode()
        elif _INT64_MIN <= process <= _INT64_MAX:
            event.process = process
        else:
            raise InputError(f"history:{len(self) + 1}:1: process {process!r} is no 64-bit integer")
        if timestamp is not None:
            if not (isinstance(timestamp, int) and _INT64_MIN <= timestamp <= _INT64_MAX):
                raise InputError(f"history:{len(self) + 1}:1: the timestamp is no 64-bit integer")
            event.has_timestamp, event.timestamp = 1, timestamp
        event.f = None if f is None else str(f).lstrip(":").encode()
        event.value_edn = edn(value).encode()
        event.key_edn = None if key is None else edn(key).encode()
        _raise_for(lib.ariadne_history_add_event(self._handle, _capi.ctypes.byref(event)))
        return self

    def add_all(self, ops):
        """Appends a list of Jepsen-shaped op dicts ("process", "type", "f", and "value",
        "key" and "timestamp" when there are), as add() would one by one, at C speed."""
        if _capi._events is None or not isinstance(ops, (list, tuple)):
            for position, op in enumerate(ops):
                try:
                    process, kind, f = op["process"], op["type"], op.get("f")
                except (KeyError, TypeError, AttributeError) as error:
                    raise InputError(f"history:{position + 1}:1: an op needs \"process\", \"type\" and \"f\": "
                                     f"{op!r}") from error
                if f is None and isinstance(process, int):
                    raise InputError(f"history:{position + 1}:1: an op needs \"process\", \"type\" and \"f\": "
                                     f"{op!r}")
                self.add(process, kind, f, op.get("value"), op.get("timestamp"), op.get("key"))
            return self
        failed = _capi._events.add_all(self._handle, ops, _capi.address(lib.ariadne_history_add_event), Keyword)
        if failed is not None:
            _position, status, message = failed
            if message is None:
                _raise_for(status)
            raise _ERRORS.get(status, InternalError)(message)
        return self

    def invoke(self, process, f, value=None, timestamp=None):
        return self.add(process, "invoke", f, value, timestamp)

    def ok(self, process, f, value=None, timestamp=None):
        return self.add(process, "ok", f, value, timestamp)

    def fail(self, process, f, value=None, timestamp=None):
        return self.add(process, "fail", f, value, timestamp)

    def info(self, process, f, value=None, timestamp=None):
        return self.add(process, "info", f, value, timestamp)

    def __len__(self):
        return lib.ariadne_history_size(self._handle)

    def __del__(self):
        handle, self._handle = getattr(self, "_handle", None), None
        if handle:
            lib.ariadne_history_free(handle)


class Result:
    """The answer: verdict, and its evidence. Op ids are the invocations' positions among
    the events, from 0, as `ariadne check` numbers them."""

    def __init__(self, handle):
        def ids(function):
            pointer = _capi.ctypes.POINTER(_capi.ctypes.c_uint32)()
            count = function(handle, _capi.ctypes.byref(pointer))
            return pointer[:count] if count else []  # a slice copies at C speed

        text = lambda function: function(handle).decode(errors="replace")  # noqa: E731
        self.verdict = text(lib.ariadne_result_verdict)
        self.linearization = ids(lib.ariadne_result_linearization)
        self.core = ids(lib.ariadne_result_core)
        self.core_minimal = bool(lib.ariadne_result_core_minimal(handle))
        failing_op = lib.ariadne_result_failing_op(handle)
        self.failing_op = None if failing_op < 0 else failing_op
        self.explanation = text(lib.ariadne_result_explanation)
        self.why = text(lib.ariadne_result_why)  # the violation in one sentence ("" otherwise)
        self.failing_key = text(lib.ariadne_result_failing_key) or None
        self.reason = text(lib.ariadne_result_reason)
        self.engine = text(lib.ariadne_result_engine)
        self.keys = {lib.ariadne_result_key(handle, i).decode(): lib.ariadne_result_key_verdict(handle, i).decode()
                     for i in range(lib.ariadne_result_key_count(handle))}

    @property
    def linearizable(self):
        return self.verdict in ("linearizable", "sequentially-consistent")

    def __repr__(self):
        return f"<ariadne.Result {self.verdict}>"


def _history_of(history):
    if isinstance(history, History):
        return history
    if isinstance(history, (str, bytes, os.PathLike)):
        return History.read(history)
    return History().add_all(history)


def check(history, model, init=None, timeout=0, engine=None, consistency=None, independent=False, jobs=0,
          minimal_core=True):
    """Decides `history` (a list of op dicts, a path, or a History) under `model` (a name or
    spec: "register", "cas-register(0)", "kv", "independent(set)"...; `ariadne check
    --help` lists them), from the initial state `init` (a Python value; None: the
    spec's). `timeout` in seconds (0: none): past it the verdict is "unknown"."""
    built = _history_of(history)
    options = _capi.CheckOptions()
    lib.ariadne_check_options_init(_capi.ctypes.byref(options))
    options.timeout_seconds = float(timeout)
    options.engine = engine.encode() if engine else None
    options.consistency = consistency.encode() if consistency else None
    options.independent = 1 if independent else 0
    options.jobs = int(jobs)
    options.minimal_core = 1 if minimal_core else 0
    handle = _capi.ctypes.c_void_p()
    _raise_for(lib.ariadne_check(built._handle, str(model).encode(), None if init is None else edn(init).encode(),
                                 _capi.ctypes.byref(options), _capi.ctypes.byref(handle)))
    try:
        return Result(handle.value)
    finally:
        lib.ariadne_result_free(handle.value)
