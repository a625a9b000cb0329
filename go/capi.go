package ariadne

/*
#cgo LDFLAGS: -lariadne_c
#include <stdlib.h>
#include <string.h>
#include <ariadne/ariadne.h>

// ariadne_last_error() is the message of the last failed call on the calling OS thread,
// and a goroutine may change threads between two cgo calls: every call that can fail is
// made here, in C, together with the copy of its message.
static char* failure_message(void) { return strdup(ariadne_last_error()); }

// Adds the events of `order` in one crossing into C (a crossing costs about 100 ns, an
// event far less). order[i] is an op number, with the top bit set for its completion;
// each op's fields are in per-op arrays, its strings as addresses of NUL-terminated C
// text (0 for nil; a key of 0: none). On the first refused event: its index in
// *failed, its status returned, its message in *message (malloc'd), and the events
// before it added.
static int add_events(ariadne_history* history, const uint32_t* order, size_t n, const int64_t* process,
                      const uintptr_t* f, const uintptr_t* key, const uintptr_t* value, const uintptr_t* result,
                      const uint8_t* completion, size_t* failed, char** message) {
	ariadne_event event;
	ariadne_event_init(&event);
	for (size_t i = 0; i < n; i++) {
		uint32_t op = order[i] & 0x7fffffffu;
		int is_completion = (order[i] >> 31) != 0;
		event.process = process[op];
		event.type = is_completion ? (ariadne_event_type)completion[op] : ARIADNE_INVOKE;
		event.f = (const char*)f[op];
		event.key_edn = (const char*)key[op];
		event.value_edn = (const char*)(is_completion ? result[op] : value[op]);
		ariadne_status status = ariadne_history_add_event(history, &event);
		if (status != ARIADNE_SUCCESS) {
			*failed = i;
			*message = failure_message();
			return status;
		}
	}
	return ARIADNE_SUCCESS;
}

static int run_check(const ariadne_history* history, const char* model, const char* init, double timeout_seconds,
                     uint64_t memory_limit_bytes, const char* engine, const char* consistency, int independent,
                     unsigned jobs, int minimal_core, ariadne_result** out, char** message) {
	ariadne_check_options options;
	ariadne_check_options_init(&options);
	options.timeout_seconds = timeout_seconds;
	options.memory_limit_bytes = memory_limit_bytes;
	options.engine = engine;
	options.consistency = consistency;
	options.independent = independent;
	options.jobs = jobs;
	if (minimal_core >= 0) options.minimal_core = minimal_core;
	ariadne_status status = ariadne_check(history, model, init, &options, out);
	if (status != ARIADNE_SUCCESS) *message = failure_message();
	return status;
}
*/
import "C"

import (
	"unsafe"
)

// Version is the linked library's version, e.g. "0.2.0".
func Version() string { return C.GoString(C.ariadne_version()) }

// cFailure makes an *Error of a status and the message C allocated, which it frees.
func cFailure(status C.int, message *C.char) *Error {
	e := &Error{Status: int(status), Message: "the checker failed with no message"}
	if message != nil {
		e.Message = C.GoString(message)
		C.free(unsafe.Pointer(message))
	}
	return e
}

// cString is a C copy of s, or NULL for "" (the C API's "the default").
func cString(s string) *C.char {
	if s == "" {
		return nil
	}
	return C.CString(s)
}

func freeCString(s *C.char) {
	if s != nil {
		C.free(unsafe.Pointer(s))
	}
}

// Event types, as in ariadne.h.
const (
	eventInvoke uint8 = C.ARIADNE_INVOKE
	eventOK     uint8 = C.ARIADNE_OK
	eventFail   uint8 = C.ARIADNE_FAIL
	eventInfo   uint8 = C.ARIADNE_INFO
)

func newHistory() (*C.ariadne_history, *Error) {
	history := C.ariadne_history_new()
	if history == nil {
		return nil, &Error{Status: StatusInternal, Message: "out of memory (ariadne_history_new)"}
	}
	return history, nil
}

// addEvents adds the events to the C history; on a refused one, its index among
// them and the error.
//
// The slices passed hold no Go pointers (C addresses are kept as uintptr), and C
// keeps none of them past the call: what cgo's rules for passing Go memory ask,
// checked at no cost per element.
func addEvents(history *C.ariadne_history, b *builder, events []uint32) (int, *Error) {
	if len(events) == 0 {
		return -1, nil
	}
	var failed C.size_t
	var message *C.char
	status := C.add_events(history, (*C.uint32_t)(unsafe.Pointer(&events[0])), C.size_t(len(events)),
		(*C.int64_t)(unsafe.Pointer(&b.process[0])), (*C.uintptr_t)(unsafe.Pointer(&b.f[0])),
		(*C.uintptr_t)(unsafe.Pointer(&b.key[0])), (*C.uintptr_t)(unsafe.Pointer(&b.value[0])), (*C.uintptr_t)(unsafe.Pointer(&b.result[0])),
		(*C.uint8_t)(unsafe.Pointer(&b.completion[0])), &failed, &message)
	if status != C.ARIADNE_SUCCESS {
		return int(failed), cFailure(status, message)
	}
	return -1, nil
}

