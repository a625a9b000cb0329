package ariadne

import (
	"errors"
	"fmt"
	"math"
	"math/rand"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// ---- History builders -----------------------------------------------------------

func write(client int, value interface{}, call, ret int64) Operation {
	return Operation{ClientId: client, Input: RegisterInput{Op: "write", Value: value}, Output: RegisterOutput{},
		Call: call, Return: ret}
}

func read(client int, value interface{}, call, ret int64) Operation {
	return Operation{ClientId: client, Input: RegisterInput{Op: "read"}, Output: RegisterOutput{Value: value},
		Call: call, Return: ret}
}

func cas(client int, from, to interface{}, failed bool, call, ret int64) Operation {
	return Operation{ClientId: client, Input: RegisterInput{Op: "cas", Value: from, New: to},
		Output: RegisterOutput{Failed: failed}, Call: call, Return: ret}
}

func kv(client int, op uint8, key, value string, output interface{}, call, ret int64) Operation {
	return Operation{ClientId: client, Input: KvInput{Op: op, Key: key, Value: value}, Output: output,
		Call: call, Return: ret}
}

func etcd(client int, in EtcdInput, out EtcdOutput, call, ret int64) Operation {
	return Operation{ClientId: client, Input: in, Output: out, Call: call, Return: ret}
}

// check runs Check and fails the test on an error or a panic.
func check(t *testing.T, model Model, ops []Operation, opts Options) Result {
	t.Helper()
	result, err := checkNoPanic(t, func() (Result, error) { return Check(model, ops, opts) })
	if err != nil {
		t.Fatalf("Check: %v", err)
	}
	return result
}

func checkNoPanic(t *testing.T, run func() (Result, error)) (result Result, err error) {
	t.Helper()
	defer func() {
		if p := recover(); p != nil {
			t.Fatalf("panicked: %v", p)
		}
	}()
	return run()
}

func wantVerdict(t *testing.T, r Result, verdict string) {
	t.Helper()
	if r.Verdict != verdict {
		t.Fatalf("verdict %q, want %q (reason %q)\n%s", r.Verdict, verdict, r.Reason, r.Explanation)
	}
}

// wantError checks that err is an *Error of the status whose message holds every part.
func wantError(t *testing.T, err error, status int, parts ...string) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T), want an *ariadne.Error of status %d", err, err, status)
	}
	if e.Status != status {
		t.Fatalf("status %d, want %d: %s", e.Status, status, e.Message)
	}
	for _, part := range parts {
		if !strings.Contains(e.Message, part) {
			t.Fatalf("message %q does not say %q", e.Message, part)
		}
	}
	return e
}

// ---- Verdicts ---------------------------------------------------------------------

func TestRegister(t *testing.T) {
	ok := []Operation{write(0, 1, 0, 10), read(1, 1, 20, 30), write(0, 2, 31, 40), read(1, 2, 41, 50)}
	r := check(t, RegisterModel(), ok, Options{})
	wantVerdict(t, r, "linearizable")
	if !r.Linearizable() || !r.Holds() || r.Violated() || r.Unknown() {
		t.Fatalf("helpers disagree with %q", r.Verdict)
	}
	if !reflect.DeepEqual(r.Linearization, []int{0, 1, 2, 3}) || r.FailingOp != -1 {
		t.Fatalf("linearization %v, failing op %d", r.Linearization, r.FailingOp)
	}

	// The read of 1 comes after the write of 2 completed: stale.
	stale := []Operation{write(0, 1, 0, 10), write(0, 2, 11, 20), read(1, 1, 21, 30)}
	r = check(t, RegisterModel(), stale, Options{})
	wantVerdict(t, r, "not-linearizable")
	if !r.Violated() || r.Linearizable() {
		t.Fatal("helpers disagree")
	}
	if !reflect.DeepEqual(r.Core, []int{0, 1, 2}) || r.FailingOp != 2 || !r.CoreMinimal {
		t.Fatalf("core %v (minimal %v), failing op %d", r.Core, r.CoreMinimal, r.FailingOp)
	}
	if !strings.Contains(r.Explanation, "ops[2]") {
		t.Fatalf("the explanation does not name ops[2]:\n%s", r.Explanation)
	}
	// The sentence names the caller's ops too: the read, the write it could have read
	// and the write that overwrote it.
	for _, name := range []string{"ops[2]", "ops[0]", "ops[1]"} {
		if !strings.Contains(r.Why, name) {
			t.Fatalf("the sentence does not name %s:\n%s", name, r.Why)
		}
	}

	// Porcupine's register example starts at 0; Knossos' at nil.
	zero := []Operation{read(0, 0, 0, 10)}
	wantVerdict(t, check(t, RegisterModel(), zero, Options{}), "not-linearizable")
	wantVerdict(t, check(t, RegisterModel().WithInit(0), zero, Options{}), "linearizable")
}

func TestCASRegister(t *testing.T) {
	m := CASRegisterModel().WithInit(0)
	ok := []Operation{
		cas(0, 0, 1, false, 0, 10),
		cas(1, 0, 2, true, 11, 20), // found 1: failed, no effect
		read(2, 1, 21, 30),
		cas(1, 1, 3, false, 31, 40),
		read(2, 3, 41, 50),
	}
	r := check(t, m, ok, Options{})
	wantVerdict(t, r, "linearizable")
	// a failed cas took no effect and has no place in the order
	if !reflect.DeepEqual(r.Linearization, []int{0, 2, 3, 4}) {
		t.Fatalf("linearization %v", r.Linearization)
	}
	bad := []Operation{cas(0, 0, 1, false, 0, 10), cas(1, 0, 2, false, 11, 20)} // both succeeded from 0
	r = check(t, m, bad, Options{})
	wantVerdict(t, r, "not-linearizable")
	if !reflect.DeepEqual(r.Core, []int{0, 1}) {
		t.Fatalf("core %v", r.Core)
	}
}

