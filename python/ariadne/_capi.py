"""The C API (include/ariadne/ariadne.h) through ctypes: loading libariadne_c.so and
declaring its functions. Nothing here is for users; ariadne/__init__.py is the API."""

import ctypes
import ctypes.util
import os

SUCCESS, USAGE_ERROR, INPUT_ERROR, INTERNAL_ERROR = 0, 64, 65, 70
INVOKE, OK, FAIL, INFO = 0, 1, 2, 3


class CheckOptions(ctypes.Structure):
    _fields_ = [("size", ctypes.c_size_t), ("timeout_seconds", ctypes.c_double),
                ("memory_limit_bytes", ctypes.c_uint64), ("engine", ctypes.c_char_p),
                ("consistency", ctypes.c_char_p), ("independent", ctypes.c_int),
                ("jobs", ctypes.c_uint), ("minimal_core", ctypes.c_int)]


class Event(ctypes.Structure):
    _fields_ = [("size", ctypes.c_size_t), ("process", ctypes.c_int64), ("process_edn", ctypes.c_char_p),
                ("type", ctypes.c_int), ("f", ctypes.c_char_p), ("value_edn", ctypes.c_char_p),
                ("key_edn", ctypes.c_char_p), ("has_timestamp", ctypes.c_int), ("timestamp", ctypes.c_int64)]


def _library_path():
    """$ARIADNE_LIBRARY, else the copy installed with the package, else the system's."""
    given = os.environ.get("ARIADNE_LIBRARY")
    if given:
        return given
    bundled = os.path.join(os.path.dirname(os.path.abspath(__file__)), "libariadne_c.so")
    if os.path.exists(bundled):
        return bundled
    found = ctypes.util.find_library("ariadne_c")
    if found:
        return found
    raise ImportError("ariadne: libariadne_c.so not found: install the package from a built source tree "
                      "(pip install ./python after make build), or set ARIADNE_LIBRARY to its path")


def _declare(lib):
    handle, text, size = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t
    ids = ctypes.POINTER(ctypes.POINTER(ctypes.c_uint32))
    signatures = {
        "ariadne_last_error": ([], text),
        "ariadne_version": ([], text),
        "ariadne_history_new": ([], handle),
        "ariadne_history_add": ([handle, ctypes.c_int64, ctypes.c_int, text, text], ctypes.c_int),
        "ariadne_event_init": ([ctypes.POINTER(Event)], None),
        "ariadne_history_add_event": ([handle, ctypes.POINTER(Event)], ctypes.c_int),
        "ariadne_history_size": ([handle], size),
        "ariadne_history_parse": ([text, size, text, ctypes.POINTER(handle)], ctypes.c_int),
        "ariadne_history_read": ([text, text, ctypes.POINTER(handle)], ctypes.c_int),
        "ariadne_history_free": ([handle], None),
        "ariadne_check_options_init": ([ctypes.POINTER(CheckOptions)], None),
        "ariadne_check": ([handle, text, text, ctypes.POINTER(CheckOptions), ctypes.POINTER(handle)], ctypes.c_int),
        "ariadne_result_verdict": ([handle], text),
        "ariadne_result_linearization": ([handle, ids], size),
        "ariadne_result_core": ([handle, ids], size),
        "ariadne_result_core_minimal": ([handle], ctypes.c_int),
        "ariadne_result_failing_op": ([handle], ctypes.c_int64),
        "ariadne_result_explanation": ([handle], text),
        "ariadne_result_why": ([handle], text),
        "ariadne_result_failing_key": ([handle], text),
        "ariadne_result_reason": ([handle], text),
        "ariadne_result_engine": ([handle], text),
        "ariadne_result_key_count": ([handle], size),
        "ariadne_result_key": ([handle, size], text),
        "ariadne_result_key_verdict": ([handle, size], text),
        "ariadne_result_free": ([handle], None),
    }
    for name, (arguments, result) in signatures.items():
        function = getattr(lib, name)
        function.argtypes = arguments
        function.restype = result
    return lib


lib = _declare(ctypes.CDLL(_library_path()))


def address(function):
    """A C function's address, for the _events extension to call it directly."""
    return ctypes.cast(function, ctypes.c_void_p).value


try:
    from . import _events  # the op-dict list at C speed (_events.c)
except ImportError:  # built without a C compiler: the Python loop does the same, slower
    _events = None
