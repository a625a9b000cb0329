package ariadne

import (
	"fmt"
)

// Outcome is how an operation ended, as far as the client knows.
type Outcome uint8

const (
	// OutcomeOK: it completed and took effect, with Op.Result as its result.
	OutcomeOK Outcome = iota
	// OutcomeFail: it completed and certainly took no effect (a cas that found
	// another value; for the etcd model a failed cas is kept as an observation).
	OutcomeFail
	// OutcomeUnknown: nobody knows (a timeout, a lost connection). The op becomes a
	// crashed (:info) operation, which the checker lets take effect at any time
	// after its call, or never. That is sound, whatever really happened: a request
	// the client gave up on may still be applied by the server later, long after
	// the client stopped waiting, or be lost; allowing every such point (and none)
	// never refutes a correct system, and the op's result, never observed, is not
	// held against it.
	OutcomeUnknown
)

func (o Outcome) String() string {
	switch o {
	case OutcomeOK:
		return "ok"
	case OutcomeFail:
		return "fail"
	case OutcomeUnknown:
		return "unknown"
	}
	return fmt.Sprintf("Outcome(%d)", uint8(o))
}

// Op is an operation in the checker's terms, what a Converter makes of one
// Operation's Input and Output: Jepsen's invocation and completion events.
type Op struct {
	// F names the op as the model knows it: "read", "write", "cas", "get", "put",
	// "append", "enqueue"...
	F string
	// Key is the key for a keyed model (kv: every op names its key); nil otherwise.
	// For Jepsen's independent histories (Options.Independent) the key is part of
	// the value instead: [key value].
	Key interface{}
	// Value is what the invocation asks: a write's value, a cas's [old new], nil
	// for a read.
	Value interface{}
	// Result is what the completion returned, and what the model reads for an ok
	// op: a read's value. nil means the completion repeats Value, as Jepsen records a
	// write, cas, put or append (the completion's value is the op's value); a
	// completion of nil after an invocation of something else is EDN("nil").
	Result interface{}
	// Outcome: ok, fail or unknown.
	Outcome Outcome
}

// Converter turns one operation's Input and Output into an Op. Output is nil when
// nothing was observed (Porcupine's Return == math.MaxInt64, or a call Event with
// no return): the op's outcome is then unknown whatever the converter says, and a
// converter should not fail on it. Values may be any of the Go values listed in
// the package documentation (integers, strings, slices, maps, EDN text...).
type Converter func(input, output interface{}) (Op, error)

// Model says which of the checker's models decides the history and how the
// caller's Inputs and Outputs become its operations.
type Model struct {
	// Spec is the checker's model spec, as `ariadne check --model` takes it:
	// "register", "cas-register", "cas-register(0)", "kv", "etcd", "set",
	// "fifo-queue", "independent(cas-register)"... (`ariadne --help` lists them).
	Spec string
	// Init is the initial state, any value the encoder takes (0, map[string]string
	// for kv...); nil keeps the spec's (register: nil, kv: every key "").
	Init interface{}
	// Convert makes each Operation's Input and Output an Op.
	Convert Converter
}

// WithInit returns the model with the initial state init.
func (m Model) WithInit(init interface{}) Model {
	m.Init = init
	return m
}

// ---- Registers ----------------------------------------------------------------------

// RegisterInput is a register operation: Op is "read", "write" or "cas" (a
// cas-register's compare-and-set from Value to New).
type RegisterInput struct {
	Op    string
	Value interface{} // write: the value; cas: the value it expects
	New   interface{} // cas: the value it sets
}

// RegisterOutput is what a register operation returned. Its zero value is a
// completed write, a successful cas, or a read of nil.
type RegisterOutput struct {
	Value   interface{} // read: the value read (Knossos: nil means the client never learned it)
	Failed  bool        // cas: it found another value and changed nothing
	Unknown bool        // nobody knows what happened (a timeout)
}

// RegisterModel is Knossos' read/write register, starting nil unless Init says
// otherwise (Porcupine's register example starts at 0: WithInit(0)). A read of nil
// is a wildcard. Inputs are RegisterInput, outputs RegisterOutput.
func RegisterModel() Model {
	return Model{Spec: "register", Convert: ConvertRegister}
}

// CASRegisterModel is Knossos' compare-and-set register: read, write, and cas from
// Value to New, a failed cas taking no effect.
func CASRegisterModel() Model {
	return Model{Spec: "cas-register", Convert: ConvertRegister}
}

// ConvertRegister converts RegisterInput and RegisterOutput (or pointers to them).
func ConvertRegister(input, output interface{}) (Op, error) {
	in, err := asInput[RegisterInput](input)
	if err != nil {
		return Op{}, err
	}
	out, unknown, err := asOutput[RegisterOutput](output)
	if err != nil {
		return Op{}, err
	}
	out.Unknown = out.Unknown || unknown
	op := Op{F: in.Op}
	switch in.Op {
	case "read":
		op.Result = out.Value
	case "write":
		op.Value = in.Value
	case "cas":
		op.Value = []interface{}{in.Value, in.New}
		if out.Failed {
			op.Outcome = OutcomeFail
		}
	default:
		return Op{}, fmt.Errorf("register op %q: expected read, write or cas", in.Op)
	}
	if out.Unknown {
		op.Outcome = OutcomeUnknown
	}
	return op, nil
}

// ---- Porcupine's key/value store --------------------------------------------------

// The kv ops, numbered as in Porcupine's kv example and MIT 6.824's
// models.KvInput (0 get, 1 put, 2 append).
const (
	KvGet    uint8 = 0
	KvPut    uint8 = 1
	KvAppend uint8 = 2
)

