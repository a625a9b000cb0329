// Reading a history file into operations.
//
// The harness reads the formats `ariadne convert` writes (docs/formats.md):
//
//   - jepsen-log: one event per line, "INFO  jepsen.util - 3	:invoke	:cas	[4 4]",
//     as in Porcupine's test_data/jepsen/etcd_*.log;
//   - porcupine-kv: one EDN op map per line, as in Porcupine's test_data/kv/*.txt;
//   - edn: a vector of op maps, or a run of op maps (porcupine-kv is a special case);
//   - json: an array of event objects, or an object whose "events" member is one.
//
// Events pair into operations the way Jepsen records them: per process, an
// invocation opens an operation and the process's next completion closes it.
// :ok means the operation took effect; :fail means it did not; :info (or no
// completion at all) means nobody knows, and the operation is "crashed". Events
// of processes that are not integers (:nemesis) are bookkeeping and ignored.
// File order is real time: an event's position in the file is its timestamp.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ---------------------------------------------------------------------------
// Values

// Value is one datum of a history: nil, bool, int64, BigInt, float64, string,
// Keyword, Symbol, Vector (EDN vectors and lists, JSON arrays), Map or Set.
type Value = any

// Keyword is an EDN keyword, stored without its colon.
type Keyword string

// Symbol is a bare EDN symbol other than nil, true and false.
type Symbol string

// BigInt is an integer beyond int64, as canonical decimal text.
type BigInt string

// Vector is an EDN vector or list, or a JSON array.
type Vector []Value

// MapEntry is one key/value pair of a Map.
type MapEntry struct {
	Key, Val Value
}

// Map is an EDN or JSON map, in file order.
type Map []MapEntry

// Set is an EDN set.
type Set []Value

// get returns the value of the keyword (EDN) or string (JSON) key `name`.
func (m Map) get(name string) (Value, bool) {
	found, ok := Value(nil), false
	for _, e := range m {
		switch k := e.Key.(type) {
		case Keyword:
			if string(k) == name {
				found, ok = e.Val, true // the last occurrence wins, as in Clojure
			}
		case string:
			if k == name {
				found, ok = e.Val, true
			}
		}
	}
	return found, ok
}

// canon renders a value as canonical EDN text, so that two values are equal
// exactly when their texts are. The register models use these texts as states.
func canon(v Value) string {
	switch x := v.(type) {
	case nil:
		return "nil"
	case bool:
		return strconv.FormatBool(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case BigInt:
		return string(x)
	case float64:
		s := strconv.FormatFloat(x, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eIN") {
			s += ".0" // keep 1.0 apart from the integer 1
		}
		return s
	case string:
		return strconv.Quote(x)
	case Keyword:
		return ":" + string(x)
	case Symbol:
		return string(x)
	case Vector:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = canon(e)
		}
		return "[" + strings.Join(parts, " ") + "]"
	case Set:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = canon(e)
		}
		sort.Strings(parts)
		return "#{" + strings.Join(parts, " ") + "}"
	case Map:
		// Later duplicates win, then entries are sorted: key order is not data.
		byKey := map[string]string{}
		for _, e := range x {
			byKey[canon(e.Key)] = canon(e.Val)
		}
		parts := make([]string, 0, len(byKey))
		for k, val := range byKey {
			parts = append(parts, k+" "+val)
		}
		sort.Strings(parts)
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return fmt.Sprintf("<%T>", v)
}

// ---------------------------------------------------------------------------
// EDN reader: the subset of EDN that Jepsen, Knossos and Porcupine files use,
// plus the rest of the syntax so that any well-formed file reads.

type ednReader struct {
	src string
	pos int
}

