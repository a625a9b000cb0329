package ariadne

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// From the caller's ops to a checked C history.
//
// The converter runs on its own goroutine while the calling goroutine adds the events
// already converted to the C history, chunk by chunk in time order: adding an event
// (the C API parses its value and pairs it) costs several times what converting it
// does, so the conversion is hidden behind it. Converted strings go to C memory (the
// arena, in capi.go), which neither moves nor is scanned by Go's garbage collector,
// and the per-op fields to flat slices without pointers.

// noCompletion is the completion kind of an op that never returned.
const noCompletion = 0xff

// returnBit marks an event of an order as the return of the op in the other bits.
const returnBit = 1 << 31

type builder struct {
	model       Model
	opts        Options
	init        []byte
	label       string      // "ops" or "events": what the caller's indices index
	timed       []Operation // Check: the ops, for their timestamps; nil for CheckEvents
	index       []int       // CheckEvents: per op, its call Event's index (nil: op i is ops[i])
	returnIndex []int       // CheckEvents: per op, its return Event's index or -1
	client      []int       // per op: its ClientId

	// Written by the converting goroutine, op by op; read by the adding one for the
	// ops it has been told are done.
	f, value, result []uintptr // C addresses of NUL-terminated text; 0: nil
	key              []uintptr // the invocation's key; 0: none
	completion       []uint8   // eventOK, eventFail, eventInfo, or noCompletion
	arena            arena
	memory           cMemory            // the per-op arrays
	names            map[string]uintptr // op name -> its text
	scratch          []byte

	process []int64 // the checker's process, set when the op's call is placed

	// The events in time order, each an op number with returnBit for its return:
	// given (CheckEvents), or streamed by the converting goroutine (Check) into this
	// slice's capacity, the array never moving, as far as it reports.
	order []uint32

	reports chan progress // from the converting goroutine
	stop    chan struct{} // to it
}

func newBuilder(model Model, label string, n int, opts Options) (*builder, error) {
	if model.Spec == "" {
		return nil, &Error{Status: StatusUsage, Message: "the Model has no Spec (e.g. \"cas-register\")"}
	}
	if model.Convert == nil {
		return nil, &Error{Status: StatusUsage, Message: "the Model has no Convert function (e.g. ariadne.ConvertRegister)"}
	}
	if opts.Jobs < 0 || opts.Timeout < 0 {
		return nil, &Error{Status: StatusUsage, Message: "Options.Jobs and Options.Timeout may not be negative"}
	}
	if n >= returnBit {
		return nil, &Error{Status: StatusUsage, Message: fmt.Sprintf("%d ops: at most 2^31 - 1 at once", n)}
	}
	b := &builder{model: model, opts: opts, label: label, names: make(map[string]uintptr)}
	if model.Init != nil {
		init, err := appendEDN(nil, model.Init)
		if err != nil {
			return nil, &Error{Status: StatusUsage, Message: "the Model's Init: " + err.Error(), Err: err}
		}
		b.init = init
	}
	// The per-op arrays live in C memory: they hold no Go pointers, the C loops read
	// them, and a history of 10^5 ops would otherwise add megabytes to the Go heap,
	// and with them a garbage collection of the caller's whole heap during the check.
	ok := true
	addresses := func() []uintptr {
		a, allocated := cArray[uintptr](&b.memory, n)
		ok = ok && allocated
		return a
	}
	b.f, b.value, b.result, b.key = addresses(), addresses(), addresses(), addresses()
	var allocated [3]bool
	b.client, allocated[0] = cArray[int](&b.memory, n)
	b.completion, allocated[1] = cArray[uint8](&b.memory, n)
	b.process, allocated[2] = cArray[int64](&b.memory, n)
	ok = ok && allocated[0] && allocated[1] && allocated[2]
	if !ok {
		b.memory.free()
		return nil, &Error{Status: StatusInternal, Message: "out of memory"}
	}
	return b, nil
}