func TestKvSeveralKeys(t *testing.T) {
	ok := []Operation{
		kv(0, KvPut, "a", "x", KvOutput{}, 0, 10),
		kv(1, KvAppend, "a", "y", KvOutput{}, 5, 15),
		kv(2, KvPut, "b", "1", KvOutput{}, 0, 3),
		kv(2, KvGet, "a", "", KvOutput{"xy"}, 20, 30),
		kv(0, KvGet, "b", "", KvOutput{"1"}, 20, 30),
		kv(1, KvGet, "c", "", KvOutput{""}, 20, 30), // never written: ""
	}
	r := check(t, KvModel(), ok, Options{})
	wantVerdict(t, r, "linearizable")
	if len(r.Linearization) != len(ok) {
		t.Fatalf("linearization %v", r.Linearization)
	}

	// The get of "x" began after the append of "y" to it completed.
	bad := []Operation{
		kv(0, KvPut, "a", "x", KvOutput{}, 0, 10),
		kv(2, KvPut, "b", "1", KvOutput{}, 0, 3),
		kv(1, KvAppend, "a", "y", KvOutput{}, 11, 15),
		kv(2, KvGet, "b", "", KvOutput{"1"}, 20, 30),
		kv(0, KvGet, "a", "", &KvOutput{"x"}, 20, 30),
	}
	r = check(t, KvModel(), bad, Options{})
	wantVerdict(t, r, "not-linearizable")
	if r.FailingKey != `"a"` || !reflect.DeepEqual(r.Core, []int{0, 2, 4}) {
		t.Fatalf("failing key %s, core %v", r.FailingKey, r.Core)
	}

	// An initial state per key.
	initial := []Operation{kv(0, KvGet, "a", "", KvOutput{"start"}, 0, 1)}
	wantVerdict(t, check(t, KvModel(), initial, Options{}), "not-linearizable")
	wantVerdict(t, check(t, KvModel().WithInit(map[string]string{"a": "start"}), initial, Options{}), "linearizable")
}

func TestEtcd(t *testing.T) {
	read := EtcdInput{Op: EtcdRead}
	ok := []Operation{
		etcd(0, read, EtcdOutput{Exists: false}, 0, 5), // absent at the start
		etcd(1, EtcdInput{Op: EtcdWrite, Arg1: 1}, EtcdOutput{}, 6, 10),
		etcd(2, EtcdInput{Op: EtcdCas, Arg1: 2, Arg2: 3}, EtcdOutput{Ok: false}, 11, 20), // held 1, not 2
		etcd(0, EtcdInput{Op: EtcdCas, Arg1: 1, Arg2: 4}, EtcdOutput{Ok: true}, 21, 30),
		etcd(1, read, EtcdOutput{Exists: true, Value: 4}, 31, 40),
	}
	wantVerdict(t, check(t, EtcdModel(), ok, Options{}), "linearizable")

	// A failed cas is evidence: the register held 1, so a cas from 1 could not fail.
	bad := []Operation{
		etcd(1, EtcdInput{Op: EtcdWrite, Arg1: 1}, EtcdOutput{}, 0, 10),
		etcd(2, EtcdInput{Op: EtcdCas, Arg1: 1, Arg2: 3}, EtcdOutput{Ok: false}, 11, 20),
	}
	r := check(t, EtcdModel(), bad, Options{})
	wantVerdict(t, r, "not-linearizable")
	if !reflect.DeepEqual(r.Core, []int{0, 1}) {
		t.Fatalf("core %v", r.Core)
	}
	// Under Knossos' cas-register the same failed cas is no evidence at all.
	knossos := []Operation{write(1, 1, 0, 10), cas(2, 1, 3, true, 11, 20)}
	wantVerdict(t, check(t, CASRegisterModel(), knossos, Options{}), "linearizable")

	// An absent read is an observation in etcd, a wildcard (nil) in Knossos' register.
	absent := []Operation{
		etcd(1, EtcdInput{Op: EtcdWrite, Arg1: 1}, EtcdOutput{}, 0, 10),
		etcd(2, read, EtcdOutput{Exists: false}, 11, 20),
	}
	wantVerdict(t, check(t, EtcdModel(), absent, Options{}), "not-linearizable")
}

// ---- Unknown outcomes -------------------------------------------------------------

