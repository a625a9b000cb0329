// Package ariadne checks histories for linearizability with ariadne, from Go, in the
// shapes Porcupine users already record: []Operation with call and return timestamps,
// or []Event in real-time order. It calls the checker's C API (libariadne_c) through
// cgo: in the process, with no JSON file written and no command started, and every
// failure a typed *Error.
//
//	ops := []ariadne.Operation{
//		{ClientId: 0, Input: ariadne.RegisterInput{Op: "write", Value: 1}, Call: 0, Output: ariadne.RegisterOutput{}, Return: 10},
//		{ClientId: 1, Input: ariadne.RegisterInput{Op: "read"}, Call: 20, Output: ariadne.RegisterOutput{Value: 1}, Return: 30},
//	}
//	result, err := ariadne.Check(ariadne.RegisterModel(), ops, ariadne.Options{})
//	// result.Linearizable(), result.Linearization: indices into ops
//
// A Model names one of the checker's models (its spec, e.g. "cas-register" or "kv")
// and a Converter that makes each Input and Output an Op: the op's name, its
// invocation value, its completion value, and its outcome (ok, fail, or unknown).
// Values go to the checker as EDN text; a converter may give nil, bool, any integer
// or float, string, Keyword, EDN (text as is), Set, slices and arrays (vectors), maps,
// json.Number, and pointers to these.
//
// Build with the checker's headers and library where the C toolchain finds them:
//
//	CGO_CFLAGS=-I$ARIADNE/include CGO_LDFLAGS=-L$ARIADNE/lib LD_LIBRARY_PATH=$ARIADNE/lib go test ./...
package ariadne

import (
	"math"
	"time"
)

// Operation is one operation with its call and return timestamps, field for field
// Porcupine's (v1.0 and earlier: ariadne.Operation(op) converts one; later
// versions add Metadata, so copy the five fields in a loop).
//
// Return == math.MaxInt64 is Porcupine's "it never returned" (etcd's robustness
// tests record a request whose outcome is unknown so): the op's outcome is unknown.
type Operation struct {
	ClientId int // the client that ran it: one op at a time per client
	Input    interface{}
	Call     int64 // invocation timestamp
	Output   interface{}
	Return   int64 // response timestamp; math.MaxInt64: unknown outcome
}

// EventKind tags an Event as a call or a return, as Porcupine's does.
type EventKind bool

const (
	CallEvent   EventKind = false
	ReturnEvent EventKind = true
)

// Event is a call or a return, as Porcupine's Event: a call's Value is the Input,
// a return's the Output, and Id pairs them. A slice of Events is in real-time order.
// A call with no return is an op whose outcome is unknown.
type Event struct {
	ClientId int
	Kind     EventKind
	Value    interface{}
	Id       int
}

// Toggle is a switch whose zero value keeps the default, so that a zero Options is
// the checker's defaults.
type Toggle uint8

const (
	ToggleDefault Toggle = iota
	ToggleOn
	ToggleOff
)

// Options are `ariadne check`'s options; the zero value is its defaults.
type Options struct {
	// Timeout bounds the check (every phase of ariadne_check; putting the events
	// together before it is linear and not bounded); past it the verdict is
	// "unknown". 0: none.
	Timeout time.Duration
	// MemoryLimit bounds the search's memory, in bytes; 0: the default (2 GiB).
	MemoryLimit uint64
	// Engine: "" (auto), "wgl", "jit", "sat", "smt", "brute", "unique", "program-order".
	Engine string
	// Consistency: "" (linearizable), "sequential", "sequential-per-key".
	Consistency string
	// Independent: values are Jepsen's [key value] tuples, each key its own history.
	Independent bool
	// Jobs: threads at once; 0: every CPU the process may run on.
	Jobs int
	// MinimalCore: not linearizable, shrink the core to a minimal one (the default,
	// ToggleDefault, is on; ToggleOff skips it and reports the failing partition).
	MinimalCore Toggle
}

// Result is the checker's answer. Op indices are the caller's: for Check indices
// into the []Operation, for CheckEvents the index of each op's call Event.
type Result struct {
	// Verdict: "linearizable", "not-linearizable" or "unknown" (under Consistency
	// "sequential": "sequentially-consistent", "not-sequentially-consistent").
	Verdict string
	// Linearization (when linearizable): the ops in an order that explains every
	// result: every ok op, and each op of unknown outcome that took effect.
	Linearization []int
	// Core (when not): the ops, ascending, that no order explains whatever the
	// other ops did; CoreMinimal says no op of it can be spared.
	Core        []int
	CoreMinimal bool
	// FailingOp: the op whose completion no order of what came before explains
	// (Knossos' failing op), or -1.
	FailingOp int
	// Explanation says why not, in words, naming the caller's ops ("ops[5]"); the
	// event numbers in it are positions among the events as the checker got them.
	Explanation string
	// Why: the violation in one sentence, naming the caller's ops ("" otherwise).
	Why string
	// FailingKey: the key (EDN text, e.g. "\"k1\"") the core lies in, for keyed models.
	FailingKey string
	// Reason: why the verdict is unknown.
	Reason string
	// Engine: the engine whose answer was taken.
	Engine string
	// Keys: under Independent (or an independent(...) spec), each key (EDN text)
	// and its verdict.
	Keys map[string]string
}

