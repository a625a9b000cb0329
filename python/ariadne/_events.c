/* Adds a list of Jepsen-shaped op dicts to a history in one call: what
 * ariadne/__init__.py's loop over History.add does, at C speed. A Python loop costs
 * about 5 us an event (dict lookups, the value's EDN text, a ctypes call), ten times
 * what checking the history costs; here it is a tenth of a microsecond.
 *
 * It calls the C API through the function pointers ctypes found in the one copy of
 * libariadne_c.so the package loaded (add_all's arguments), so it links against
 * nothing: two copies of the library in one process would each have their own
 * histories and messages.
 *
 * The value's EDN text is edn() of ariadne/__init__.py, character for character; the
 * package's tests hold the two to each other. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <ariadne/ariadne.h>

#include <stdint.h>
#include <string.h>

typedef ariadne_status (*add_event_function)(ariadne_history*, const ariadne_event*);

/* A growing byte buffer for one value's EDN text. */
typedef struct {
  char* data;
  size_t size;
  size_t capacity;
} Buffer;

static int buffer_put(Buffer* buffer, const char* bytes, size_t count) {
  if (buffer->size + count + 1 > buffer->capacity) {
    size_t capacity = buffer->capacity ? buffer->capacity : 64;
    while (buffer->size + count + 1 > capacity) capacity *= 2;
    char* grown = PyMem_Realloc(buffer->data, capacity);
    if (grown == NULL) {
      PyErr_NoMemory();
      return -1;
    }
    buffer->data = grown;
    buffer->capacity = capacity;
  }
  memcpy(buffer->data + buffer->size, bytes, count);
  buffer->size += count;
  buffer->data[buffer->size] = '\0';
  return 0;
}

static int buffer_text(Buffer* buffer, const char* text) { return buffer_put(buffer, text, strlen(text)); }

/* `object`'s str() (or repr()) as UTF-8, appended. */
static int buffer_object_text(Buffer* buffer, PyObject* object, int repr) {
  PyObject* text = repr ? PyObject_Repr(object) : PyObject_Str(object);
  if (text == NULL) return -1;
  Py_ssize_t length = 0;
  const char* bytes = PyUnicode_AsUTF8AndSize(text, &length);
  const int status = bytes == NULL ? -1 : buffer_put(buffer, bytes, (size_t)length);
  Py_DECREF(text);
  return status;
}

static int buffer_string(Buffer* buffer, PyObject* string) {
  Py_ssize_t length = 0;
  const char* bytes = PyUnicode_AsUTF8AndSize(string, &length);
  if (bytes == NULL || buffer_put(buffer, "\"", 1) < 0) return -1;
  for (Py_ssize_t i = 0; i < length; ++i) {
    const char* escaped = NULL;
    switch (bytes[i]) {
      case '\\': escaped = "\\\\"; break;
      case '"': escaped = "\\\""; break;
      case '\n': escaped = "\\n"; break;
      case '\r': escaped = "\\r"; break;
      case '\t': escaped = "\\t"; break;
      default: break;
    }
    if (escaped ? buffer_text(buffer, escaped) < 0 : buffer_put(buffer, bytes + i, 1) < 0) return -1;
  }
  return buffer_put(buffer, "\"", 1);
}

static int buffer_edn(Buffer* buffer, PyObject* value, PyObject* keyword_type, int depth);

/* Elements of a list, tuple, set or frozenset, between `open` and `close`. */
static int buffer_elements(Buffer* buffer, PyObject* collection, const char* open, const char* close,
                           PyObject* keyword_type, int depth) {
  if (buffer_text(buffer, open) < 0) return -1;
  PyObject* iterator = PyObject_GetIter(collection);
  if (iterator == NULL) return -1;
  PyObject* element;
  int first = 1;
  while ((element = PyIter_Next(iterator)) != NULL) {
    const int status = (first ? 0 : buffer_put(buffer, " ", 1)) < 0 ? -1 : buffer_edn(buffer, element, keyword_type, depth);
    Py_DECREF(element);
    if (status < 0) {
      Py_DECREF(iterator);
      return -1;
    }
    first = 0;
  }
  Py_DECREF(iterator);
  return PyErr_Occurred() ? -1 : buffer_text(buffer, close);
}