func TestUnknownOutcomes(t *testing.T) {
	// A write that never returned (Porcupine's MaxInt64) may take effect later: the
	// read of 2 long after its call is explained by it.
	never := []Operation{
		write(0, 1, 0, 10),
		write(1, 2, 5, math.MaxInt64),
		read(2, 2, 100, 110),
		read(2, 2, 120, 130),
	}
	r := check(t, RegisterModel(), never, Options{})
	wantVerdict(t, r, "linearizable")
	if !reflect.DeepEqual(r.Linearization, []int{0, 1, 2, 3}) {
		t.Fatalf("linearization %v", r.Linearization)
	}
	// Its Output was never observed: whatever it holds is not read.
	never[1].Output = "garbage"
	wantVerdict(t, check(t, RegisterModel(), never, Options{}), "linearizable")

	// Or never take effect at all: not in the linearization.
	notTaken := []Operation{write(0, 1, 0, 10), write(1, 2, 5, math.MaxInt64), read(2, 1, 100, 110)}
	r = check(t, RegisterModel(), notTaken, Options{})
	wantVerdict(t, r, "linearizable")
	if !reflect.DeepEqual(r.Linearization, []int{0, 2}) {
		t.Fatalf("linearization %v", r.Linearization)
	}

	// The converter's unknown (a timeout with a recorded return) is the same: the
	// write may still land after its return, so the read of 2 at 100 is explained.
	timedOut := []Operation{
		write(0, 1, 0, 10),
		{ClientId: 1, Input: RegisterInput{Op: "write", Value: 2}, Output: RegisterOutput{Unknown: true}, Call: 5, Return: 20},
		read(2, 1, 30, 40),
		read(2, 2, 100, 110),
	}
	wantVerdict(t, check(t, RegisterModel(), timedOut, Options{}), "linearizable")
	// Recorded as completed at 20 instead, the write of 2 could not follow the read of 1.
	completed := append([]Operation(nil), timedOut...)
	completed[1].Output = RegisterOutput{}
	wantVerdict(t, check(t, RegisterModel(), completed, Options{}), "not-linearizable")

	// A crashed read reveals nothing; a crashed cas applies only where it matches.
	crashedRead := []Operation{write(0, 1, 0, 10), {ClientId: 1, Input: RegisterInput{Op: "read"}, Output: nil, Call: 20, Return: 30}}
	wantVerdict(t, check(t, RegisterModel(), crashedRead, Options{}), "linearizable")

	// A client whose op never returned goes on with new ops (as a new process).
	reused := []Operation{write(0, 1, 0, math.MaxInt64), read(0, 1, 20, 30), write(0, 3, 40, 50), read(1, 3, 60, 70)}
	wantVerdict(t, check(t, RegisterModel(), reused, Options{}), "linearizable")
	// Whatever the ClientIds: the new process numbers stay clear of them.
	extreme := []Operation{write(math.MaxInt, 1, 0, math.MaxInt64), read(math.MaxInt, 1, 20, 30),
		write(math.MinInt, 3, 40, math.MaxInt64), read(math.MinInt, 3, 60, 70)}
	wantVerdict(t, check(t, RegisterModel(), extreme, Options{}), "linearizable")
	// ... and so does one whose op timed out with a recorded return.
	reused[0] = Operation{ClientId: 0, Input: RegisterInput{Op: "write", Value: 1}, Output: RegisterOutput{Unknown: true}, Call: 0, Return: 10}
	wantVerdict(t, check(t, RegisterModel(), reused, Options{}), "linearizable")
}

// ---- Real time from timestamps ------------------------------------------------------

func TestRealTime(t *testing.T) {
	m := RegisterModel().WithInit(0)
	// The read of 0 overlaps the write of 1: it may take effect first.
	overlapping := []Operation{write(0, 1, 0, 10), read(1, 0, 5, 15)}
	wantVerdict(t, check(t, m, overlapping, Options{}), "linearizable")
	// It begins after the write returned: it read a value already overwritten.
	after := []Operation{write(0, 1, 0, 10), read(1, 0, 11, 15)}
	r := check(t, m, after, Options{})
	wantVerdict(t, r, "not-linearizable")
	if !reflect.DeepEqual(r.Core, []int{0, 1}) || r.FailingOp != 1 {
		t.Fatalf("core %v, failing op %d", r.Core, r.FailingOp)
	}
	// The slice's order is not real time: the timestamps are.
	wantVerdict(t, check(t, m, []Operation{read(1, 0, 11, 15), write(0, 1, 0, 10)}, Options{}), "not-linearizable")
	wantVerdict(t, check(t, m, []Operation{read(1, 0, 5, 15), write(0, 1, 0, 10)}, Options{}), "linearizable")
}

func TestTies(t *testing.T) {
	m := RegisterModel().WithInit(0)
	// The read is called at the very time the write returns. Porcupine reads
	// [Call, Return] as a closed interval: they touch, so they are concurrent, and
	// the read may come first. A call at time t is placed before a return at t.
	touching := []Operation{write(0, 1, 0, 10), read(1, 0, 10, 20)}
	wantVerdict(t, check(t, m, touching, Options{}), "linearizable")
	// One tick later they are ordered.
	wantVerdict(t, check(t, m, []Operation{write(0, 1, 0, 10), read(1, 0, 11, 20)}, Options{}), "not-linearizable")

	// An op of no duration: its call still comes before its return.
	instant := []Operation{write(0, 1, 5, 5), read(1, 1, 6, 6)}
	wantVerdict(t, check(t, m, instant, Options{}), "linearizable")

	// One client's next op called at the tick its previous op returned: not an
	// overlap (a client runs one op at a time: the clock's resolution), and the two
	// count as concurrent like any ops that touch.
	sameClient := []Operation{write(0, 1, 0, 10), read(0, 0, 10, 20)}
	wantVerdict(t, check(t, m, sameClient, Options{}), "linearizable")

	// Equal times keep slice order: calls in slice order, then returns in slice order.
	same := []Operation{write(0, 1, 0, 10), write(1, 2, 0, 10), write(2, 3, 0, 10), read(3, 9, 0, 10)}
	order := timeOrder(same)
	want := []uint32{0, 1, 2, 3, 0 | returnBit, 1 | returnBit, 2 | returnBit, 3 | returnBit}
	if !reflect.DeepEqual(order, want) {
		t.Fatalf("order %v, want %v", order, want)
	}
	r := check(t, m, same, Options{})
	if !reflect.DeepEqual(r.Core, []int{3}) || !strings.Contains(r.Explanation, "ops[3]") {
		t.Fatalf("core %v\n%s", r.Core, r.Explanation)
	}
}