// source gives op o's Input and Output, and whether it never returned.
type source func(o int) (input, output interface{}, open bool)

// progress is what the converting goroutine reports: how many events of the order
// have their ops converted, whether it is finished, or why it stopped.
type progress struct {
	events int
	final  bool
	err    error
}

// convertAll converts every op and reports, every batch of ops, how many events are
// ready, until it is finished, fails, or is stopped. It closes out when it returns.
//
// Check's ops are converted in Call order, each op as its call is placed, and the
// events are streamed into b.order; CheckEvents' order is given, and the events
// before the call of the first op not yet converted are ready.
func (b *builder) convertAll(src source, out chan<- progress, stop <-chan struct{}) {
	defer close(out)
	const batch = 2048
	n := len(b.f)
	var calls []uint32 // Check: the ops in Call order, nil for the slice's order
	var m merger
	order := b.order // Check: filled within its capacity, so the array never moves
	if b.timed != nil {
		calls = callOrder(b.timed)
		m.ops = b.timed
	}
	for k := 0; k < n; k++ {
		o := k
		if calls != nil {
			o = int(calls[k])
		}
		input, output, open := src(o)
		if err := b.convert(o, input, output, open); err != nil {
			out <- progress{err: err}
			return
		}
		if b.timed != nil {
			order = m.call(order, uint32(o))
		}
		if (k+1)%batch == 0 && k+1 < n {
			ready := len(order)
			if b.timed == nil {
				ready = b.index[k+1] // CheckEvents: the events before op k+1's call
			}
			select {
			case out <- progress{events: ready}:
			case <-stop:
				return
			}
		}
	}
	if b.timed != nil {
		order = m.finish(order)
	}
	out <- progress{events: len(order), final: true}
}

// convert runs the converter on op o and stores what it gives. A converter that
// panics is reported as its op's error: it runs on another goroutine than the
// caller's, where a panic could not be recovered by the caller.
func (b *builder) convert(o int, input, output interface{}, open bool) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = &Error{Status: StatusInput, Message: fmt.Sprintf("%s: the converter panicked: %v", b.opName(o), p)}
		}
	}()
	op, err := b.model.Convert(input, output)
	if err != nil {
		return &Error{Status: StatusInput, Message: b.opName(o) + ": " + err.Error(), Err: err}
	}
	if op.F == "" {
		return inputError("%s: the converter gave the op no name (Op.F)", b.opName(o))
	}
	if open {
		op.Outcome = OutcomeUnknown
	}
	switch op.Outcome {
	case OutcomeOK:
		b.completion[o] = eventOK
	case OutcomeFail:
		b.completion[o] = eventFail
	case OutcomeUnknown:
		b.completion[o] = eventInfo
	default:
		return inputError("%s: the converter gave an outcome that is none of OK, Fail, Unknown (%d)", b.opName(o), op.Outcome)
	}
	if open {
		// Nothing to complete: the checker reads an invocation left open as a crashed op.
		b.completion[o] = noCompletion
	}
	name, ok := b.names[op.F]
	if !ok {
		if name = b.arena.add(append([]byte(op.F), 0)); name == 0 {
			return b.valueError(o, "its name", errOutOfMemory)
		}
		b.names[op.F] = name
	}
	b.f[o] = name
	if b.value[o], err = b.text(op.Value); err != nil {
		return b.valueError(o, "the invocation's value", err)
	}
	// A completion repeats the invocation's value unless it returned another. An
	// unknown outcome's completion carries none: nothing was seen, and the checker
	// keeps a crashed op's invocation value.
	switch {
	case op.Outcome == OutcomeUnknown:
		b.result[o] = 0
	case op.Result == nil:
		b.result[o] = b.value[o]
	default:
		if b.result[o], err = b.text(op.Result); err != nil {
			return b.valueError(o, "the completion's value", err)
		}
	}
	if op.Key != nil {
		if b.key[o], err = b.text(op.Key); err != nil {
			return b.valueError(o, "the key", err)
		}
	}
	return nil
}