static int buffer_edn(Buffer* buffer, PyObject* value, PyObject* keyword_type, int depth) {
  if (depth > 1000) {
    PyErr_SetString(PyExc_ValueError, "a value nested deeper than 1,000 levels");
    return -1;
  }
  if (value == Py_None) return buffer_text(buffer, "nil");
  if (PyBool_Check(value)) return buffer_text(buffer, value == Py_True ? "true" : "false");
  if (PyLong_CheckExact(value)) {
    int overflow = 0;
    const long long number = PyLong_AsLongLongAndOverflow(value, &overflow);
    if (overflow == 0) {
      if (number == -1 && PyErr_Occurred()) return -1;
      char digits[32];
      snprintf(digits, sizeof digits, "%lld", number);
      return buffer_text(buffer, digits);
    }
    return buffer_object_text(buffer, value, 0);
  }
  if (PyUnicode_Check(value)) {
    const int keyword = PyObject_IsInstance(value, keyword_type);
    if (keyword < 0) return -1;
    if (keyword) return buffer_put(buffer, ":", 1) < 0 ? -1 : buffer_object_text(buffer, value, 0);
    return buffer_string(buffer, value);
  }
  if (PyLong_Check(value)) return buffer_object_text(buffer, value, 0);
  if (PyFloat_Check(value)) return buffer_object_text(buffer, value, 1);
  if (PyList_Check(value) || PyTuple_Check(value)) return buffer_elements(buffer, value, "[", "]", keyword_type, depth + 1);
  if (PyAnySet_Check(value)) return buffer_elements(buffer, value, "#{", "}", keyword_type, depth + 1);
  if (PyDict_Check(value)) {
    if (buffer_put(buffer, "{", 1) < 0) return -1;
    Py_ssize_t at = 0;
    PyObject* key;
    PyObject* entry;
    int first = 1;
    while (PyDict_Next(value, &at, &key, &entry)) {
      if ((!first && buffer_text(buffer, ", ") < 0) || buffer_edn(buffer, key, keyword_type, depth + 1) < 0 ||
          buffer_put(buffer, " ", 1) < 0 || buffer_edn(buffer, entry, keyword_type, depth + 1) < 0) {
        return -1;
      }
      first = 0;
    }
    return buffer_put(buffer, "}", 1);
  }
  PyErr_Format(PyExc_TypeError, "no EDN for %s value %R", Py_TYPE(value)->tp_name, value);
  return -1;
}

/* A field's text as UTF-8, a leading ':' dropped (Jepsen's ":ok", ":read"). */
static const char* bare_name(PyObject* object, PyObject** holder) {
  *holder = PyObject_Str(object);
  if (*holder == NULL) return NULL;
  const char* text = PyUnicode_AsUTF8(*holder);
  while (text != NULL && *text == ':') ++text;
  return text;
}

static int event_type_named(const char* name, ariadne_event_type* type) {
  static const struct {
    const char* name;
    ariadne_event_type type;
  } types[] = {{"invoke", ARIADNE_INVOKE}, {"ok", ARIADNE_OK}, {"fail", ARIADNE_FAIL}, {"info", ARIADNE_INFO}};
  for (size_t i = 0; i < sizeof types / sizeof types[0]; ++i) {
    if (strcmp(name, types[i].name) == 0) {
      *type = types[i].type;
      return 1;
    }
  }
  return 0;
}

/* The failure add_all returns: (position, status, message), message None when the
 * C API's ariadne_last_error() says it. */
