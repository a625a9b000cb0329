package main

import (
	"testing"

	"github.com/anishathalye/porcupine"
)

// check parses a history, builds it for the model spec and runs Porcupine.
func check(t *testing.T, text, spec string, mode CrashMode) porcupine.CheckResult {
	t.Helper()
	s, err := parseSpec(spec)
	if err != nil {
		t.Fatal(err)
	}
	checker, err := checkerFor(s)
	if err != nil {
		t.Fatal(err)
	}
	events, err := readEvents([]byte(text), FormatAuto)
	if err != nil {
		t.Fatal(err)
	}
	ops, err := pairEvents(events)
	if err != nil {
		t.Fatal(err)
	}
	history, err := checker.Build(ops, mode)
	if err != nil {
		t.Fatal(err)
	}
	res, _ := porcupine.CheckOperationsVerbose(checker.Model, history, 0)
	return res
}

func TestDetectFormat(t *testing.T) {
	cases := map[string]Format{
		"INFO  jepsen.util - 0\t:invoke\t:read\tnil\n":                         FormatJepsen,
		"0\t:invoke\t:read\tnil\n":                                             FormatJepsen,
		"; comment\n{:process 0, :type :invoke, :f :get, :key \"k\"}\n":        FormatEDN,
		"[{:process 0, :type :invoke, :f :read}]":                              FormatEDN,
		"{\"events\": [{\"process\": 0, \"type\": \"invoke\", \"f\": \"r\"}]}": FormatJSON,
		"[{\"process\":0}]":                                                    FormatJSON,
		"{\"a\" :b}":                                                           FormatEDN,
	}
	for text, want := range cases {
		if got := detectFormat(text); got != want {
			t.Errorf("detectFormat(%q) = %s, want %s", text, got, want)
		}
	}
}

func TestCanonKeepsTypesApart(t *testing.T) {
	r := &ednReader{src: `[1 "1" :a "a" 1.0 nil #{2 1} {:b 1 :a 2} 123456789012345678901234567890]`}
	v, err := r.read()
	if err != nil {
		t.Fatal(err)
	}
	want := `[1 "1" :a "a" 1.0 nil #{1 2} {:a 2, :b 1} 123456789012345678901234567890]`
	if got := canon(v); got != want {
		t.Errorf("canon = %s, want %s", got, want)
	}
}

func TestPairing(t *testing.T) {
	events, err := readEvents([]byte(`[
		{:process 0, :type :invoke, :f :write, :value 1}
		{:process :nemesis, :type :info, :f :start}
		{:process 1, :type :invoke, :f :read}
		{:process 0, :type :info, :f :write, :value 1}
		{:process 1, :type :ok, :f :read, :value 1}
		{:process 2, :type :invoke, :f :write, :value 2}]`), FormatAuto)
	if err != nil {
		t.Fatal(err)
	}
	ops, err := pairEvents(events)
	if err != nil {
		t.Fatal(err)
	}
	if len(ops) != 3 {
		t.Fatalf("got %d ops, want 3", len(ops))
	}
	if ops[0].Status != StatusCrashed || ops[0].Return != 6 {
		t.Errorf("the :info write should be crashed and open past the end: %+v", ops[0])
	}
	if ops[1].Status != StatusOK || ops[1].Call != 2 || ops[1].Return != 4 || canon(ops[1].Output) != "1" {
		t.Errorf("the read: %+v", ops[1])
	}
	if ops[2].Status != StatusCrashed {
		t.Errorf("an invocation with no completion is crashed: %+v", ops[2])
	}
	if _, err := pairEvents([]Event{{Process: int64(0), Type: "ok", F: "read"}}); err == nil {
		t.Error("a completion with nothing open should be an error")
	}
}

// A crashed cas that must have taken effect: the read of 4 needs it.
const crashedCAS = "INFO  jepsen.util - 0\t:invoke\t:write\t0\n" +
	"INFO  jepsen.util - 0\t:ok\t:write\t0\n" +
	"INFO  jepsen.util - 1\t:invoke\t:cas\t[0 4]\n" +
	"INFO  jepsen.util - 1\t:info\t:cas\t:timed-out\n" +
	"INFO  jepsen.util - 2\t:invoke\t:read\tnil\n" +
	"INFO  jepsen.util - 2\t:ok\t:read\t4\n"