// syntaxError reports a problem at the reader's position as line:column.
func (r *ednReader) syntaxError(format string, args ...any) error {
	line, col := 1, 1
	for i := 0; i < r.pos && i < len(r.src); i++ {
		if r.src[i] == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return fmt.Errorf("%d:%d: %s", line, col, fmt.Sprintf(format, args...))
}

// skipSpace skips whitespace, commas, ; comments and #_ discarded forms.
func (r *ednReader) skipSpace() error {
	for r.pos < len(r.src) {
		c := r.src[r.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == '\f':
			r.pos++
		case c == ';':
			for r.pos < len(r.src) && r.src[r.pos] != '\n' {
				r.pos++
			}
		case c == '#' && r.pos+1 < len(r.src) && r.src[r.pos+1] == '_':
			r.pos += 2
			if _, err := r.read(); err != nil {
				return err
			}
		default:
			return nil
		}
	}
	return nil
}

// atEnd reports whether only whitespace and comments are left.
func (r *ednReader) atEnd() (bool, error) {
	if err := r.skipSpace(); err != nil {
		return false, err
	}
	return r.pos >= len(r.src), nil
}

func isDelimiter(c byte) bool {
	return strings.IndexByte(" \t\n\r\f,()[]{}\";", c) >= 0
}

// token reads an atom up to the next delimiter.
func (r *ednReader) token() string {
	start := r.pos
	for r.pos < len(r.src) && !isDelimiter(r.src[r.pos]) {
		r.pos++
	}
	return r.src[start:r.pos]
}

// read reads one form.
func (r *ednReader) read() (Value, error) {
	if err := r.skipSpace(); err != nil {
		return nil, err
	}
	if r.pos >= len(r.src) {
		return nil, r.syntaxError("unexpected end of input")
	}
	switch c := r.src[r.pos]; c {
	case '[', '(':
		r.pos++
		items, err := r.readUntil(map[byte]byte{'[': ']', '(': ')'}[c])
		return Vector(items), err
	case '{':
		r.pos++
		items, err := r.readUntil('}')
		if err != nil {
			return nil, err
		}
		if len(items)%2 != 0 {
			return nil, r.syntaxError("a map needs an even number of forms")
		}
		m := make(Map, 0, len(items)/2)
		for i := 0; i < len(items); i += 2 {
			m = append(m, MapEntry{items[i], items[i+1]})
		}
		return m, nil
	case ')', ']', '}':
		return nil, r.syntaxError("unmatched %q", c)
	case '"':
		return r.readString()
	case '\\':
		return r.readChar()
	case '#':
		return r.readDispatch()
	}
	return r.atom(r.token())
}

// readUntil reads forms up to the closing delimiter.
func (r *ednReader) readUntil(closing byte) ([]Value, error) {
	var items []Value
	for {
		if err := r.skipSpace(); err != nil {
			return nil, err
		}
		if r.pos >= len(r.src) {
			return nil, r.syntaxError("missing %q", closing)
		}
		if r.src[r.pos] == closing {
			r.pos++
			return items, nil
		}
		v, err := r.read()
		if err != nil {
			return nil, err
		}
		items = append(items, v)
	}
}

func (r *ednReader) readString() (Value, error) {
	r.pos++ // opening quote
	var b strings.Builder
	for r.pos < len(r.src) {
		c := r.src[r.pos]
		r.pos++
		switch c {
		case '"':
			return b.String(), nil
		case '\\':
			if r.pos >= len(r.src) {
				return nil, r.syntaxError("unterminated string")
			}
			e := r.src[r.pos]
			r.pos++
			switch e {
			case '"', '\\':
				b.WriteByte(e)
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'u':
				if r.pos+4 > len(r.src) {
					return nil, r.syntaxError("bad \\u escape")
				}
				n, err := strconv.ParseUint(r.src[r.pos:r.pos+4], 16, 32)
				if err != nil {
					return nil, r.syntaxError("bad \\u escape")
				}
				r.pos += 4
				b.WriteRune(rune(n))
			default:
				return nil, r.syntaxError("unknown escape \\%c", e)
			}
		default:
			b.WriteByte(c)
		}
	}
	return nil, r.syntaxError("unterminated string")
}

// readChar reads a character literal (\a, \newline, \u0041) as a one-character string.
func (r *ednReader) readChar() (Value, error) {
	r.pos++ // backslash
	if r.pos >= len(r.src) {
		return nil, r.syntaxError("bad character literal")
	}
	_, size := utf8.DecodeRuneInString(r.src[r.pos:])
	name := r.src[r.pos : r.pos+size]
	r.pos += size
	name += r.token()
	named := map[string]string{"newline": "\n", "space": " ", "tab": "\t", "return": "\r", "backspace": "\b", "formfeed": "\f"}
	if s, ok := named[name]; ok {
		return s, nil
	}
	if len(name) == 5 && name[0] == 'u' {
		if n, err := strconv.ParseUint(name[1:], 16, 32); err == nil {
			return string(rune(n)), nil
		}
	}
	if utf8.RuneCountInString(name) != 1 {
		return nil, r.syntaxError("bad character literal \\%s", name)
	}
	return name, nil
}

// readDispatch reads #{...} sets, ##Inf/##-Inf/##NaN and tagged literals (#inst "...",
// whose tag is dropped). #_ is handled by skipSpace.
func (r *ednReader) readDispatch() (Value, error) {
	r.pos++ // '#'
	if r.pos < len(r.src) && r.src[r.pos] == '{' {
		r.pos++
		items, err := r.readUntil('}')
		return Set(items), err
	}
	if r.pos < len(r.src) && r.src[r.pos] == '#' {
		r.pos++
		switch t := r.token(); t {
		case "Inf":
			return math.Inf(1), nil
		case "-Inf":
			return math.Inf(-1), nil
		case "NaN":
			return math.NaN(), nil
		default:
			return nil, r.syntaxError("unknown symbolic value ##%s", t)
		}
	}
	if tag := r.token(); tag == "" {
		return nil, r.syntaxError("bad # dispatch")
	}
	return r.read() // the tagged value, without its tag
}

// atom interprets a bare token: nil, true, false, a number, a keyword or a symbol.
func (r *ednReader) atom(t string) (Value, error) {
	switch {
	case t == "":
		return nil, r.syntaxError("unexpected %q", r.src[r.pos])
	case t == "nil":
		return nil, nil
	case t == "true":
		return true, nil
	case t == "false":
		return false, nil
	case t[0] == ':':
		if len(t) == 1 || t[1] == ':' {
			return nil, r.syntaxError("bad keyword %q", t)
		}
		return Keyword(t[1:]), nil
	case t[0] >= '0' && t[0] <= '9',
		(t[0] == '-' || t[0] == '+') && len(t) > 1 && t[1] >= '0' && t[1] <= '9':
		return r.number(t)
	}
	return Symbol(t), nil
}

// number reads an integer (optionally with the suffix N) or a float (with a
// fraction, an exponent, or the suffix M).
func (r *ednReader) number(t string) (Value, error) {
	isFloat := strings.ContainsAny(t, ".eE") || strings.HasSuffix(t, "M")
	if isFloat {
		f, err := strconv.ParseFloat(strings.TrimSuffix(t, "M"), 64)
		if err != nil {
			return nil, r.syntaxError("bad number %q", t)
		}
		return f, nil
	}
	n, ok := new(big.Int).SetString(strings.TrimPrefix(strings.TrimSuffix(t, "N"), "+"), 10)
	if !ok {
		return nil, r.syntaxError("bad number %q", t)
	}
	return intValue(n), nil
}

// intValue is an int64 when the integer fits, a BigInt otherwise.
func intValue(n *big.Int) Value {
	if n.IsInt64() {
		return n.Int64()
	}
	return BigInt(n.String())
}

// ---------------------------------------------------------------------------
// Events

// Event is one line of a history: an invocation or a completion.
type Event struct {
	Process Value  // an int64 for a client; anything else is ignored
	Type    string // invoke, ok, fail or info
	F       string // the operation's name, without a colon
	Value   Value
	Key     Value // Porcupine's kv format names the key; nil elsewhere
}

// Format names the file formats the harness reads.
type Format string

const (
	FormatAuto   Format = "auto"
	FormatEDN    Format = "edn" // also porcupine-kv, a run of EDN op maps
	FormatJepsen Format = "jepsen-log"
	FormatJSON   Format = "json"
)

// parseFormat accepts the names `ariadne convert --to` uses.
func parseFormat(s string) (Format, error) {
	switch s {
	case "auto":
		return FormatAuto, nil
	case "edn", "porcupine-kv":
		return FormatEDN, nil
	case "jepsen-log":
		return FormatJepsen, nil
	case "json":
		return FormatJSON, nil
	}
	return "", fmt.Errorf("unknown format %q (auto, edn, porcupine-kv, jepsen-log, json)", s)
}

// readEvents parses a whole file in the given format (auto: detected).
func readEvents(text []byte, format Format) ([]Event, error) {
	if format == FormatAuto {
		format = detectFormat(string(text))
	}
	switch format {
	case FormatJepsen:
		return readJepsenLog(string(text))
	case FormatJSON:
		return readJSON(text)
	default:
		return readEDN(string(text))
	}
}

// detectFormat guesses a file's format from its content, with the rules of
// ariadne's auto-detection (docs/formats.md) that tell the three readers apart.
func detectFormat(text string) Format {
	for _, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, ";") {
			continue
		}
		if strings.Contains(line, " jepsen.util - ") || startsLikeEvent(trimmed) {
			return FormatJepsen
		}
		break
	}
	if looksLikeJSON(text) {
		return FormatJSON
	}
	return FormatEDN
}