// ---- Index mapping ------------------------------------------------------------------

func TestIndicesAreTheCallersSlice(t *testing.T) {
	// The slice in no time order, a cas that failed (no place in the order) and an
	// op that never returned: every index in the answer is the slice's.
	ops := []Operation{
		read(3, 2, 40, 50),            // 0
		cas(1, 1, 2, false, 20, 30),   // 1
		write(0, 1, 0, 10),            // 2
		cas(2, 5, 6, true, 21, 31),    // 3: failed
		write(4, 7, 1, math.MaxInt64), // 4: never returned
		read(5, 2, 60, 70),            // 5
		{ClientId: 6, Input: RegisterInput{Op: "read"}, Output: RegisterOutput{Value: 1}, Call: 11, Return: 12}, // 6
	}
	r := check(t, CASRegisterModel(), ops, Options{})
	wantVerdict(t, r, "linearizable")
	if !reflect.DeepEqual(r.Linearization, []int{2, 6, 1, 0, 5}) {
		t.Fatalf("linearization %v", r.Linearization)
	}
	// A read of a value nobody wrote.
	ops[5] = read(5, 9, 60, 70)
	r = check(t, CASRegisterModel(), ops, Options{})
	wantVerdict(t, r, "not-linearizable")
	if !reflect.DeepEqual(r.Core, []int{5}) || r.FailingOp != 5 {
		t.Fatalf("core %v, failing op %d", r.Core, r.FailingOp)
	}
	// A stale read of 1 after the cas to 2: the core spans slice positions out of order.
	ops[5] = read(5, 1, 60, 70)
	r = check(t, CASRegisterModel(), ops, Options{})
	wantVerdict(t, r, "not-linearizable")
	if !reflect.DeepEqual(r.Core, []int{1, 5}) || r.FailingOp != 5 {
		t.Fatalf("core %v, failing op %d", r.Core, r.FailingOp)
	}
	if !sort.IntsAreSorted(r.Core) {
		t.Fatal("core not ascending")
	}
}

// ---- Events ---------------------------------------------------------------------------

func TestCheckEvents(t *testing.T) {
	call := func(client, id int, in RegisterInput) Event {
		return Event{ClientId: client, Kind: CallEvent, Value: in, Id: id}
	}
	ret := func(client, id int, out interface{}) Event {
		return Event{ClientId: client, Kind: ReturnEvent, Value: out, Id: id}
	}
	m := RegisterModel().WithInit(0)
	events := []Event{
		call(0, 10, RegisterInput{Op: "write", Value: 1}), // 0
		call(1, 11, RegisterInput{Op: "read"}),            // 1: overlaps the write
		ret(0, 10, RegisterOutput{}),                      // 2
		ret(1, 11, RegisterOutput{Value: 0}),              // 3
		call(1, 12, RegisterInput{Op: "read"}),            // 4
		ret(1, 12, RegisterOutput{Value: 1}),              // 5
		call(2, 13, RegisterInput{Op: "write", Value: 5}), // 6: never returns
	}
	r, err := checkNoPanic(t, func() (Result, error) { return CheckEvents(m, events, Options{}) })
	if err != nil {
		t.Fatal(err)
	}
	wantVerdict(t, r, "linearizable")
	// indices of the call Events; the write of 5 never took effect
	if !reflect.DeepEqual(r.Linearization, []int{1, 0, 4}) {
		t.Fatalf("linearization %v", r.Linearization)
	}
	// The read of 0 after the write returned: stale.
	stale := []Event{events[0], events[2], events[1], events[3]}
	r, err = CheckEvents(m, stale, Options{})
	if err != nil {
		t.Fatal(err)
	}
	wantVerdict(t, r, "not-linearizable")
	if !reflect.DeepEqual(r.Core, []int{0, 2}) || r.FailingOp != 2 {
		t.Fatalf("core %v, failing op %d", r.Core, r.FailingOp)
	}
	// A call that never returns explains a later read (unknown outcome).
	open := []Event{events[6], call(1, 1, RegisterInput{Op: "read"}), ret(1, 1, RegisterOutput{Value: 5})}
	r, err = CheckEvents(m, open, Options{})
	if err != nil {
		t.Fatal(err)
	}
	wantVerdict(t, r, "linearizable")

	// Errors name the events.
	_, err = CheckEvents(m, []Event{ret(0, 3, RegisterOutput{})}, Options{})
	wantError(t, err, StatusInput, "events[0]", "Id 3")
	_, err = CheckEvents(m, []Event{events[0], events[2], call(0, 10, RegisterInput{Op: "read"})}, Options{})
	wantError(t, err, StatusInput, "events[2]", "events[0]")
	_, err = CheckEvents(m, []Event{events[0], events[2], events[2]}, Options{})
	wantError(t, err, StatusInput, "events[2]", "second return")
	overlap := []Event{call(7, 1, RegisterInput{Op: "read"}), call(7, 2, RegisterInput{Op: "read"}),
		ret(7, 1, RegisterOutput{}), ret(7, 2, RegisterOutput{})}
	_, err = CheckEvents(m, overlap, Options{})
	wantError(t, err, StatusInput, "events[0]", "events[1]", "ClientId 7")
	_, err = CheckEvents(m, []Event{call(0, 1, RegisterInput{Op: "read"}), ret(0, 1, "not an output")}, Options{})
	wantError(t, err, StatusInput, "events[0]", "string")
}

