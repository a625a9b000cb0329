// The sequential models, written against Porcupine's public Model API, and the
// translation of a history's operations into []porcupine.Operation for each.
//
// Porcupine ships no models: a model is the caller's Init, Step, Equal (and
// optionally Partition, Hash and Describe*) functions. The ones below follow
// the semantics ariadne documents for the same model names (`ariadne --help`,
// and ../../../shared/corpus/porcupine/README.md for kv and etcd), so that a
// disagreement between the two checkers is a disagreement about the search or
// about crashed operations, not about what the model means.
package main

import (
	"fmt"
	"hash/fnv"
	"strings"

	"github.com/anishathalye/porcupine"
)

// CrashMode says what the harness does with a crashed operation (an :info
// completion, or an invocation that never completed).
type CrashMode string

const (
	// CrashUnknown is what Porcupine's own etcd test harness does, applied to
	// every model: the op keeps its invocation time and returns after the last
	// event of the file, with an "unknown" output that the model accepts in any
	// state; a write, put, append or cas still applies its effect there.
	// Placed last, it changes nothing anyone observed, so "it never happened"
	// is covered too. This is the default and the semantics ariadne uses.
	CrashUnknown CrashMode = "unknown"
	// CrashInvocation also returns the op after the last event, but as if it
	// had completed with its invocation's value: a crashed get returns "" (what
	// Porcupine's kv test parser gives every op still open at the end of a
	// file), a crashed read returns nil, a crashed cas succeeded.
	CrashInvocation CrashMode = "invocation"
	// CrashDrop removes crashed ops from the history, as a harness that keeps
	// only completed operations would.
	CrashDrop CrashMode = "drop"
)

func parseCrashMode(s string) (CrashMode, error) {
	switch m := CrashMode(s); m {
	case CrashUnknown, CrashInvocation, CrashDrop:
		return m, nil
	}
	return "", fmt.Errorf("unknown -crashed mode %q (unknown, invocation, drop)", s)
}

// Spec is a model spec from an expected.tsv: a name and an optional initial
// state, e.g. "kv", "etcd", "cas-register(0)", "register()".
type Spec struct {
	Name string
	Init Value // nil when the spec gives none
}

func parseSpec(text string) (Spec, error) {
	text = strings.TrimSpace(text)
	open := strings.IndexByte(text, '(')
	if open < 0 {
		return Spec{Name: text}, nil
	}
	if !strings.HasSuffix(text, ")") {
		return Spec{}, fmt.Errorf("bad model spec %q", text)
	}
	spec := Spec{Name: text[:open]}
	inner := &ednReader{src: text[open+1 : len(text)-1]}
	if end, err := inner.atEnd(); err != nil || end {
		return spec, err // "register()": no initial state given
	}
	init, err := inner.read()
	if err != nil {
		return Spec{}, fmt.Errorf("model spec %q: %v", text, err)
	}
	if end, _ := inner.atEnd(); !end {
		return Spec{}, fmt.Errorf("model spec %q: one initial state expected", text)
	}
	spec.Init = init
	return spec, nil
}

// Checker bundles a Porcupine model with the translation of ops into its
// inputs and outputs.
type Checker struct {
	Model porcupine.Model
	// Build turns a file's operations into Porcupine's, given what to do
	// with crashed ones. It rejects ops the model has no meaning for.
	Build func(ops []Op, mode CrashMode) ([]porcupine.Operation, error)
	// PartitionName names a partition (kv: its key); nil for unpartitioned models.
	PartitionName func(part []porcupine.Operation) string
}

// SupportedModels lists the model names checkerFor accepts.
const SupportedModels = "kv, etcd (etcd-register-cas), register, cas-register"

// checkerFor returns the checker for a model spec, or an error if the harness
// has no Porcupine model for it.
func checkerFor(spec Spec) (*Checker, error) {
	switch spec.Name {
	case "kv":
		return kvChecker(spec.Init)
	case "etcd", "etcd-register-cas":
		return registerChecker(flavorEtcd, spec.Init), nil
	case "register":
		return registerChecker(flavorRegister, spec.Init), nil
	case "cas-register":
		return registerChecker(flavorCASRegister, spec.Init), nil
	}
	return nil, fmt.Errorf("no Porcupine model for %q in this harness (it has %s)", spec.Name, SupportedModels)
}