var eventTypes = map[string]bool{":invoke": true, ":ok": true, ":fail": true, ":info": true}

// startsLikeEvent: a first token that is not a collection, string or comment,
// then :invoke, :ok, :fail or :info as the second token.
func startsLikeEvent(line string) bool {
	fields := strings.Fields(line)
	return len(fields) >= 2 && !strings.ContainsRune("{[(#\";", rune(fields[0][0])) && eventTypes[fields[1]]
}

// looksLikeJSON: "{" (or "[" then "{") then a string key followed by a colon
// that touches the string or is followed by whitespace. In EDN, {"a" :b} maps
// a string to a keyword.
func looksLikeJSON(text string) bool {
	s := strings.TrimLeft(text, " \t\r\n")
	if strings.HasPrefix(s, "[") {
		s = strings.TrimLeft(s[1:], " \t\r\n")
	}
	if !strings.HasPrefix(s, "{") {
		return false
	}
	s = strings.TrimLeft(s[1:], " \t\r\n")
	if !strings.HasPrefix(s, `"`) {
		return false
	}
	i := 1
	for i < len(s) && s[i] != '"' {
		if s[i] == '\\' {
			i++
		}
		i++
	}
	if i >= len(s) {
		return false
	}
	rest := s[i+1:]
	if strings.HasPrefix(rest, ":") {
		return true
	}
	rest = strings.TrimLeft(rest, " \t\r\n")
	return len(rest) >= 2 && rest[0] == ':' && strings.ContainsRune(" \t\r\n", rune(rest[1]))
}