static PyObject* failure(Py_ssize_t position, int status, const char* message) {
  if (message == NULL) return Py_BuildValue("(niO)", position, status, Py_None);
  return Py_BuildValue("(nis)", position, status, message);
}

/* Appends `value`'s EDN text to `buffer` and returns 0, or returns 1 with `message`
 * set when the value has no EDN (a usage error), or -1 on another Python error. */
static int value_text(Buffer* buffer, PyObject* value, PyObject* keyword_type, char* message, size_t size) {
  if (buffer_edn(buffer, value, keyword_type, 0) == 0) return 0;
  if (!PyErr_ExceptionMatches(PyExc_TypeError) && !PyErr_ExceptionMatches(PyExc_ValueError)) return -1;
  PyObject *kind, *error, *trace;
  PyErr_Fetch(&kind, &error, &trace);
  PyObject* shown = error == NULL ? NULL : PyObject_Str(error);
  const char* text = shown == NULL ? NULL : PyUnicode_AsUTF8(shown);
  snprintf(message, size, "%.400s", text == NULL ? "a value with no EDN" : text);
  Py_XDECREF(shown);
  Py_XDECREF(kind);
  Py_XDECREF(error);
  Py_XDECREF(trace);
  PyErr_Clear();
  return 1;
}

/* An integer field as int64: 0, or 1 when it is no integer or does not fit. */
static int int64_of(PyObject* object, int64_t* out) {
  if (!PyLong_Check(object)) return 1;
  int overflow = 0;
  const long long number = PyLong_AsLongLongAndOverflow(object, &overflow);
  if (overflow != 0 || (number == -1 && PyErr_Occurred())) {
    PyErr_Clear();
    return 1;
  }
  *out = number;
  return 0;
}

/* add_all(history, ops, add_event, keyword_type): None when every op was added, else
 * (position, status, message) for the first that was not (ops before it stay added,
 * as with the Python loop); message None when the C API's ariadne_last_error() says
 * it. Python exceptions other than bad values (memory) propagate. */