// ---- Errors: every one an *Error, never a panic --------------------------------------

func TestErrors(t *testing.T) {
	good := []Operation{write(0, 1, 0, 10), read(1, 1, 20, 30)}
	run := func(model Model, ops []Operation, opts Options) error {
		_, err := checkNoPanic(t, func() (Result, error) { return Check(model, ops, opts) })
		return err
	}

	// A converter's error, kept for errors.As.
	mine := errors.New("no such op")
	failing := Model{Spec: "register", Convert: func(input, output interface{}) (Op, error) {
		if input == "bad" {
			return Op{}, mine
		}
		return ConvertRegister(input, output)
	}}
	err := run(failing, append(good, Operation{ClientId: 2, Input: "bad", Call: 40, Return: 41}), Options{})
	e := wantError(t, err, StatusInput, "ops[2]", "no such op")
	if !errors.Is(err, mine) || !errors.Is(err, ErrInput) || errors.Is(err, ErrUsage) || e.Err != mine {
		t.Fatal("errors.Is does not see through the *Error")
	}
	// A converter that panics (it runs on another goroutine than the caller's).
	panicking := Model{Spec: "register", Convert: func(input, output interface{}) (Op, error) {
		return Op{F: input.(RegisterInput).Op}, nil // not a RegisterInput: panics
	}}
	wantError(t, run(panicking, []Operation{write(0, 1, 0, 1), {Input: 7, Call: 2, Return: 3}}, Options{}),
		StatusInput, "ops[1]", "panicked")
	// The built-in converters' errors: wrong types, unknown ops.
	wantError(t, run(RegisterModel(), []Operation{{Input: KvInput{}, Call: 0, Return: 1}}, Options{}), StatusInput, "ops[0]", "KvInput")
	wantError(t, run(RegisterModel(), []Operation{{Input: RegisterInput{Op: "delete"}, Call: 0, Return: 1}}, Options{}), StatusInput, "ops[0]", "delete")
	wantError(t, run(KvModel(), []Operation{kv(0, 9, "a", "", KvOutput{}, 0, 1)}, Options{}), StatusInput, "ops[0]", "kv op 9")
	wantError(t, run(EtcdModel(), []Operation{{Input: EtcdInput{}, Output: 3, Call: 0, Return: 1}}, Options{}), StatusInput, "ops[0]", "EtcdOutput")

	// Return before Call.
	wantError(t, run(RegisterModel(), []Operation{write(0, 1, 0, 10), read(1, 1, 30, 20)}, Options{}), StatusInput, "ops[1]", "before Call")

	// One client, two ops at once: both named.
	err = run(RegisterModel(), []Operation{write(0, 1, 0, 10), read(3, 1, 12, 30), read(3, 1, 20, 40)}, Options{})
	wantError(t, err, StatusInput, "ops[1]", "ops[2]", "ClientId 3", "overlap")

	// An unknown model, engine, consistency; a Model without Spec or Convert; bad options.
	wantError(t, run(Model{Spec: "no-such-model", Convert: ConvertRegister}, good, Options{}), StatusUsage, "no-such-model")
	wantError(t, run(RegisterModel(), good, Options{Engine: "magic"}), StatusUsage, "magic")
	wantError(t, run(RegisterModel(), good, Options{Consistency: "eventual"}), StatusUsage, "eventual")
	wantError(t, run(Model{Convert: ConvertRegister}, good, Options{}), StatusUsage, "Spec")
	wantError(t, run(Model{Spec: "register"}, good, Options{}), StatusUsage, "Convert")
	wantError(t, run(RegisterModel(), good, Options{Jobs: -1}), StatusUsage, "Jobs")
	wantError(t, run(RegisterModel().WithInit(struct{ X int }{1}), good, Options{}), StatusUsage, "Init")
	if !errors.Is(run(Model{Spec: "nope", Convert: ConvertRegister}, good, Options{}), ErrUsage) {
		t.Fatal("an unknown model is not ErrUsage")
	}

	// Bad values: one the encoder has no EDN for, EDN text that does not parse, a value
	// the model cannot read (a cas that is no pair; a kv put of a number).
	wantError(t, run(RegisterModel(), []Operation{write(0, struct{}{}, 0, 1)}, Options{}), StatusInput, "ops[0]", "no EDN form")
	wantError(t, run(RegisterModel(), []Operation{write(0, EDN("[1 2"), 0, 1)}, Options{}), StatusInput, "ops[0]", "vector")
	raw := func(f string, key, value interface{}) Operation {
		return Operation{Input: RawInput{F: f, Key: key, Value: value}, Output: RawOutput{}, Call: 0, Return: 1}
	}
	wantError(t, run(Model{Spec: "cas-register", Convert: ConvertRaw}, []Operation{raw("cas", nil, 5)}, Options{}),
		StatusInput, "ops[0]", "[old new]")
	wantError(t, run(Model{Spec: "kv", Convert: ConvertRaw}, []Operation{raw("put", "k", 5)}, Options{}),
		StatusInput, "ops[0]", "string")
	wantError(t, run(Model{Spec: "kv", Convert: ConvertRaw}, []Operation{raw("put", "k", EDN("[1"))}, Options{}),
		StatusInput, "ops[0]")
	wantError(t, run(Model{Spec: "kv", Convert: ConvertRaw}, []Operation{raw("get", nil, nil)}, Options{}),
		StatusInput, "ops[0]", ":key")
	wantError(t, run(RegisterModel(), []Operation{cas(0, 1, 2, false, 0, 1)}, Options{}), StatusInput, "ops[0]", ":cas")
	wantError(t, run(Model{Spec: "register", Convert: ConvertRaw}, []Operation{raw("", nil, nil)}, Options{}),
		StatusInput, "ops[0]", "no name")
	wantError(t, run(RegisterModel(), []Operation{write(0, Keyword("has space"), 0, 1)}, Options{}), StatusInput, "ops[0]", "keyword")
}