// readEDN reads one vector (or list) of op maps, or a run of top-level op maps.
func readEDN(text string) ([]Event, error) {
	r := &ednReader{src: text}
	var forms []Value
	for {
		end, err := r.atEnd()
		if err != nil {
			return nil, err
		}
		if end {
			break
		}
		v, err := r.read()
		if err != nil {
			return nil, err
		}
		forms = append(forms, v)
	}
	if len(forms) == 1 {
		if items, ok := forms[0].(Vector); ok {
			forms = items
		}
	}
	events := make([]Event, 0, len(forms))
	for i, form := range forms {
		m, ok := form.(Map)
		if !ok {
			return nil, fmt.Errorf("op %d: expected an op map, got %s", i+1, canon(form))
		}
		e, err := eventFromMap(m)
		if err != nil {
			return nil, fmt.Errorf("op %d: %v", i+1, err)
		}
		events = append(events, e)
	}
	return events, nil
}

// eventFromMap reads :process, :type, :f, :value and :key (or their JSON names).
func eventFromMap(m Map) (Event, error) {
	var e Event
	var ok bool
	if e.Process, ok = m.get("process"); !ok {
		return e, fmt.Errorf("no :process")
	}
	t, _ := m.get("type")
	if e.Type = nameOf(t); !eventTypes[":"+e.Type] {
		return e, fmt.Errorf(":type must be :invoke, :ok, :fail or :info, not %s", canon(t))
	}
	f, _ := m.get("f")
	e.F = nameOf(f)
	if _, isClient := e.Process.(int64); isClient && e.F == "" {
		return e, fmt.Errorf("a client event needs :f")
	}
	e.Value, _ = m.get("value")
	e.Key, _ = m.get("key")
	return e, nil
}

// nameOf returns a keyword's or string's text ("" for anything else).
func nameOf(v Value) string {
	switch x := v.(type) {
	case Keyword:
		return string(x)
	case string:
		return x
	}
	return ""
}

// readJepsenLog reads one event per line: process, :type, :f and a value, after
// an optional log prefix ending in " - ". Anything after the value is ignored
// (Jepsen appends error annotations there).
func readJepsenLog(text string) ([]Event, error) {
	var events []Event
	for n, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, ";") {
			continue
		}
		if !startsLikeEvent(trimmed) {
			if i := strings.Index(trimmed, " - "); i >= 0 {
				trimmed = trimmed[i+3:]
			}
		}
		r := &ednReader{src: trimmed}
		var fields [4]Value
		count := 0
		for count < 4 {
			end, err := r.atEnd()
			if err != nil {
				return nil, fmt.Errorf("line %d: %v", n+1, err)
			}
			if end {
				break
			}
			v, err := r.read()
			if err != nil {
				return nil, fmt.Errorf("line %d: %v", n+1, err)
			}
			fields[count] = v
			count++
		}
		if count < 2 {
			return nil, fmt.Errorf("line %d: expected process, :type, :f and value", n+1)
		}
		e := Event{Process: fields[0], Type: nameOf(fields[1]), F: nameOf(fields[2]), Value: fields[3]}
		if !eventTypes[":"+e.Type] {
			return nil, fmt.Errorf("line %d: bad :type %s", n+1, canon(fields[1]))
		}
		events = append(events, e)
	}
	return events, nil
}