func TestEtcd(t *testing.T) {
	cases := []struct {
		name, text string
		mode       CrashMode
		want       porcupine.CheckResult
	}{
		{"crashed cas applies", crashedCAS, CrashUnknown, porcupine.Ok},
		{"crashed cas dropped", crashedCAS, CrashDrop, porcupine.Illegal},
		{"nil read after a write", "0 :invoke :write 1\n0 :ok :write 1\n1 :invoke :read nil\n1 :ok :read nil\n",
			CrashUnknown, porcupine.Illegal},
		{"failed cas whose condition held", "0 :invoke :write 1\n0 :ok :write 1\n1 :invoke :cas [1 2]\n" +
			"1 :fail :cas [1 2]\n0 :invoke :read nil\n0 :ok :read 1\n", CrashUnknown, porcupine.Illegal},
		{"failed cas on absent", "0 :invoke :cas [0 1]\n0 :fail :cas [0 1]\n", CrashUnknown, porcupine.Ok},
		{"timed-out read", "0 :invoke :write 1\n0 :ok :write 1\n1 :invoke :read nil\n1 :fail :read :timed-out\n",
			CrashUnknown, porcupine.Ok},
		{"crashed read completed as nil", "0 :invoke :write 1\n0 :ok :write 1\n1 :invoke :read nil\n1 :info :read nil\n",
			CrashInvocation, porcupine.Illegal},
	}
	for _, c := range cases {
		if got := check(t, c.text, "etcd", c.mode); got != c.want {
			t.Errorf("%s (-crashed %s): got %s, want %s", c.name, c.mode, got, c.want)
		}
	}
}

func TestKnossosRegisters(t *testing.T) {
	// A read of nil is a wildcard for Knossos' register, and a :fail cas never happened.
	if got := check(t, "[{:process 0 :type :invoke :f :write :value 1} {:process 0 :type :ok :f :write :value 1}"+
		" {:process 1 :type :invoke :f :read} {:process 1 :type :ok :f :read :value nil}]", "register(0)", CrashUnknown); got != porcupine.Ok {
		t.Errorf("nil read: got %s", got)
	}
	if got := check(t, "[{:process 0 :type :invoke :f :cas :value [0 1]} {:process 0 :type :fail :f :cas :value [0 1]}]",
		"cas-register(0)", CrashUnknown); got != porcupine.Ok {
		t.Errorf("failed cas whose condition held: got %s", got)
	}
	if got := check(t, "[{:process 0 :type :invoke :f :read} {:process 0 :type :ok :f :read :value 0}]",
		"cas-register()", CrashUnknown); got != porcupine.Illegal {
		t.Errorf("cas-register() starts nil: got %s", got)
	}
}

func TestKv(t *testing.T) {
	// Process 0's append crashes; the get sees it after the put.
	crashedAppend := `{:process 0, :type :invoke, :f :append, :key "k", :value "x"}
{:process 0, :type :info, :f :append, :key "k", :value "x"}
{:process 1, :type :invoke, :f :put, :key "k", :value "p"}
{:process 1, :type :ok, :f :put, :key "k", :value "p"}
{:process 2, :type :invoke, :f :get, :key "k", :value nil}
{:process 2, :type :ok, :f :get, :key "k", :value "px"}
`
	if got := check(t, crashedAppend, "kv", CrashUnknown); got != porcupine.Ok {
		t.Errorf("crashed append: got %s", got)
	}
	if got := check(t, crashedAppend, "kv", CrashDrop); got != porcupine.Illegal {
		t.Errorf("crashed append dropped: got %s", got)
	}
	// A crashed get on a written key: harmless as unknown, illegal when it "returns" "".
	crashedGet := `{:process 0, :type :invoke, :f :put, :key "k", :value "p"}
{:process 0, :type :ok, :f :put, :key "k", :value "p"}
{:process 1, :type :invoke, :f :get, :key "k", :value nil}
{:process 1, :type :info, :f :get, :key "k", :value nil}
{:process 2, :type :invoke, :f :get, :key "j", :value nil}
{:process 2, :type :ok, :f :get, :key "j", :value nil}
`
	if got := check(t, crashedGet, "kv", CrashUnknown); got != porcupine.Ok {
		t.Errorf("crashed get: got %s", got)
	}
	if got := check(t, crashedGet, "kv", CrashInvocation); got != porcupine.Illegal {
		t.Errorf("crashed get read as \"\": got %s", got)
	}
	// An initial state from the spec.
	if got := check(t, `{:process 0, :type :invoke, :f :append, :key "k", :value "b"}
{:process 0, :type :ok, :f :append, :key "k", :value "b"}
{:process 0, :type :invoke, :f :get, :key "k", :value nil}
{:process 0, :type :ok, :f :get, :key "k", :value "ab"}
`, `kv({"k" "a"})`, CrashUnknown); got != porcupine.Ok {
		t.Errorf("kv with an initial state: got %s", got)
	}
}

func TestUnsupportedModel(t *testing.T) {
	if _, err := checkerFor(Spec{Name: "fifo-queue"}); err == nil {
		t.Error("fifo-queue should be reported as unsupported")
	}
}