// Linearizable reports whether the history was found linearizable.
func (r Result) Linearizable() bool { return r.Verdict == "linearizable" }

// Holds reports whether the condition checked holds (linearizable, or sequentially
// consistent under Consistency "sequential").
func (r Result) Holds() bool {
	return r.Verdict == "linearizable" || r.Verdict == "sequentially-consistent"
}

// Violated reports whether the history was refuted (Porcupine's Illegal).
func (r Result) Violated() bool {
	return r.Verdict == "not-linearizable" || r.Verdict == "not-sequentially-consistent"
}

// Unknown reports whether no verdict was reached (a timeout or the memory limit).
func (r Result) Unknown() bool { return !r.Holds() && !r.Violated() }

// Check decides whether ops, with their timestamps, are linearizable under model.
//
// Real time comes from the timestamps: the calls and returns are put in time order,
// and a call and a return at the same time count as concurrent (the call first), as
// Porcupine reads [Call, Return] as a closed interval. Ops with equal times keep
// their slice order. An op whose Return is math.MaxInt64, or whose converter says
// OutcomeUnknown, is a crashed op: it may take effect at any time after its call,
// or never.
func Check(model Model, ops []Operation, opts Options) (Result, error) {
	for i := range ops {
		if ops[i].Return < ops[i].Call {
			return Result{}, inputError("ops[%d]: Return %d is before Call %d", i, ops[i].Return, ops[i].Call)
		}
	}
	b, err := newBuilder(model, "ops", len(ops), opts)
	if err != nil {
		return Result{}, err
	}
	for i := range ops {
		b.client[i] = ops[i].ClientId
	}
	b.timed = ops
	var ok bool
	if b.order, ok = cArray[uint32](&b.memory, 2*len(ops)); !ok {
		b.memory.free()
		return Result{}, &Error{Status: StatusInternal, Message: "out of memory"}
	}
	b.order = b.order[:0]
	b.start(func(o int) (input, output interface{}, open bool) {
		// Porcupine's convention for an op that never returned: whatever Output holds
		// was not observed, so the converter is given nil.
		if ops[o].Return == math.MaxInt64 {
			return ops[o].Input, nil, true
		}
		return ops[o].Input, ops[o].Output, false
	})
	return b.run()
}

// CheckEvents decides whether events, in real-time order, are linearizable under
// model. Each call Event is matched by Id with its return Event; a call without
// one is an op of unknown outcome.
func CheckEvents(model Model, events []Event, opts Options) (Result, error) {
	// Pair calls and returns by Id; an op is known by its call's index.
	ids := newIntIndex(events)
	order := make([]uint32, 0, len(events))
	calls := make([]int, 0, len(events)/2+1)   // per op: its call Event's index
	returns := make([]int, 0, len(events)/2+1) // per op: its return Event's index, or -1
	for i := range events {
		e := &events[i]
		op, seen := ids.get(e.Id)
		if e.Kind == CallEvent {
			if seen {
				return Result{}, inputError("events[%d]: call with Id %d, which events[%d] already used", i, e.Id, calls[op])
			}
			op = len(calls)
			ids.set(e.Id, op)
			calls = append(calls, i)
			returns = append(returns, -1)
			order = append(order, uint32(op))
			continue
		}
		switch {
		case !seen:
			return Result{}, inputError("events[%d]: return with Id %d, which no earlier call has", i, e.Id)
		case returns[op] >= 0:
			return Result{}, inputError("events[%d]: second return with Id %d (the first is events[%d])", i, e.Id, returns[op])
		}
		returns[op] = i
		order = append(order, uint32(op)|returnBit)
	}
	b, err := newBuilder(model, "events", len(calls), opts)
	if err != nil {
		return Result{}, err
	}
	b.index, b.returnIndex, b.order = calls, returns, order
	for o, call := range calls {
		b.client[o] = events[call].ClientId
	}
	b.start(func(o int) (input, output interface{}, open bool) {
		if returns[o] < 0 {
			// no completion to add: the checker reads an invocation left open as a crashed op
			return events[calls[o]].Value, nil, true
		}
		return events[calls[o]].Value, events[returns[o]].Value, false
	})
	return b.run()
}