// KvInput is a kv operation, field for field the shape of Porcupine's kv example
// and of MIT 6.824's models.KvInput, so that ariadne.KvInput(theirs) converts it.
type KvInput struct {
	Op    uint8 // KvGet, KvPut or KvAppend
	Key   string
	Value string // put, append: the argument
}

// KvOutput is what a kv operation returned (a get: the key's string). A nil Output
// means nothing was observed: the op's outcome is unknown.
type KvOutput struct {
	Value string
}

// KvModel is Porcupine's key/value store: every key holds a string, "" until
// written; get returns it, put sets it, append appends to it. Keys are checked
// independently. Inputs are KvInput, outputs KvOutput. Init, if any, is a
// map[string]string of initial strings.
func KvModel() Model {
	return Model{Spec: "kv", Convert: ConvertKv}
}

// ConvertKv converts KvInput and KvOutput (or pointers to them).
func ConvertKv(input, output interface{}) (Op, error) {
	in, err := asInput[KvInput](input)
	if err != nil {
		return Op{}, err
	}
	op := Op{Key: in.Key}
	switch in.Op {
	case KvGet:
		op.F = "get"
	case KvPut:
		op.F, op.Value = "put", in.Value
	case KvAppend:
		op.F, op.Value = "append", in.Value
	default:
		return Op{}, fmt.Errorf("kv op %d: expected KvGet (0), KvPut (1) or KvAppend (2)", in.Op)
	}
	out, unknown, err := asOutput[KvOutput](output)
	switch {
	case err != nil:
		return Op{}, err
	case unknown:
		op.Outcome = OutcomeUnknown
	case in.Op == KvGet:
		op.Result = out.Value
	}
	return op, nil
}

// ---- Porcupine's etcd register --------------------------------------------------------

// The etcd ops, numbered as in Porcupine's etcd test (0 read, 1 write, 2 cas).
const (
	EtcdRead  uint8 = 0
	EtcdWrite uint8 = 1
	EtcdCas   uint8 = 2
)

// EtcdInput is an etcd register operation, the shape of Porcupine's etcd test:
// write Arg1; cas from Arg1 to Arg2.
type EtcdInput struct {
	Op   uint8 // EtcdRead, EtcdWrite or EtcdCas
	Arg1 int
	Arg2 int
}

// EtcdOutput is what it returned: a read found a value (Exists, Value) or the key
// absent; a cas succeeded (Ok) or failed; Unknown: it timed out.
type EtcdOutput struct {
	Ok      bool
	Exists  bool
	Value   int
	Unknown bool
}

// EtcdModel is Porcupine's etcd register, the model of the Jepsen etcd histories:
// it starts absent, a read of absent (Exists false) is an observation, not a
// wildcard, and a failed cas is evidence that the register did not hold Arg1.
func EtcdModel() Model {
	return Model{Spec: "etcd", Convert: ConvertEtcd}
}

// ConvertEtcd converts EtcdInput and EtcdOutput (or pointers to them).
func ConvertEtcd(input, output interface{}) (Op, error) {
	in, err := asInput[EtcdInput](input)
	if err != nil {
		return Op{}, err
	}
	out, unknown, err := asOutput[EtcdOutput](output)
	if err != nil {
		return Op{}, err
	}
	out.Unknown = out.Unknown || unknown
	var op Op
	switch in.Op {
	case EtcdRead:
		op.F = "read"
		if out.Exists {
			op.Result = out.Value
		}
	case EtcdWrite:
		op.F, op.Value = "write", in.Arg1
	case EtcdCas:
		op.F, op.Value = "cas", []int{in.Arg1, in.Arg2}
		if !out.Ok {
			op.Outcome = OutcomeFail
		}
	default:
		return Op{}, fmt.Errorf("etcd op %d: expected EtcdRead (0), EtcdWrite (1) or EtcdCas (2)", in.Op)
	}
	if out.Unknown {
		op.Outcome = OutcomeUnknown
	}
	return op, nil
}

// ---- Any model ----------------------------------------------------------------------

// RawInput and RawOutput name the checker's op directly, for any model (a set, a
// queue, a mutex...) without a converter of one's own: ConvertRaw passes them
// through.
type RawInput struct {
	F     string
	Key   interface{}
	Value interface{}
}

// RawOutput is a RawInput's completion.
type RawOutput struct {
	Value   interface{}
	Outcome Outcome
}

// ConvertRaw converts RawInput and RawOutput (or pointers to them) as they are.
func ConvertRaw(input, output interface{}) (Op, error) {
	in, err := asInput[RawInput](input)
	if err != nil {
		return Op{}, err
	}
	op := Op{F: in.F, Key: in.Key, Value: in.Value}
	out, unknown, err := asOutput[RawOutput](output)
	switch {
	case err != nil:
		return Op{}, err
	case unknown:
		op.Outcome = OutcomeUnknown
	default:
		op.Result, op.Outcome = out.Value, out.Outcome
	}
	return op, nil
}

// asInput is a converter's input as a T, given as a T or a non-nil *T.
func asInput[T any](input interface{}) (T, error) {
	var zero T
	switch x := input.(type) {
	case T:
		return x, nil
	case *T:
		if x != nil {
			return *x, nil
		}
		return zero, fmt.Errorf("Input is a nil *%T", zero)
	}
	return zero, fmt.Errorf("Input is a %T, not an %T", input, zero)
}

// asOutput is a converter's output as a T, given as a T or a *T; unknown when it is
// nil (either way): the op's outcome is unknown.
func asOutput[T any](output interface{}) (out T, unknown bool, err error) {
	switch x := output.(type) {
	case nil:
		return out, true, nil
	case T:
		return x, false, nil
	case *T:
		if x == nil {
			return out, true, nil
		}
		return *x, false, nil
	}
	return out, false, fmt.Errorf("Output is a %T, not an %T", output, out)
}