// ---------------------------------------------------------------------------
// Registers: Knossos' register and cas-register, and Porcupine's etcd register.
//
// The state is the canonical EDN text of the register's value ("nil" for nil).
//
//   - register, cas-register (Knossos): a read of nil is a wildcard (the client
//     never learned the value); a cas succeeds only where the state equals its
//     old value; a :fail op never happened and is left out.
//   - etcd (porcupine_test.go's etcdModel): the register starts absent, which
//     is the value nil; a read of nil observed it absent; a :fail cas is kept as
//     an observation (legal only where the state is not its old value); a
//     :fail read timed out and is left out (Porcupine's own harness gives it an
//     unknown output, which is the same); a :fail write is left out.
//   - Any flavor, crashed: a read is always legal; a write applies; a cas
//     applies where its old value matches and changes nothing elsewhere.

type registerFlavor int

const (
	flavorRegister registerFlavor = iota
	flavorCASRegister
	flavorEtcd
)

type registerInput struct {
	Op   string // read, write or cas
	A, B string // write: A is the value; cas: A is old, B is new
}

type registerOutput struct {
	Unknown bool   // crashed: nothing was observed
	Failed  bool   // etcd: the cas was observed to fail
	Value   string // read: what it returned
}

func registerChecker(flavor registerFlavor, init Value) *Checker {
	initial := canon(init) // nil: Knossos' default, and etcd's "absent"
	step := func(state, input, output any) (bool, any) {
		st, in, out := state.(string), input.(registerInput), output.(registerOutput)
		switch in.Op {
		case "read":
			if out.Unknown || (flavor != flavorEtcd && out.Value == "nil") {
				return true, st
			}
			return out.Value == st, st
		case "write":
			return true, in.A
		default: // cas
			switch {
			case out.Unknown:
				if st == in.A {
					return true, in.B
				}
				return true, st
			case out.Failed:
				return st != in.A, st
			default:
				return st == in.A, in.B
			}
		}
	}
	build := func(ops []Op, mode CrashMode) ([]porcupine.Operation, error) {
		var out []porcupine.Operation
		for _, op := range ops {
			in := registerInput{Op: op.F}
			switch {
			case op.F == "read":
			case op.F == "write":
				in.A = canon(op.Input)
			case op.F == "cas" && flavor != flavorRegister:
				pair, ok := op.Input.(Vector)
				if !ok || len(pair) != 2 {
					return nil, fmt.Errorf("op %d: :cas needs [old new], got %s", op.ID, canon(op.Input))
				}
				in.A, in.B = canon(pair[0]), canon(pair[1])
			default:
				return nil, fmt.Errorf("op %d: the model has no :%s", op.ID, op.F)
			}
			var res registerOutput
			switch op.Status {
			case StatusOK:
				if op.F == "read" {
					res.Value = canon(op.Output)
				}
			case StatusFailed:
				if flavor != flavorEtcd || op.F != "cas" {
					continue // it did not happen
				}
				res.Failed = true
			case StatusCrashed:
				switch mode {
				case CrashDrop:
					continue
				case CrashUnknown:
					res.Unknown = true
				case CrashInvocation:
					if op.F == "read" {
						res.Value = canon(op.Input)
					}
				}
			}
			out = append(out, porcupine.Operation{ClientId: int(op.Process), Input: in, Output: res,
				Call: op.Call, Return: op.Return})
		}
		return out, nil
	}
	describeOp := func(input, output any) string {
		in, out := input.(registerInput), output.(registerOutput)
		suffix := ""
		if out.Unknown {
			suffix = " (crashed)"
		}
		switch in.Op {
		case "read":
			if out.Unknown {
				return "read() -> ?" + suffix
			}
			return "read() -> " + out.Value
		case "write":
			return "write(" + in.A + ")" + suffix
		default:
			result := "ok"
			switch {
			case out.Unknown:
				result = "?"
			case out.Failed:
				result = "fail"
			}
			return "cas(" + in.A + ", " + in.B + ") -> " + result + suffix
		}
	}
	return &Checker{
		Model: porcupine.Model{
			Init:              func() any { return initial },
			Step:              step,
			Hash:              func(state any) uint64 { return hashString(state.(string)) },
			DescribeOperation: describeOp,
			DescribeState: func(state any) string {
				if flavor == flavorEtcd && state.(string) == "nil" {
					return "absent"
				}
				return state.(string)
			},
		},
		Build: build,
	}
}

// ---------------------------------------------------------------------------
// kv: Porcupine's key/value store (porcupine_test.go's kvModel), partitioned by
// key. Every key holds a string, "" until written; get(K) -> S is legal iff the
// key holds S (a get that returned nil reads as "", as in ariadne); put sets,
// append concatenates. A :fail op never happened. Crashed: a get is always
// legal, a put or append applies.

type kvInput struct {
	Op    string // get, put or append
	Key   string // canonical EDN of the key, e.g. "\"0\""
	Value string // put, append: the argument
}

type kvOutput struct {
	Unknown bool   // crashed get: nothing was observed
	Value   string // get: what it returned
}

