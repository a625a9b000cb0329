package ariadne

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"unicode/utf8"
)

// Values reach the checker as EDN text (Clojure's data notation, what Jepsen and
// Knossos write), because that is what the C API reads: one text per value, parsed
// there into the values the models compare. The encoder below appends straight into
// one buffer shared by the whole history, so a value costs no allocation of its own.

// EDN is a value already written as EDN text ("[1 2]", ":ok", "#{1 2}"), passed to the
// checker as it is: for values the Go types below do not cover.
type EDN string

// Keyword is an EDN keyword: Keyword("x") is :x. A plain string is an EDN string.
type Keyword string

// Set is an EDN set: Set{1, 2} is #{1 2}, what a set model's read returns.
type Set []interface{}

// appendEDN appends v as EDN text. The common cases (nil, integers, strings, and the
// slices of them that registers and queues use) take no reflection.
func appendEDN(buf []byte, v interface{}) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(buf, "nil"...), nil
	case int:
		return strconv.AppendInt(buf, int64(x), 10), nil
	case int64:
		return strconv.AppendInt(buf, x, 10), nil
	case int32:
		return strconv.AppendInt(buf, int64(x), 10), nil
	case int16:
		return strconv.AppendInt(buf, int64(x), 10), nil
	case int8:
		return strconv.AppendInt(buf, int64(x), 10), nil
	case uint:
		return strconv.AppendUint(buf, uint64(x), 10), nil
	case uint64:
		// Beyond int64 the reader keeps it as a big integer: nothing is lost.
		return strconv.AppendUint(buf, x, 10), nil
	case uint32:
		return strconv.AppendUint(buf, uint64(x), 10), nil
	case uint16:
		return strconv.AppendUint(buf, uint64(x), 10), nil
	case uint8:
		return strconv.AppendUint(buf, uint64(x), 10), nil
	case string:
		return appendEDNString(buf, x), nil
	case bool:
		return strconv.AppendBool(buf, x), nil
	case float64:
		return appendEDNFloat(buf, x), nil
	case float32:
		return appendEDNFloat(buf, float64(x)), nil
	case EDN:
		if len(x) == 0 {
			return nil, fmt.Errorf("empty ariadne.EDN value (use nil for nil)")
		}
		return append(buf, x...), nil
	case Keyword:
		if !validKeyword(string(x)) {
			return nil, fmt.Errorf("%q is not an EDN keyword name", string(x))
		}
		return append(append(buf, ':'), x...), nil
	case json.Number:
		return appendJSONNumber(buf, x)
	case []interface{}:
		return appendSequence(buf, '[', ']', len(x), func(buf []byte, i int) ([]byte, error) { return appendEDN(buf, x[i]) })
	case Set:
		return appendSequence(buf, '{', '}', len(x), func(buf []byte, i int) ([]byte, error) { return appendEDN(buf, x[i]) }, '#')
	case []int:
		return appendSequence(buf, '[', ']', len(x), func(buf []byte, i int) ([]byte, error) {
			return strconv.AppendInt(buf, int64(x[i]), 10), nil
		})
	case []int64:
		return appendSequence(buf, '[', ']', len(x), func(buf []byte, i int) ([]byte, error) {
			return strconv.AppendInt(buf, x[i], 10), nil
		})
	case []string:
		return appendSequence(buf, '[', ']', len(x), func(buf []byte, i int) ([]byte, error) {
			return appendEDNString(buf, x[i]), nil
		})
	case map[string]interface{}:
		return appendMap(buf, reflect.ValueOf(x))
	case map[string]string:
		return appendMap(buf, reflect.ValueOf(x))
	}
	return appendReflected(buf, reflect.ValueOf(v))
}

// appendSequence writes open, the n elements separated by spaces, and close, after
// an optional prefix (# for a set).
func appendSequence(buf []byte, open, close byte, n int, element func([]byte, int) ([]byte, error), prefix ...byte) ([]byte, error) {
	buf = append(buf, prefix...)
	buf = append(buf, open)
	var err error
	for i := 0; i < n; i++ {
		if i > 0 {
			buf = append(buf, ' ')
		}
		if buf, err = element(buf, i); err != nil {
			return nil, err
		}
	}
	return append(buf, close), nil
}