// text writes v as EDN into the arena; 0 for nil.
func (b *builder) text(v interface{}) (uintptr, error) {
	if v == nil {
		return 0, nil
	}
	var err error
	if b.scratch, err = appendEDN(b.scratch[:0], v); err != nil {
		return 0, err
	}
	b.scratch = append(b.scratch, 0)
	at := b.arena.add(b.scratch)
	if at == 0 {
		return 0, errOutOfMemory
	}
	return at, nil
}

// errOutOfMemory is the arena's failure; valueError keeps it an internal error.
var errOutOfMemory = errors.New("out of memory")

// valueError names op o's value that failed to convert: bad input, unless memory ran out.
func (b *builder) valueError(o int, which string, err error) error {
	if err == errOutOfMemory {
		return &Error{Status: StatusInternal, Message: b.opName(o) + ": out of memory"}
	}
	return &Error{Status: StatusInput, Message: b.opName(o) + ": " + which + ": " + err.Error()}
}

// caller is the caller's index of op o: ops[o], or the index of its call Event.
func (b *builder) caller(o int) int {
	if b.index == nil {
		return o
	}
	return b.index[o]
}

// opName is how messages name op o.
func (b *builder) opName(o int) string {
	return b.label + "[" + strconv.Itoa(b.caller(o)) + "]"
}

// eventName names the i-th event of order, for the C API's messages.
func (b *builder) eventName(order []uint32, i int) string {
	if i < 0 || i >= len(order) {
		return ""
	}
	o := int(order[i] &^ returnBit)
	if order[i]&returnBit == 0 {
		return b.opName(o) + " (its call)"
	}
	if b.returnIndex != nil {
		return b.label + "[" + strconv.Itoa(b.returnIndex[o]) + "] (the return of " + b.opName(o) + ")"
	}
	return b.opName(o) + " (its return)"
}

// start converts the ops (src gives each op's Input and Output) on another
// goroutine; run must follow.
func (b *builder) start(src source) {
	b.reports = make(chan progress, 64)
	b.stop = make(chan struct{})
	go b.convertAll(src, b.reports, b.stop)
}

// run adds the events of order, in order, to a C history as their ops are converted,
// checks it, and maps the answer back to the caller's indices.
func (b *builder) run() (Result, error) {
	defer b.memory.free() // last: the answer reads the order
	defer b.arena.free()
	reports := b.reports
	// On every way out, the converting goroutine must be finished before the arena
	// it writes into is freed.
	halted := false
	halt := func() {
		if !halted {
			halted = true
			close(b.stop)
			for range reports {
			}
		}
	}
	defer halt()

	history, failure := newHistory()
	if failure != nil {
		return Result{}, failure
	}
	defer func() { freeHistory(history) }()
	placer := newPlacer(b)
	// The order's array, as far as the converting goroutine will fill it; only the
	// part it has reported is read.
	all := b.order[:cap(b.order)]
	const chunk = 8192
	start, ready, final := 0, 0, false
	for {
		for !final && ready-start < chunk {
			report, ok := <-reports
			switch {
			case !ok:
				return Result{}, &Error{Status: StatusInternal, Message: "the conversion stopped early (a bug)"}
			case report.err != nil:
				return Result{}, report.err
			}
			ready, final = report.events, report.final
		}
		if start == ready {
			break
		}
		end := start + chunk
		if end > ready {
			end = ready
		}
		events := all[start:end]
		if err := placer.place(events); err != nil {
			return Result{}, err
		}
		if failed, cerr := addEvents(history, b, events); cerr != nil {
			return Result{}, b.cError(cerr, all[:ready], start+failed)
		}
		start = end
	}
	halt() // it has finished: final was reported
	order := all[:ready]
	b.arena.free() // the history holds its own copies: give the memory back before the check
	raw, cerr := runCheck(history, b.model.Spec, b.init, b.opts)
	if cerr != nil {
		return Result{}, b.cError(cerr, order, -1)
	}
	// Freeing a large history takes milliseconds that nobody needs to wait for.
	h := history
	history = nil
	go freeHistory(h)
	return b.answer(raw, order), nil
}