// ariadne_last_error() is per OS thread; checks from many goroutines must each get
// their own message.
func TestConcurrentChecks(t *testing.T) {
	var wg sync.WaitGroup
	failures := make(chan string, 64)
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				spec := fmt.Sprintf("model-%d-%d", g, i)
				_, err := Check(Model{Spec: spec, Convert: ConvertRegister}, []Operation{write(0, g, 0, 1)}, Options{})
				if err == nil || !strings.Contains(err.Error(), spec) {
					failures <- fmt.Sprintf("%s: %v", spec, err)
					return
				}
				r, err := Check(RegisterModel(), []Operation{write(0, g, 0, 1), read(1, g, 2, 3)}, Options{Jobs: 1})
				if err != nil || !r.Linearizable() {
					failures <- fmt.Sprintf("goroutine %d: %v %v", g, r.Verdict, err)
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(failures)
	for f := range failures {
		t.Error(f)
	}
}

// ---- Options ----------------------------------------------------------------------------

// atomicRegister is a history of a truly atomic cas-register (linearizable by
// construction): each op takes effect at a random point of its interval, many at
// once, few values, a fifth of them crashed: hard enough to outlast a tiny timeout.
func atomicRegister(n int, span int64, values int, crash float64, seed int64) []Operation {
	rng := rand.New(rand.NewSource(seed))
	ops := make([]Operation, n)
	effect := make([]int64, n)
	for i := range ops {
		effect[i] = int64(i) + rng.Int63n(span)
		ops[i] = Operation{ClientId: i, Call: int64(i), Return: effect[i] + rng.Int63n(span)}
	}
	byEffect := make([]int, n)
	for i := range byEffect {
		byEffect[i] = i
	}
	sort.Slice(byEffect, func(a, b int) bool { return effect[byEffect[a]] < effect[byEffect[b]] })
	state := 0
	for _, i := range byEffect {
		var in RegisterInput
		var out RegisterOutput
		switch rng.Intn(3) {
		case 0:
			in = RegisterInput{Op: "write", Value: rng.Intn(values)}
			state = in.Value.(int)
		case 1:
			in = RegisterInput{Op: "read"}
			out = RegisterOutput{Value: state}
		default:
			from, to := rng.Intn(values), rng.Intn(values)
			in = RegisterInput{Op: "cas", Value: from, New: to}
			if state == from {
				state = to
			} else {
				out.Failed = true
			}
		}
		if rng.Float64() < crash {
			out = RegisterOutput{Unknown: true}
		}
		ops[i].Input, ops[i].Output = in, out
	}
	return ops
}

func TestTimeout(t *testing.T) {
	ops := atomicRegister(20000, 50, 3, 0.2, 1)
	r := check(t, CASRegisterModel().WithInit(0), ops, Options{Timeout: time.Microsecond})
	wantVerdict(t, r, "unknown")
	if !r.Unknown() || !strings.Contains(r.Reason, "timeout") {
		t.Fatalf("reason %q", r.Reason)
	}
	r = check(t, CASRegisterModel().WithInit(0), ops, Options{Timeout: time.Minute})
	wantVerdict(t, r, "linearizable")
	if len(r.Linearization) == 0 {
		t.Fatal("no linearization")
	}
}

func TestOptions(t *testing.T) {
	// Independent: Jepsen's [key value] tuples, each key its own register.
	tuple := func(client int, f string, key, in, out interface{}, call, ret int64) Operation {
		return Operation{ClientId: client, Input: RawInput{F: f, Value: []interface{}{key, in}},
			Output: RawOutput{Value: []interface{}{key, out}}, Call: call, Return: ret}
	}
	ops := []Operation{
		tuple(0, "write", 1, 5, 5, 0, 10),
		tuple(1, "read", 1, nil, 5, 11, 20),
		tuple(1, "read", 2, nil, 6, 21, 30), // key 2 was never written
	}
	m := Model{Spec: "register", Convert: ConvertRaw}
	r := check(t, m, ops, Options{Independent: true})
	wantVerdict(t, r, "not-linearizable")
	if r.FailingKey != "2" || r.Keys["1"] != "linearizable" || r.Keys["2"] != "not-linearizable" || !reflect.DeepEqual(r.Core, []int{2}) {
		t.Fatalf("failing key %q, keys %v, core %v", r.FailingKey, r.Keys, r.Core)
	}
	// The same spec written as independent(register).
	r = check(t, Model{Spec: "independent(register)", Convert: ConvertRaw}, ops, Options{})
	wantVerdict(t, r, "not-linearizable")

	// Engines and consistency.
	stale := []Operation{write(0, 1, 0, 10), write(0, 2, 11, 20), read(1, 1, 21, 30)}
	for _, engine := range []string{"wgl", "brute", "sat"} {
		r = check(t, RegisterModel(), stale, Options{Engine: engine, Jobs: 1})
		wantVerdict(t, r, "not-linearizable")
	}
	r = check(t, RegisterModel(), stale, Options{Consistency: "sequential"})
	wantVerdict(t, r, "sequentially-consistent") // reads may lag, in another process
	if !r.Holds() || r.Linearizable() {
		t.Fatal("helpers disagree")
	}
	r = check(t, RegisterModel(), stale, Options{MinimalCore: ToggleOff, MemoryLimit: 1 << 30})
	wantVerdict(t, r, "not-linearizable")
}

// ---- Values -----------------------------------------------------------------------------

func TestEDN(t *testing.T) {
	cases := []struct {
		value interface{}
		want  string
	}{
		{nil, "nil"},
		{42, "42"},
		{int64(-7), "-7"},
		{uint64(math.MaxUint64), "18446744073709551615"},
		{true, "true"},
		{1.5, "1.5"},
		{2.0, "2.0"},
		{1e21, "1e+21"},
		{math.Inf(-1), "##-Inf"},
		{"a \"q\" \\ \n\t\x01 é", `"a \"q\" \\ \n\t\u0001 é"`},
		{Keyword("ok"), ":ok"},
		{EDN("#{1 2}"), "#{1 2}"},
		{[]interface{}{1, "x", nil, []int{2, 3}}, `[1 "x" nil [2 3]]`},
		{[2]int{4, 5}, "[4 5]"},
		{Set{1, 2}, "#{1 2}"},
		{map[string]int{"b": 2, "a": 1}, `{"a" 1, "b" 2}`},
		{map[string]interface{}{}, "{}"},
		{[]string{"x"}, `["x"]`},
		{&[]int{1}, "[1]"},
	}
	for _, c := range cases {
		got, err := appendEDN(nil, c.value)
		if err != nil || string(got) != c.want {
			t.Errorf("EDN of %#v: %q (%v), want %q", c.value, got, err, c.want)
		}
	}
	for _, bad := range []interface{}{struct{}{}, make(chan int), Keyword(""), EDN("")} {
		if _, err := appendEDN(nil, bad); err == nil {
			t.Errorf("EDN of %#v: no error", bad)
		}
	}
}

// A Porcupine user's own types, with a converter of their own.
func TestOwnConverter(t *testing.T) {
	type queueInput struct {
		enqueue bool
		value   int
	}
	type queueOutput struct {
		value int
		empty bool
	}
	convert := func(input, output interface{}) (Op, error) {
		in := input.(queueInput)
		if in.enqueue {
			return Op{F: "enqueue", Value: in.value}, nil
		}
		if output == nil {
			return Op{F: "dequeue", Outcome: OutcomeUnknown}, nil
		}
		out := output.(queueOutput)
		if out.empty {
			return Op{F: "dequeue", Outcome: OutcomeFail}, nil
		}
		return Op{F: "dequeue", Result: out.value}, nil
	}
	fifo := Model{Spec: "fifo-queue", Convert: convert}
	ops := []Operation{
		{ClientId: 0, Input: queueInput{true, 1}, Call: 0, Return: 10},
		{ClientId: 1, Input: queueInput{true, 2}, Call: 11, Return: 20},
		{ClientId: 0, Input: queueInput{}, Output: queueOutput{value: 1}, Call: 21, Return: 30},
		{ClientId: 1, Input: queueInput{}, Output: queueOutput{value: 2}, Call: 31, Return: 40},
		{ClientId: 1, Input: queueInput{}, Output: queueOutput{empty: true}, Call: 41, Return: 50},
	}
	wantVerdict(t, check(t, fifo, ops, Options{}), "linearizable")
	ops[2].Output, ops[3].Output = queueOutput{value: 2}, queueOutput{value: 1}
	wantVerdict(t, check(t, fifo, ops, Options{}), "not-linearizable")
}

func TestEmptyHistory(t *testing.T) {
	// As Porcupine: nothing to contradict.
	wantVerdict(t, check(t, RegisterModel(), nil, Options{}), "linearizable")
	r, err := CheckEvents(RegisterModel(), nil, Options{})
	if err != nil || !r.Linearizable() {
		t.Fatalf("%v %v", r.Verdict, err)
	}
}

func TestVersion(t *testing.T) {
	if v := Version(); v == "" {
		t.Fatal("no version")
	}
}

func TestSortByTime(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	for _, spread := range []int64{3, 1000, math.MaxInt64} {
		ops := make([]Operation, 5000)
		for i := range ops {
			ops[i].Call = rng.Int63n(spread) - spread/2
			ops[i].Return = ops[i].Call + rng.Int63n(50)
		}
		ops[7].Call, ops[8].Call = math.MinInt64, math.MaxInt64
		for _, returns := range []bool{false, true} {
			got := make([]uint32, len(ops))
			want := make([]uint32, len(ops))
			for i := range got {
				got[i], want[i] = uint32(i), uint32(i)
			}
			sortByTime(got, ops, returns)
			at := func(i uint32) int64 {
				if returns {
					return ops[i].Return
				}
				return ops[i].Call
			}
			sort.SliceStable(want, func(a, b int) bool { return at(want[a]) < at(want[b]) })
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("spread %d, returns %v: not the stable order", spread, returns)
			}
		}
	}
}