// appendReflected covers the other slices, arrays, maps and pointers, e.g. [2]int for
// a cas or map[string]int for a multi-register's initial state.
func appendReflected(buf []byte, v reflect.Value) ([]byte, error) {
	switch v.Kind() {
	case reflect.Invalid:
		return append(buf, "nil"...), nil
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return append(buf, "nil"...), nil
		}
		return appendEDN(buf, v.Elem().Interface())
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			return append(buf, "[]"...), nil
		}
		return appendSequence(buf, '[', ']', v.Len(), func(buf []byte, i int) ([]byte, error) {
			return appendEDN(buf, v.Index(i).Interface())
		})
	case reflect.Map:
		return appendMap(buf, v)
	case reflect.String:
		return appendEDNString(buf, v.String()), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.AppendInt(buf, v.Int(), 10), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.AppendUint(buf, v.Uint(), 10), nil
	case reflect.Bool:
		return strconv.AppendBool(buf, v.Bool()), nil
	case reflect.Float32, reflect.Float64:
		return appendEDNFloat(buf, v.Float()), nil
	}
	return nil, fmt.Errorf("a value of type %s has no EDN form (give the converter's values as "+
		"integers, strings, slices, maps, or ariadne.EDN text)", v.Type())
}

// appendMap writes a map with its entries in the order of their keys' EDN text, so
// that equal maps give equal text whatever Go's iteration order.
func appendMap(buf []byte, m reflect.Value) ([]byte, error) {
	if m.IsNil() {
		return append(buf, "{}"...), nil
	}
	type entry struct{ key, value []byte }
	entries := make([]entry, 0, m.Len())
	iter := m.MapRange()
	for iter.Next() {
		key, err := appendEDN(nil, iter.Key().Interface())
		if err != nil {
			return nil, err
		}
		value, err := appendEDN(nil, iter.Value().Interface())
		if err != nil {
			return nil, err
		}
		entries = append(entries, entry{key, value})
	}
	sort.Slice(entries, func(i, j int) bool { return string(entries[i].key) < string(entries[j].key) })
	buf = append(buf, '{')
	for i, e := range entries {
		if i > 0 {
			buf = append(buf, ", "...)
		}
		buf = append(append(append(buf, e.key...), ' '), e.value...)
	}
	return append(buf, '}'), nil
}

// appendEDNString writes s between quotes with EDN's escapes. Bytes that are not
// UTF-8 pass through as they are: the reader compares strings as bytes.
func appendEDNString(buf []byte, s string) []byte {
	buf = append(buf, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		buf = append(buf, s[start:i]...)
		switch c {
		case '"':
			buf = append(buf, `\"`...)
		case '\\':
			buf = append(buf, `\\`...)
		case '\n':
			buf = append(buf, `\n`...)
		case '\t':
			buf = append(buf, `\t`...)
		case '\r':
			buf = append(buf, `\r`...)
		case '\b':
			buf = append(buf, `\b`...)
		case '\f':
			buf = append(buf, `\f`...)
		default:
			buf = append(buf, `\u00`...)
			buf = append(buf, "0123456789abcdef"[c>>4], "0123456789abcdef"[c&15])
		}
		start = i + 1
	}
	buf = append(buf, s[start:]...)
	return append(buf, '"')
}

// appendEDNFloat writes a double so that it reads back as a double: with a fraction
// or an exponent, never as an integer.
func appendEDNFloat(buf []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(buf, "##NaN"...)
	case math.IsInf(f, 1):
		return append(buf, "##Inf"...)
	case math.IsInf(f, -1):
		return append(buf, "##-Inf"...)
	}
	start := len(buf)
	buf = strconv.AppendFloat(buf, f, 'g', -1, 64)
	for _, c := range buf[start:] {
		if c == '.' || c == 'e' {
			return buf
		}
	}
	return append(buf, ".0"...)
}

// appendJSONNumber writes a number as encoding/json decoded it with UseNumber: an
// integer stays an integer (big ones included), the rest is a double.
func appendJSONNumber(buf []byte, n json.Number) ([]byte, error) {
	text := string(n)
	if _, err := strconv.ParseInt(text, 10, 64); err == nil {
		return append(buf, text...), nil
	}
	if isJSONInteger(text) {
		return append(buf, text...), nil // beyond 64 bits: a big integer
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return nil, fmt.Errorf("json.Number %q is not a number", text)
	}
	return appendEDNFloat(buf, f), nil
}

func isJSONInteger(s string) bool {
	if len(s) > 0 && s[0] == '-' {
		s = s[1:]
	}
	if len(s) == 0 || (s[0] == '0' && len(s) > 1) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// validKeyword accepts the names EDN's reader reads back as one keyword.
func validKeyword(name string) bool {
	if name == "" || !utf8.ValidString(name) {
		return false
	}
	switch name[0] {
	case ':', '#', '\'', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return false
	}
	for i := 0; i < len(name); i++ {
		switch name[i] {
		case ' ', '\t', '\n', '\r', ',', '(', ')', '[', ']', '{', '}', '"', ';', '\\', '@', '^', '`', '~':
			return false
		}
	}
	return true
}