// kvState is one key's string. Porcupine's Init has no key to go by, so a key
// that was never written takes its initial string from the spec lazily.
type kvState struct {
	Written bool
	Value   string
}

func kvChecker(init Value) (*Checker, error) {
	initial := map[string]string{} // canonical key -> initial string
	if init != nil {
		m, ok := init.(Map)
		if !ok {
			return nil, fmt.Errorf("kv: the initial state must be a map from keys to strings")
		}
		for _, e := range m {
			s, ok := e.Val.(string)
			if !ok {
				return nil, fmt.Errorf("kv: the initial state must be a map from keys to strings")
			}
			initial[canon(e.Key)] = s
		}
	}
	current := func(st kvState, key string) string {
		if st.Written {
			return st.Value
		}
		return initial[key]
	}
	step := func(state, input, output any) (bool, any) {
		st, in, out := state.(kvState), input.(kvInput), output.(kvOutput)
		switch in.Op {
		case "get":
			return out.Unknown || out.Value == current(st, in.Key), st
		case "put":
			return true, kvState{true, in.Value}
		default: // append
			return true, kvState{true, current(st, in.Key) + in.Value}
		}
	}
	partition := func(history []porcupine.Operation) [][]porcupine.Operation {
		byKey := map[string][]porcupine.Operation{}
		var keys []string
		for _, op := range history {
			key := op.Input.(kvInput).Key
			if _, seen := byKey[key]; !seen {
				keys = append(keys, key) // first appearance: a stable order
			}
			byKey[key] = append(byKey[key], op)
		}
		parts := make([][]porcupine.Operation, len(keys))
		for i, key := range keys {
			parts[i] = byKey[key]
		}
		return parts
	}
	build := func(ops []Op, mode CrashMode) ([]porcupine.Operation, error) {
		var out []porcupine.Operation
		for _, op := range ops {
			if op.Key == nil {
				return nil, fmt.Errorf("op %d: :%s has no :key", op.ID, op.F)
			}
			in := kvInput{Op: op.F, Key: canon(op.Key)}
			switch op.F {
			case "get":
			case "put", "append":
				s, ok := op.Input.(string)
				if !ok {
					return nil, fmt.Errorf("op %d: :%s needs a string, got %s", op.ID, op.F, canon(op.Input))
				}
				in.Value = s
			default:
				return nil, fmt.Errorf("op %d: kv has no :%s (get, put, append)", op.ID, op.F)
			}
			var res kvOutput
			switch op.Status {
			case StatusFailed:
				continue // it did not happen
			case StatusOK:
				if op.F == "get" {
					s, err := kvString(op, op.Output)
					if err != nil {
						return nil, err
					}
					res.Value = s
				}
			case StatusCrashed:
				switch mode {
				case CrashDrop:
					continue
				case CrashUnknown:
					res.Unknown = true
				case CrashInvocation:
					if op.F == "get" {
						s, err := kvString(op, op.Input)
						if err != nil {
							return nil, err
						}
						res.Value = s
					}
				}
			}
			out = append(out, porcupine.Operation{ClientId: int(op.Process), Input: in, Output: res,
				Call: op.Call, Return: op.Return})
		}
		return out, nil
	}
	describeOp := func(input, output any) string {
		in, out := input.(kvInput), output.(kvOutput)
		switch in.Op {
		case "get":
			if out.Unknown {
				return fmt.Sprintf("get(%s) -> ? (crashed)", in.Key)
			}
			return fmt.Sprintf("get(%s) -> %q", in.Key, out.Value)
		default:
			return fmt.Sprintf("%s(%s, %q)", in.Op, in.Key, in.Value)
		}
	}
	return &Checker{
		Model: porcupine.Model{
			Partition: partition,
			Init:      func() any { return kvState{} },
			Step:      step,
			Hash: func(state any) uint64 {
				st := state.(kvState)
				if st.Written {
					return hashString(st.Value) ^ 1
				}
				return hashString(st.Value)
			},
			DescribeOperation: describeOp,
			DescribeState: func(state any) string {
				st := state.(kvState)
				if !st.Written {
					return "(initial)"
				}
				return fmt.Sprintf("%q", st.Value)
			},
		},
		Build: build,
		PartitionName: func(part []porcupine.Operation) string {
			if len(part) == 0 {
				return "?"
			}
			return part[0].Input.(kvInput).Key
		},
	}, nil
}

// kvString reads a get's result: a string, or nil for a key never written.
func kvString(op Op, v Value) (string, error) {
	switch s := v.(type) {
	case nil:
		return "", nil
	case string:
		return s, nil
	}
	return "", fmt.Errorf("op %d: :get returned %s, not a string", op.ID, canon(v))
}

func hashString(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}