// Large histories go through the C API in chunks while later ops are still being
// converted; ops with a key switch the whole history, from wherever the first key is,
// to the reader's text. Every path must give the same answer, in the caller's indices.
func TestLargeHistoryPaths(t *testing.T) {
	ops := atomicRegister(12000, 4, 1000, 0, 3)
	m := CASRegisterModel().WithInit(0)
	plain := check(t, m, ops, Options{})
	wantVerdict(t, plain, "linearizable")

	// The same ops with a key from op 6000 on: the register ignores keys, but the
	// history goes through the text path after events were added one by one.
	keyFrom := func(first int) Model {
		return Model{Spec: m.Spec, Init: m.Init, Convert: func(input, output interface{}) (Op, error) {
			op, err := ConvertRegister(input, output)
			if in, ok := input.(keyedInput); ok {
				op, err = ConvertRegister(in.RegisterInput, output)
				if in.index >= first {
					op.Key = "k"
				}
			}
			return op, err
		}}
	}
	keyed := make([]Operation, len(ops))
	for i, op := range ops {
		op.Input = keyedInput{op.Input.(RegisterInput), i}
		keyed[i] = op
	}
	for _, first := range []int{0, 6000} {
		r := check(t, keyFrom(first), keyed, Options{})
		if !reflect.DeepEqual(r, plain) {
			t.Fatalf("keys from op %d: %+v, want %+v", first, r.Verdict, plain.Verdict)
		}
	}

	// The same ops shuffled: the events are the same, in the same time order, so the
	// answer is the same, in the shuffled slice's indices.
	perm := rand.New(rand.NewSource(9)).Perm(len(ops))
	shuffled := make([]Operation, len(ops))
	for to, from := range perm {
		shuffled[to] = ops[from]
	}
	r := check(t, m, shuffled, Options{})
	wantVerdict(t, r, "linearizable")
	for i, to := range r.Linearization {
		if perm[to] != plain.Linearization[i] {
			t.Fatalf("shuffled: linearization differs at %d", i)
		}
	}

	// The Events form of the same history.
	events := toEvents(ops)
	r, err := CheckEvents(m, events.events, Options{})
	if err != nil {
		t.Fatal(err)
	}
	wantVerdict(t, r, "linearizable")
	for i, e := range r.Linearization {
		if events.op[e] != plain.Linearization[i] {
			t.Fatalf("events linearization differs at %d", i)
		}
	}

	// A stale read far into the history, and an error far into it: both named.
	bad := append([]Operation(nil), ops...)
	last := len(bad) - 1
	bad[last] = read(-1, 999999, bad[last].Call+100, bad[last].Call+101)
	r = check(t, m, bad, Options{})
	wantVerdict(t, r, "not-linearizable")
	if !reflect.DeepEqual(r.Core, []int{last}) {
		t.Fatalf("core %v", r.Core)
	}
	bad[10000] = Operation{ClientId: -2, Input: RegisterInput{Op: "write", Value: EDN("[1")}, Call: 1, Return: 2}
	_, err = Check(m, bad, Options{})
	wantError(t, err, StatusInput, "ops[10000]")
	bad[10000] = Operation{ClientId: -2, Input: "not a register op", Call: 1, Return: 2}
	_, err = Check(m, bad, Options{})
	wantError(t, err, StatusInput, "ops[10000]")
	_, err = Check(keyFrom(6000), []Operation{{Input: keyedInput{RegisterInput{Op: "read"}, 0}, Call: 0, Return: 1},
		{Input: keyedInput{RegisterInput{Op: "write", Value: EDN("[2")}, 6000}, Call: 2, Return: 3}}, Options{})
	wantError(t, err, StatusInput, "ops[1]")
}

type keyedInput struct {
	RegisterInput
	index int
}

type eventsOf struct {
	events []Event
	op     map[int]int // call Event index -> op index
}

// toEvents turns timed ops into Porcupine's Events in time order (calls first at ties).
func toEvents(ops []Operation) eventsOf {
	type point struct {
		t   int64
		ret bool
		op  int
	}
	var points []point
	for i, op := range ops {
		points = append(points, point{op.Call, false, i})
		if op.Return != math.MaxInt64 {
			points = append(points, point{op.Return, true, i})
		}
	}
	sort.SliceStable(points, func(a, b int) bool {
		if points[a].t != points[b].t {
			return points[a].t < points[b].t
		}
		return !points[a].ret && points[b].ret
	})
	out := eventsOf{op: map[int]int{}}
	for _, p := range points {
		if p.ret {
			out.events = append(out.events, Event{ClientId: ops[p.op].ClientId, Kind: ReturnEvent, Value: ops[p.op].Output, Id: p.op})
			continue
		}
		out.op[len(out.events)] = p.op
		out.events = append(out.events, Event{ClientId: ops[p.op].ClientId, Kind: CallEvent, Value: ops[p.op].Input, Id: p.op})
	}
	return out
}