// Real time from timestamps: calls by Call, returns by Return, and where a call and a
// return share a time, the call first (closed intervals, as Porcupine: ops that touch
// are concurrent, which never refutes a history that a finer clock would find
// linearizable). Equal times keep slice order. Returns at math.MaxInt64 are left out:
// those ops never returned.
//
// The calls come in Call order (callOrder), and a merger streams the events: at each
// call, the returns due before it, from a heap of the ops called and not yet
// returned, then the call. The events come out as the ops are converted, with no
// sort of the returns (which are rarely in slice order), in time proportional to the
// ops times the log of how many are open at once.

// callOrder gives the op indices in Call order, or nil when that is the slice's order,
// as recorded histories usually have it.
func callOrder(ops []Operation) []uint32 {
	sorted := true
	for i := 1; i < len(ops) && sorted; i++ {
		sorted = ops[i].Call >= ops[i-1].Call
	}
	if sorted {
		return nil
	}
	calls := make([]uint32, len(ops))
	for i := range calls {
		calls[i] = uint32(i)
	}
	sortByTime(calls, ops, false)
	return calls
}

// merger puts the returns of the ops called so far in time order among the calls.
type merger struct {
	ops  []Operation
	heap []uint32 // ops called whose return is still to come, least (Return, index) first
}

// call appends to order the returns due before op o's call, then the call.
func (m *merger) call(order []uint32, o uint32) []uint32 {
	for len(m.heap) > 0 && m.ops[m.heap[0]].Return < m.ops[o].Call {
		order = append(order, m.pop()|returnBit)
	}
	order = append(order, o)
	if m.ops[o].Return != math.MaxInt64 {
		m.push(o)
	}
	return order
}

// finish appends the returns still to come.
func (m *merger) finish(order []uint32) []uint32 {
	for len(m.heap) > 0 {
		order = append(order, m.pop()|returnBit)
	}
	return order
}

func (m *merger) before(a, b uint32) bool {
	ra, rb := m.ops[a].Return, m.ops[b].Return
	return ra < rb || (ra == rb && a < b)
}

func (m *merger) push(o uint32) {
	h := append(m.heap, o)
	for i := len(h) - 1; i > 0; {
		parent := (i - 1) / 2
		if !m.before(h[i], h[parent]) {
			break
		}
		h[i], h[parent] = h[parent], h[i]
		i = parent
	}
	m.heap = h
}

func (m *merger) pop() uint32 {
	h := m.heap
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	for i := 0; ; {
		least, left, right := i, 2*i+1, 2*i+2
		if left < len(h) && m.before(h[left], h[least]) {
			least = left
		}
		if right < len(h) && m.before(h[right], h[least]) {
			least = right
		}
		if least == i {
			break
		}
		h[i], h[least] = h[least], h[i]
		i = least
	}
	m.heap = h
	return top
}

// timeOrder is the whole order at once (the converting goroutine streams it instead).
func timeOrder(ops []Operation) []uint32 {
	calls := callOrder(ops)
	m := merger{ops: ops}
	order := make([]uint32, 0, 2*len(ops))
	for k := range ops {
		o := uint32(k)
		if calls != nil {
			o = calls[k]
		}
		order = m.call(order, o)
	}
	return m.finish(order)
}

// sortByTime sorts op indices, given in ascending order, by their Call (or Return)
// time, stably, so that equal times keep slice order: an LSD radix sort on the times'
// bytes, skipping the bytes that all times share (most of them, for clocks that start
// near 0 or near a common epoch). It costs a few passes over the slice, where a
// comparison sort of 10^5 returns took milliseconds.
func sortByTime(index []uint32, ops []Operation, returns bool) {
	type entry struct {
		key uint64 // the time, its sign bit flipped: negative times first
		op  uint32
	}
	src := make([]entry, len(index))
	var and, or uint64 = ^uint64(0), 0
	for n, i := range index {
		t := ops[i].Call
		if returns {
			t = ops[i].Return
		}
		k := uint64(t) ^ (1 << 63)
		src[n] = entry{k, i}
		and &= k
		or |= k
	}
	varying := and ^ or // the bits in which some times differ
	dst := make([]entry, len(index))
	for shift := uint(0); shift < 64; shift += 8 {
		if (varying>>shift)&0xff == 0 {
			continue
		}
		var counts [257]int
		for _, e := range src {
			counts[(e.key>>shift)&0xff+1]++
		}
		for b := 1; b < 257; b++ {
			counts[b] += counts[b-1]
		}
		for _, e := range src {
			b := (e.key >> shift) & 0xff
			dst[counts[b]] = e
			counts[b]++
		}
		src, dst = dst, src
	}
	for n := range index {
		index[n] = src[n].op
	}
}