// cError names the caller's ops in a C API error; failed is the refused event, or -1.
func (b *builder) cError(cerr *Error, order []uint32, failed int) *Error {
	name := func(i int) string { return b.eventName(order, i) }
	cerr.Message = translate(cerr.Message, name)
	if failed >= 0 && !strings.Contains(cerr.Message, name(failed)) {
		cerr.Message = name(failed) + ": " + cerr.Message
	}
	return cerr
}

// placer walks the events in order and gives each op its process.
//
// The checker pairs events per process, one op open at a time, so a client's call
// while its previous op is still open is refused, naming both. Three cases are not
// overlaps, and there the client's op goes on as a fresh process number (past every
// ClientId), which changes nothing for linearizability, since that reads real time
// and not process numbers:
//   - the previous op never returned (Porcupine's MaxInt64, as etcd's robustness
//     tests record a request whose outcome is unknown): it stays open forever, and
//     the client moved on;
//   - the previous op's outcome was unknown: the checker, like Jepsen, wants a
//     crashed client to come back as a new process;
//   - the previous op returned at the very time of this call: one client cannot
//     run two ops at once, so that is the clock's resolution, and the two are
//     concurrent, as for any two ops that touch (closed intervals).
type placer struct {
	b       *builder
	clients *clientTable
}

func newPlacer(b *builder) *placer {
	return &placer{b: b, clients: newClientTable(b.client)}
}

func (p *placer) place(events []uint32) error {
	b := p.b
	for _, ref := range events {
		o := int(ref &^ returnBit)
		c := p.clients.get(b.client[o])
		if ref&returnBit != 0 {
			if c.open == o+1 {
				c.open = 0
				c.renew = b.completion[o] == eventInfo
			}
			continue
		}
		if c.open > 0 {
			prev := c.open - 1
			touching := b.timed != nil && b.timed[prev].Return == b.timed[o].Call
			if b.completion[prev] != noCompletion && !touching {
				return b.overlap(prev, o)
			}
			c.renew = true
		}
		if c.renew {
			c.process = p.clients.fresh()
			c.renew = false
		}
		b.process[o] = c.process
		c.open = o + 1
	}
	return nil
}

func (b *builder) overlap(first, second int) error {
	if b.timed != nil {
		a, c := &b.timed[first], &b.timed[second]
		return inputError("%s [%d, %d] and %s [%d, %d], both of ClientId %d, overlap in time: a client runs one "+
			"operation at a time (give concurrent clients, or a client retrying, their own ClientId)",
			b.opName(first), a.Call, a.Return, b.opName(second), c.Call, c.Return, b.client[first])
	}
	return inputError("%s and %s, calls of ClientId %d, overlap: the second comes before the first's return "+
		"(a client runs one operation at a time)", b.opName(first), b.opName(second), b.client[first])
}