func freeHistory(history *C.ariadne_history) {
	if history != nil {
		C.ariadne_history_free(history)
	}
}

// cMemory owns C allocations, freed together.
type cMemory struct {
	blocks []unsafe.Pointer
}

// cArray is a zeroed slice of n Ts in C memory (nil for n == 0), and false when
// memory is exhausted. T must hold no Go pointers.
func cArray[T any](m *cMemory, n int) ([]T, bool) {
	if n == 0 {
		return nil, true
	}
	var zero T
	block := C.calloc(C.size_t(n), C.size_t(unsafe.Sizeof(zero)))
	if block == nil {
		return nil, false
	}
	m.blocks = append(m.blocks, block)
	return unsafe.Slice((*T)(block), n), true
}

func (m *cMemory) free() {
	for _, block := range m.blocks {
		C.free(block)
	}
	m.blocks = nil
}

// arena holds converted text in C memory: it does not move as it grows, so events
// can be added while more ops are converted, and the garbage collector never scans it.
type arena struct {
	blocks  []unsafe.Pointer
	current unsafe.Pointer
	used    int
	size    int
}

const arenaBlock = 1 << 20

// add copies s (NUL-terminated) into the arena and returns its C address, or 0 when
// memory is exhausted.
func (a *arena) add(s []byte) uintptr {
	if a.current == nil || a.used+len(s) > a.size {
		size := arenaBlock
		if len(s) > size {
			size = len(s)
		}
		block := C.malloc(C.size_t(size))
		if block == nil {
			return 0
		}
		a.blocks = append(a.blocks, block)
		a.current, a.used, a.size = block, 0, size
	}
	at := unsafe.Add(a.current, a.used)
	copy(unsafe.Slice((*byte)(at), len(s)), s)
	a.used += len(s)
	return uintptr(at)
}

func (a *arena) free() {
	for _, block := range a.blocks {
		C.free(block)
	}
	*a = arena{}
}

// runCheck checks the C history and reads the answer into a Result whose op ids
// are still the checker's (positions of invocations among the events).
func runCheck(history *C.ariadne_history, spec string, init []byte, opts Options) (rawResult, *Error) {
	model := C.CString(spec)
	defer C.free(unsafe.Pointer(model))
	var cInit *C.char
	if init != nil {
		cInit = C.CString(string(init))
		defer C.free(unsafe.Pointer(cInit))
	}
	engine := cString(opts.Engine)
	defer freeCString(engine)
	consistency := cString(opts.Consistency)
	defer freeCString(consistency)
	independent := C.int(0)
	if opts.Independent {
		independent = 1
	}
	minimalCore := C.int(-1) // the library's default: shrink the core
	switch opts.MinimalCore {
	case ToggleOn:
		minimalCore = 1
	case ToggleOff:
		minimalCore = 0
	}
	var result *C.ariadne_result
	var message *C.char
	status := C.run_check(history, model, cInit, C.double(opts.Timeout.Seconds()), C.uint64_t(opts.MemoryLimit),
		engine, consistency, independent, C.unsigned(opts.Jobs), minimalCore, &result, &message)
	if status != C.ARIADNE_SUCCESS {
		if result != nil {
			C.ariadne_result_free(result)
		}
		return rawResult{}, cFailure(status, message)
	}
	defer C.ariadne_result_free(result)

	var raw rawResult
	raw.verdict = C.GoString(C.ariadne_result_verdict(result))
	var ids *C.uint32_t
	if n := C.ariadne_result_linearization(result, &ids); n > 0 {
		raw.linearization = append([]uint32(nil), unsafe.Slice((*uint32)(unsafe.Pointer(ids)), int(n))...)
	}
	if n := C.ariadne_result_core(result, &ids); n > 0 {
		raw.core = append([]uint32(nil), unsafe.Slice((*uint32)(unsafe.Pointer(ids)), int(n))...)
	}
	raw.coreMinimal = C.ariadne_result_core_minimal(result) != 0
	raw.failingOp = int64(C.ariadne_result_failing_op(result))
	raw.explanation = C.GoString(C.ariadne_result_explanation(result))
	raw.why = C.GoString(C.ariadne_result_why(result))
	raw.failingKey = C.GoString(C.ariadne_result_failing_key(result))
	raw.reason = C.GoString(C.ariadne_result_reason(result))
	raw.engine = C.GoString(C.ariadne_result_engine(result))
	if n := int(C.ariadne_result_key_count(result)); n > 0 {
		raw.keys = make(map[string]string, n)
		for i := 0; i < n; i++ {
			raw.keys[C.GoString(C.ariadne_result_key(result, C.size_t(i)))] =
				C.GoString(C.ariadne_result_key_verdict(result, C.size_t(i)))
		}
	}
	return raw, nil
}

// rawResult is the C answer copied into Go, op ids unmapped.
type rawResult struct {
	verdict       string
	linearization []uint32
	core          []uint32
	coreMinimal   bool
	failingOp     int64
	explanation   string
	why           string
	failingKey    string
	reason        string
	engine        string
	keys          map[string]string
}