// readJSON reads an array of event objects, or an object with an "events" array.
func readJSON(text []byte) ([]Event, error) {
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, err
	}
	if obj, ok := doc.(map[string]any); ok {
		doc = obj["events"]
	}
	items, ok := doc.([]any)
	if !ok {
		return nil, fmt.Errorf("expected an array of events, or an object with \"events\"")
	}
	events := make([]Event, 0, len(items))
	for i, item := range items {
		v, err := fromJSON(item)
		if err != nil {
			return nil, fmt.Errorf("event %d: %v", i+1, err)
		}
		m, ok := v.(Map)
		if !ok {
			return nil, fmt.Errorf("event %d: expected an object", i+1)
		}
		e, err := eventFromMap(m)
		if err != nil {
			return nil, fmt.Errorf("event %d: %v", i+1, err)
		}
		events = append(events, e)
	}
	return events, nil
}

// fromJSON maps decoded JSON onto Values: integers stay integers.
func fromJSON(v any) (Value, error) {
	switch x := v.(type) {
	case json.Number:
		if n, ok := new(big.Int).SetString(x.String(), 10); ok {
			return intValue(n), nil
		}
		f, err := x.Float64()
		return f, err
	case []any:
		out := make(Vector, len(x))
		for i, e := range x {
			var err error
			if out[i], err = fromJSON(e); err != nil {
				return nil, err
			}
		}
		return out, nil
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		out := make(Map, 0, len(x))
		for _, k := range keys {
			val, err := fromJSON(x[k])
			if err != nil {
				return nil, err
			}
			out = append(out, MapEntry{k, val})
		}
		return out, nil
	}
	return v, nil // nil, bool, string
}

// ---------------------------------------------------------------------------
// Operations

// Status says what a history knows about an operation's outcome.
type Status int

const (
	StatusOK      Status = iota // completed with :ok: took effect, result known
	StatusFailed                // completed with :fail: did not take effect
	StatusCrashed               // :info or no completion: may or may not have taken effect
)

// Op is one operation: an invocation and, unless it crashed, its completion.
type Op struct {
	ID      int // the position of the invocation event in the file (ariadne's op id)
	Process int64
	F       string
	Key     Value
	Input   Value // the invocation's value (write, cas and put arguments)
	Output  Value // the completion's value (what a read returned); nil if none
	Status  Status
	Call    int64 // the invocation's position in the file
	Return  int64 // the completion's position; for a crashed op, the number of events
}

// pairEvents pairs each client's invocations with its completions. A crashed op
// returns at len(events): after every event of the file.
func pairEvents(events []Event) ([]Op, error) {
	var ops []Op
	open := map[int64]int{} // process -> index in ops of its open invocation
	for pos, e := range events {
		p, isClient := e.Process.(int64)
		if !isClient {
			continue // :nemesis and other bookkeeping
		}
		if e.Type == "invoke" {
			if i, busy := open[p]; busy {
				return nil, fmt.Errorf("event %d: process %d invokes :%s while its :%s (event %d) is open",
					pos+1, p, e.F, ops[i].F, ops[i].Call+1)
			}
			open[p] = len(ops)
			ops = append(ops, Op{ID: pos, Process: p, F: e.F, Key: e.Key, Input: e.Value,
				Status: StatusCrashed, Call: int64(pos), Return: int64(len(events))})
			continue
		}
		i, busy := open[p]
		if !busy {
			if e.Type == "info" {
				continue // an :info with nothing open is a note, not a completion
			}
			return nil, fmt.Errorf("event %d: :%s for process %d, which has no open invocation", pos+1, e.Type, p)
		}
		if e.F != "" && e.F != ops[i].F {
			return nil, fmt.Errorf("event %d: completion :%s does not match process %d's :%s", pos+1, e.F, p, ops[i].F)
		}
		delete(open, p)
		switch e.Type {
		case "ok":
			ops[i].Status, ops[i].Output, ops[i].Return = StatusOK, e.Value, int64(pos)
		case "fail":
			ops[i].Status, ops[i].Output, ops[i].Return = StatusFailed, e.Value, int64(pos)
		case "info":
			// Outcome unknown: the op stays crashed and open past the last event.
			// (Jepsen gives the thread a fresh process id; if a file reuses the
			// id anyway, the next invocation simply opens a new op.)
		}
	}
	return ops, nil
}