// answer maps the checker's op ids (positions of invocations among the events added)
// to the caller's indices.
func (b *builder) answer(raw rawResult, order []uint32) Result {
	caller := func(id uint32) int {
		if int(id) >= len(order) || order[id]&returnBit != 0 {
			return -1 // not an invocation: cannot happen with ids from the C API
		}
		return b.caller(int(order[id]))
	}
	r := Result{
		Verdict: raw.verdict, CoreMinimal: raw.coreMinimal, FailingOp: -1, FailingKey: raw.failingKey,
		Reason: raw.reason, Engine: raw.engine, Keys: raw.keys,
	}
	if raw.linearization != nil {
		r.Linearization = make([]int, len(raw.linearization))
		for i, id := range raw.linearization {
			r.Linearization[i] = caller(id)
		}
	}
	if raw.core != nil {
		r.Core = make([]int, len(raw.core))
		for i, id := range raw.core {
			r.Core[i] = caller(id)
		}
		// ascending op ids are ascending positions, but not always ascending indices
		sort.Ints(r.Core)
	}
	if raw.failingOp >= 0 {
		r.FailingOp = caller(uint32(raw.failingOp))
	}
	name := func(id int) string {
		if id < 0 || id >= len(order) || order[id]&returnBit != 0 {
			return ""
		}
		return b.opName(int(order[id]))
	}
	r.Explanation = translateOpIds(raw.explanation, name)
	r.Why = translateOpIds(raw.why, name)
	return r
}

// ---- Lookup tables that avoid a map when the numbers are small ----------------------

// clientState is what the placer knows of one ClientId.
type clientState struct {
	process int64
	open    int  // the op it has open, plus one; 0: none
	renew   bool // its next op needs a new process (its last one's outcome was unknown)
}

type clientTable struct {
	min, max int
	dense    []clientState // ClientIds min..max, when that range is small
	sparse   map[int]*clientState
	next     int64          // the next fresh process number, past every ClientId
	step     int64          // +1, or -1 when the ClientIds reach the top of int64
	used     map[int64]bool // when they reach both ends: every ClientId, to skip
}

func newClientTable(clients []int) *clientTable {
	t := &clientTable{}
	if len(clients) == 0 {
		return t
	}
	t.min, t.max = clients[0], clients[0]
	for _, c := range clients {
		if c < t.min {
			t.min = c
		} else if c > t.max {
			t.max = c
		}
	}
	room := int64(len(clients)) // fresh numbers needed at most
	switch {
	case int64(t.max) <= math.MaxInt64-room:
		t.next, t.step = int64(t.max)+1, 1
	case int64(t.min) >= math.MinInt64+room:
		t.next, t.step = int64(t.min)-1, -1
	default:
		t.next, t.step = 0, 1
		t.used = make(map[int64]bool, len(clients))
		for _, c := range clients {
			t.used[int64(c)] = true
		}
	}
	if span := uint64(t.max) - uint64(t.min); span < uint64(4*len(clients)+1024) {
		t.dense = make([]clientState, span+1)
		for i := range t.dense {
			t.dense[i].process = int64(t.min + i)
		}
	} else {
		t.sparse = make(map[int]*clientState)
	}
	return t
}

func (t *clientTable) get(client int) *clientState {
	if t.dense != nil {
		return &t.dense[client-t.min]
	}
	c, ok := t.sparse[client]
	if !ok {
		c = &clientState{process: int64(client)}
		t.sparse[client] = c
	}
	return c
}

func (t *clientTable) fresh() int64 {
	for t.used[t.next] {
		t.next += t.step
	}
	p := t.next
	t.next += t.step
	return p
}

// intIndex maps Event Ids to op numbers: a slice when the Ids are small, as they
// usually are (0, 1, 2...), else a map.
type intIndex struct {
	dense  []int32 // op+1; 0: unseen
	sparse map[int]int
}

func newIntIndex(events []Event) *intIndex {
	limit := 4*len(events) + 1024
	for i := range events {
		if id := events[i].Id; id < 0 || id >= limit {
			return &intIndex{sparse: make(map[int]int)}
		}
	}
	return &intIndex{dense: make([]int32, limit)}
}

func (x *intIndex) get(id int) (int, bool) {
	if x.dense != nil {
		v := x.dense[id]
		return int(v) - 1, v != 0
	}
	v, ok := x.sparse[id]
	return v, ok
}

func (x *intIndex) set(id, op int) {
	if x.dense != nil {
		x.dense[id] = int32(op + 1)
		return
	}
	x.sparse[id] = op
}