static PyObject* add_all(PyObject* self, PyObject* args) {
  (void)self;
  PyObject* history_address;
  PyObject* ops;
  PyObject* add_address;
  PyObject* keyword_type;
  if (!PyArg_ParseTuple(args, "OOOO", &history_address, &ops, &add_address, &keyword_type)) return NULL;
  ariadne_history* history = PyLong_AsVoidPtr(history_address);
  add_event_function add_event = (add_event_function)PyLong_AsVoidPtr(add_address);
  if (PyErr_Occurred()) return NULL;
  PyObject* sequence = PySequence_Fast(ops, "the history must be a list of op dicts");
  if (sequence == NULL) return NULL;

  static PyObject *process_key, *type_key, *f_key, *value_key, *key_key, *timestamp_key;
  if (process_key == NULL) {
    process_key = PyUnicode_InternFromString("process");
    type_key = PyUnicode_InternFromString("type");
    f_key = PyUnicode_InternFromString("f");
    value_key = PyUnicode_InternFromString("value");
    key_key = PyUnicode_InternFromString("key");
    timestamp_key = PyUnicode_InternFromString("timestamp");
  }

  Buffer value = {NULL, 0, 0}, process_text = {NULL, 0, 0}, key_text = {NULL, 0, 0};
  PyObject* result = NULL;
  char message[512];
  const Py_ssize_t count = PySequence_Fast_GET_SIZE(sequence);
  PyObject** items = PySequence_Fast_ITEMS(sequence);
  for (Py_ssize_t position = 0; position < count; ++position) {
    PyObject* op = items[position];
    if (!PyDict_Check(op)) {
      snprintf(message, sizeof message, "history:%zd:1: an op is a dict, found %.100s", position + 1,
               Py_TYPE(op)->tp_name);
      result = failure(position, ARIADNE_INPUT_ERROR, message);
      goto done;
    }
    PyObject* process = PyDict_GetItemWithError(op, process_key);
    PyObject* type = PyDict_GetItemWithError(op, type_key);
    PyObject* f = PyDict_GetItemWithError(op, f_key);
    PyObject* given_value = PyDict_GetItemWithError(op, value_key);
    PyObject* key = PyDict_GetItemWithError(op, key_key);
    PyObject* timestamp = PyDict_GetItemWithError(op, timestamp_key);
    if (PyErr_Occurred()) goto done;
    const int client = process != NULL && PyLong_Check(process);
    if (process == NULL || type == NULL || (f == NULL && client)) {
      PyObject* shown = PyObject_Repr(op);
      if (shown == NULL) goto done;
      snprintf(message, sizeof message, "history:%zd:1: an op needs \"process\", \"type\" and \"f\": %.300s",
               position + 1, PyUnicode_AsUTF8(shown));
      Py_DECREF(shown);
      result = failure(position, ARIADNE_INPUT_ERROR, message);
      goto done;
    }
    ariadne_event event;
    memset(&event, 0, sizeof event);
    event.size = sizeof event;
    if (client && int64_of(process, &event.process) != 0) {
      PyObject* shown = PyObject_Repr(process);
      if (shown == NULL) goto done;
      snprintf(message, sizeof message, "history:%zd:1: process %.200s is no 64-bit integer", position + 1,
               PyUnicode_AsUTF8(shown));
      Py_DECREF(shown);
      result = failure(position, ARIADNE_INPUT_ERROR, message);
      goto done;
    }
    if (timestamp != NULL && timestamp != Py_None) {
      if (int64_of(timestamp, &event.timestamp) != 0) {
        snprintf(message, sizeof message, "history:%zd:1: the timestamp is no 64-bit integer", position + 1);
        result = failure(position, ARIADNE_INPUT_ERROR, message);
        goto done;
      }
      event.has_timestamp = 1;
    }
    PyObject* type_text;
    const char* type_name = bare_name(type, &type_text);
    if (type_name == NULL) goto done;
    const int known = event_type_named(type_name, &event.type);
    if (!known) snprintf(message, sizeof message, "event type '%.100s' is none of invoke, ok, fail, info", type_name);
    Py_DECREF(type_text);
    if (!known) {
      result = failure(position, ARIADNE_USAGE_ERROR, message);
      goto done;
    }
    value.size = process_text.size = key_text.size = 0;
    int status = value_text(&value, given_value == NULL ? Py_None : given_value, keyword_type, message, sizeof message);
    if (status == 0 && !client) status = value_text(&process_text, process, keyword_type, message, sizeof message);
    if (status == 0 && key != NULL && key != Py_None) {
      status = value_text(&key_text, key, keyword_type, message, sizeof message);
      event.key_edn = key_text.data;
    }
    if (status < 0) goto done;
    if (status > 0) {
      result = failure(position, ARIADNE_USAGE_ERROR, message);
      goto done;
    }
    event.value_edn = value.data;
    event.process_edn = client ? NULL : process_text.data;
    PyObject* f_text = NULL;
    event.f = f == NULL ? NULL : bare_name(f, &f_text);
    if (f != NULL && event.f == NULL) goto done;
    const ariadne_status added = add_event(history, &event);
    Py_XDECREF(f_text);
    if (added != ARIADNE_SUCCESS) {
      result = failure(position, added, NULL);
      goto done;
    }
  }
  result = Py_None;
  Py_INCREF(result);
done:
  PyMem_Free(value.data);
  PyMem_Free(process_text.data);
  PyMem_Free(key_text.data);
  Py_DECREF(sequence);
  return result;
}

static PyMethodDef methods[] = {
    {"add_all", add_all, METH_VARARGS, "Adds a list of op dicts to a history through the C API."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "ariadne._events", NULL, -1, methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__events(void) { return PyModule_Create(&module); }
