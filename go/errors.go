package ariadne

import (
	"fmt"
	"regexp"
	"strconv"
)

// The statuses of an *Error: the C API's, which are the command line's exit statuses.
const (
	StatusUsage    = 64 // an unknown model, engine or consistency; a Model without Convert
	StatusInput    = 65 // a history the model cannot read, a converter's error, ops out of sequence
	StatusInternal = 70 // a bug in ariadne, or memory exhausted
)

// Error is every error Check and CheckEvents return: the status and a message that
// names the caller's op where there is one ("ops[17]: ..." or "events[4]: ...").
type Error struct {
	Status  int
	Message string
	// Err is the error underneath, when there is one: a converter's.
	Err error
}

func (e *Error) Error() string { return "ariadne: " + e.Message }

// Unwrap gives errors.Is and errors.As the converter's own error.
func (e *Error) Unwrap() error { return e.Err }

// Is matches any *Error of the same status, so errors.Is(err, ariadne.ErrInput)
// asks "was the history bad?".
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Message == "" && t.Status == e.Status
}

// Sentinels for errors.Is, one per status.
var (
	ErrUsage    = &Error{Status: StatusUsage}
	ErrInput    = &Error{Status: StatusInput}
	ErrInternal = &Error{Status: StatusInternal}
)

func inputError(format string, args ...interface{}) *Error {
	return &Error{Status: StatusInput, Message: fmt.Sprintf(format, args...)}
}

// The C API names an event it was given as "history:N:1" (N counting from 1) and a
// value's or a key's fault as "history event N:1:C" (C the column inside it). Each is rewritten
// as the caller's op and which of its two events. (Messages about events out of
// sequence also say "at N:1"; Check refuses those itself, with its own words, first.)
var (
	eventPlace  = regexp.MustCompile(`history:(\d+):\d+`)
	valuePlace  = regexp.MustCompile(`history event (\d+):\d+:(\d+)`)
	opMentioned = regexp.MustCompile(`\bop (\d+)\b`)
	// "ops 3, 20 and 43": a list of op ids in the one-sentence why.
	opsListed = regexp.MustCompile(`\bops (\d+(?:(?:, | and )\d+)+)\b`)
	opNumber  = regexp.MustCompile(`\d+`)
)

// translate rewrites the C API's event positions in message as names of the
// caller's ops; name(i) names the i-th event added (from 0), or "" when it cannot.
func translate(message string, name func(event int) string) string {
	replace := func(re *regexp.Regexp, format func(named string, m []string) string) {
		message = re.ReplaceAllStringFunc(message, func(match string) string {
			m := re.FindStringSubmatch(match)
			n, err := strconv.Atoi(m[1])
			if err != nil || n < 1 {
				return match
			}
			named := name(n - 1)
			if named == "" {
				return match
			}
			return format(named, m)
		})
	}
	replace(valuePlace, func(named string, m []string) string { return named + " at column " + m[2] })
	replace(eventPlace, func(named string, _ []string) string { return named })
	return message
}

// translateOpIds rewrites the explanation's op ids ("op 12", "ops 3, 20 and 43") as
// the caller's names ("ops[5]", "ops[1], ops[7] and ops[9]"); name(id) is "" for an
// id it cannot name, left as it is.
func translateOpIds(text string, name func(id int) string) string {
	text = opsListed.ReplaceAllStringFunc(text, func(match string) string {
		ids := opsListed.FindStringSubmatch(match)[1]
		named := opNumber.ReplaceAllStringFunc(ids, func(number string) string {
			n, err := strconv.Atoi(number)
			if err != nil {
				return number
			}
			if named := name(n); named != "" {
				return named
			}
			return "op " + number
		})
		if named == ids {
			return match
		}
		return named
	})
	return opMentioned.ReplaceAllStringFunc(text, func(match string) string {
		n, err := strconv.Atoi(opMentioned.FindStringSubmatch(match)[1])
		if err != nil {
			return match
		}
		if named := name(n); named != "" {
			return named
		}
		return match
	})
}
