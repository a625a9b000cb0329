// Command ariadne-check-json checks an ariadne JSON history file (docs/formats.md)
// through the Go package, as a Go program holding []Operation would: it reads the
// events, pairs each process's invocation with its completion into Operations
// (Call and Return are event positions; a crashed op, :info or never completed,
// returns at math.MaxInt64), checks them with a pass-through converter, and prints
// one JSON object whose op ids are the file's, so that it compares directly with
// `ariadne check FILE --json`:
//
//	ariadne-check-json -model cas-register [-independent] [-init EDN] FILE
//	{"verdict": "linearizable", "linearization": [0, 2, ...], "core": [], "failing_op": null,
//	 "seconds_reading": 0.41, "seconds_checking": 0.12}
//
// seconds_checking is what a Go user waits for: Check, conversion included; reading
// and pairing the file is seconds_reading. Exit status as `ariadne check`: 0
// linearizable, 1 not, 2 unknown, 64/65/70 an error.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"time"

	"ariadne"
)

// event is one event object of the file; process stays raw, since only integers
// are clients.
type event struct {
	Process json.RawMessage `json:"process"`
	Type    string          `json:"type"`
	F       string          `json:"f"`
	Value   interface{}     `json:"value"`
	Key     interface{}     `json:"key"`
}

func main() {
	model := flag.String("model", "", "model spec, e.g. cas-register (required)")
	init := flag.String("init", "", "initial state as EDN (overrides the spec's)")
	independent := flag.Bool("independent", false, "values are [key value] tuples, each key its own history")
	engine := flag.String("engine", "", "engine (default auto)")
	consistency := flag.String("consistency", "", "linearizable (default), sequential, sequential-per-key")
	timeout := flag.Duration("timeout", 0, "give up after this long (e.g. 30s), answering unknown")
	jobs := flag.Int("jobs", 0, "threads at once (0: every CPU)")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: ariadne-check-json -model SPEC [-independent] [-init EDN] [-engine E] [-timeout D] FILE")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *model == "" || flag.NArg() != 1 {
		flag.Usage()
		os.Exit(64)
	}

	start := time.Now()
	ops, ids, err := readOperations(flag.Arg(0))
	if err != nil {
		fmt.Fprintf(os.Stderr, "ariadne-check-json: %s: %v\n", flag.Arg(0), err)
		os.Exit(65)
	}
	reading := time.Since(start)

	m := ariadne.Model{Spec: *model, Convert: ariadne.ConvertRaw}
	if *init != "" {
		m.Init = ariadne.EDN(*init)
	}
	opts := ariadne.Options{Independent: *independent, Engine: *engine, Consistency: *consistency,
		Timeout: *timeout, Jobs: *jobs}
	start = time.Now()
	result, err := ariadne.Check(m, ops, opts)
	checking := time.Since(start)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		if e, ok := err.(*ariadne.Error); ok {
			os.Exit(e.Status)
		}
		os.Exit(70)
	}

	// The file's op ids: the position of each op's invocation among all its events.
	fileIDs := func(indices []int) []int {
		out := make([]int, len(indices))
		for i, index := range indices {
			out[i] = ids[index]
		}
		return out
	}
	var failing interface{}
	if result.FailingOp >= 0 {
		failing = ids[result.FailingOp]
	}
	out := bufio.NewWriter(os.Stdout)
	encoder := json.NewEncoder(out)
	_ = encoder.Encode(map[string]interface{}{
		"verdict":          result.Verdict,
		"linearization":    fileIDs(result.Linearization),
		"core":             fileIDs(result.Core),
		"core_minimal":     result.CoreMinimal,
		"failing_op":       failing,
		"seconds_reading":  reading.Seconds(),
		"seconds_checking": checking.Seconds(),
	})
	_ = out.Flush()
	switch {
	case result.Holds():
		os.Exit(0)
	case result.Violated():
		os.Exit(1)
	}
	os.Exit(2)
}

// readOperations reads the file's events and pairs them into Operations, returning
// with each op its id in the file.
func readOperations(path string) ([]ariadne.Operation, []int, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer file.Close()
	decoder := json.NewDecoder(bufio.NewReaderSize(file, 1<<20))
	decoder.UseNumber()
	if err := openEvents(decoder); err != nil {
		return nil, nil, err
	}
	var ops []ariadne.Operation
	var ids []int
	open := map[int64]int{} // process -> its open op
	for position := 0; decoder.More(); position++ {
		var e event
		if err := decoder.Decode(&e); err != nil {
			return nil, nil, fmt.Errorf("event %d: %v", position, err)
		}
		process, err := strconv.ParseInt(string(e.Process), 10, 64)
		if err != nil || process < math.MinInt || process > math.MaxInt {
			continue // not a client (a nemesis, a name): it still counts for positions
		}
		switch e.Type {
		case "invoke":
			if _, busy := open[process]; busy {
				return nil, nil, fmt.Errorf("event %d: process %d invokes while its op is open", position, process)
			}
			open[process] = len(ops)
			ops = append(ops, ariadne.Operation{ClientId: int(process), Call: int64(position), Return: math.MaxInt64,
				Input: ariadne.RawInput{F: e.F, Key: e.Key, Value: e.Value}})
			ids = append(ids, position)
		case "ok", "fail", "info":
			i, busy := open[process]
			if !busy {
				if e.Type == "info" {
					continue // a note with nothing open, left out as the checker does
				}
				return nil, nil, fmt.Errorf("event %d: completion of process %d, which has no open op", position, process)
			}
			delete(open, process)
			if e.Type == "info" {
				continue // crashed: its Return stays math.MaxInt64, its outcome unknown
			}
			outcome := ariadne.OutcomeOK
			if e.Type == "fail" {
				outcome = ariadne.OutcomeFail
			}
			value := e.Value
			if value == nil && ops[i].Input.(ariadne.RawInput).Value != nil {
				// null after an invocation of something else: RawOutput's nil Value
				// would repeat the invocation's, so it is said explicitly
				value = ariadne.EDN("nil")
			}
			ops[i].Return = int64(position)
			ops[i].Output = ariadne.RawOutput{Value: value, Outcome: outcome}
		default:
			return nil, nil, fmt.Errorf("event %d: type %q is none of invoke, ok, fail, info", position, e.Type)
		}
	}
	return ops, ids, nil
}

// openEvents consumes the document up to the first event: a bare array, or an
// object's "events" member.
func openEvents(decoder *json.Decoder) error {
	token, err := decoder.Token()
	if err != nil {
		return err
	}
	switch token {
	case json.Delim('['):
		return nil
	case json.Delim('{'):
		for decoder.More() {
			name, err := decoder.Token()
			if err != nil {
				return err
			}
			if name == "events" {
				token, err := decoder.Token()
				if err != nil {
					return err
				}
				if token != json.Delim('[') {
					return fmt.Errorf(`"events" is not an array`)
				}
				return nil
			}
			var skip json.RawMessage
			if err := decoder.Decode(&skip); err != nil {
				return err
			}
		}
		return io.ErrUnexpectedEOF
	}
	return fmt.Errorf("expected an array of events or an object with \"events\"")
}
