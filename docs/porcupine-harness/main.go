// porcupine-harness runs Porcupine, the Go linearizability checker, on every
// row of an expected.tsv corpus whose model it has a Porcupine model for, and
// prints one line per checked file:
//
//	<path as written in the TSV><TAB>Ok|Illegal|Unknown
//
// which `ariadne cross-check CORPUS --import porcupine LISTING` reads back.
// Rows of other models are skipped with a note on stderr; so are rows whose
// file cannot be read (cross-check then counts them as missing).
//
// Usage:
//
//	porcupine-harness -tsv expected.tsv [-timeout 10s] > listing.tsv
//
// See README.md for the flags, for what happens to crashed (:info) operations,
// and for how to build it.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/anishathalye/porcupine"
)

// Row is one line of an expected.tsv: path, expected verdict, model spec.
type Row struct {
	Path     string // as written in the TSV, relative to its folder
	Expected string // linearizable | not-linearizable (or empty)
	Model    string
}

func readTSV(path string) ([]Row, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var rows []Row
	for n, line := range strings.Split(string(data), "\n") {
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) < 3 {
			return nil, fmt.Errorf("%s:%d: expected path<TAB>verdict<TAB>model", path, n+1)
		}
		rows = append(rows, Row{Path: cols[0], Expected: cols[1], Model: cols[2]})
	}
	return rows, nil
}

// options are the command-line flags.
type options struct {
	tsv         string
	timeout     time.Duration
	format      Format
	crashed     CrashMode
	stopEarly   bool
	byPartition bool
	visualize   string
}

// result is what one row came to.
type result struct {
	verdict porcupine.CheckResult
	elapsed time.Duration
	ops     int
	parts   int
}

func main() {
	opts, err := parseFlags()
	if err != nil {
		fmt.Fprintln(os.Stderr, "porcupine-harness:", err)
		os.Exit(2)
	}
	os.Exit(run(opts))
}

func parseFlags() (options, error) {
	var o options
	var format, crashed string
	flag.StringVar(&o.tsv, "tsv", "", "the corpus: an expected.tsv (path<TAB>verdict<TAB>model, paths relative to its folder)")
	flag.DurationVar(&o.timeout, "timeout", 10*time.Second, "Porcupine's timeout per file (0: none)")
	flag.StringVar(&format, "format", "auto", "input format: auto, jepsen-log, porcupine-kv, edn or json")
	flag.StringVar(&crashed, "crashed", string(CrashUnknown),
		"crashed (:info) ops: unknown (open to the end, unknown output: Porcupine's etcd harness), "+
			"invocation (open to the end, returning the invocation's value), or drop")
	flag.BoolVar(&o.stopEarly, "stop-early", false,
		"use CheckOperationsTimeout, which stops at the first illegal partition, instead of CheckOperationsVerbose")
	flag.BoolVar(&o.byPartition, "by-partition", false,
		"kv: also check every key on its own and print each key's verdict and time on stderr")
	flag.StringVar(&o.visualize, "visualize", "", "write Porcupine's HTML visualization of every file not Ok into this folder")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(),
			"Usage: porcupine-harness -tsv expected.tsv [-timeout 10s] > listing.tsv\n\n"+
				"Runs Porcupine on every row whose model is one of: %s;\n"+
				"prints path<TAB>Ok|Illegal|Unknown per row for 'ariadne cross-check --import porcupine'.\n\n", SupportedModels)
		flag.PrintDefaults()
	}
	flag.Parse()
	if o.tsv == "" || flag.NArg() != 0 {
		flag.Usage()
		return o, fmt.Errorf("-tsv is required, and takes no other arguments")
	}
	var err error
	if o.format, err = parseFormat(format); err != nil {
		return o, err
	}
	if o.crashed, err = parseCrashMode(crashed); err != nil {
		return o, err
	}
	return o, nil
}

// run checks every row and returns the exit status: 0 when every supported
// row was checked (whatever the verdicts), 1 when some could not be read.
func run(o options) int {
	rows, err := readTSV(o.tsv)
	if err != nil {
		fmt.Fprintln(os.Stderr, "porcupine-harness:", err)
		return 2
	}
	if o.visualize != "" {
		if err := os.MkdirAll(o.visualize, 0o755); err != nil {
			fmt.Fprintln(os.Stderr, "porcupine-harness:", err)
			return 2
		}
	}
	listing := bufio.NewWriter(os.Stdout)
	defer listing.Flush()

	dir := filepath.Dir(o.tsv)
	counts := map[porcupine.CheckResult]int{}
	var skipped, failed, agree, disagree int
	var checking time.Duration
	start := time.Now()
	for _, row := range rows {
		spec, err := parseSpec(row.Model)
		var checker *Checker
		if err == nil {
			checker, err = checkerFor(spec)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "porcupine-harness: skip %s: %v\n", row.Path, err)
			skipped++
			continue
		}
		path := row.Path
		if !filepath.IsAbs(path) {
			path = filepath.Join(dir, path)
		}
		res, err := checkFile(o, path, row.Path, checker)
		if err != nil {
			fmt.Fprintf(os.Stderr, "porcupine-harness: error %s: %v\n", row.Path, err)
			failed++
			continue
		}
		fmt.Fprintf(listing, "%s\t%s\n", row.Path, res.verdict)
		listing.Flush() // a killed run keeps the rows it finished
		counts[res.verdict]++
		checking += res.elapsed
		switch expectedResult(row.Expected) {
		case "":
		case res.verdict:
			agree++
		default:
			if res.verdict != porcupine.Unknown {
				disagree++
			}
		}
		fmt.Fprintf(os.Stderr, "porcupine-harness: %-7s %9.1f ms  %5d ops  %3d partition(s)  %s\n",
			res.verdict, ms(res.elapsed), res.ops, res.parts, row.Path)
	}
	fmt.Fprintf(os.Stderr, "porcupine-harness: rows %d  checked %d (Ok %d, Illegal %d, Unknown %d)  skipped %d  errors %d\n",
		len(rows), counts[porcupine.Ok]+counts[porcupine.Illegal]+counts[porcupine.Unknown],
		counts[porcupine.Ok], counts[porcupine.Illegal], counts[porcupine.Unknown], skipped, failed)
	fmt.Fprintf(os.Stderr, "porcupine-harness: vs the TSV's expected verdicts: agree %d  disagree %d  (crashed ops: %s)\n",
		agree, disagree, o.crashed)
	fmt.Fprintf(os.Stderr, "porcupine-harness: checking %.1f ms  wall %.1f ms  (timeout %v per file)\n",
		ms(checking), ms(time.Since(start)), o.timeout)
	if failed > 0 {
		return 1
	}
	return 0
}

// expectedResult maps a TSV verdict onto Porcupine's result names.
func expectedResult(verdict string) porcupine.CheckResult {
	switch verdict {
	case "linearizable":
		return porcupine.Ok
	case "not-linearizable":
		return porcupine.Illegal
	}
	return ""
}

// checkFile parses one history, runs Porcupine on it and times the check
// (parsing excluded).
func checkFile(o options, path, name string, checker *Checker) (result, error) {
	text, err := os.ReadFile(path)
	if err != nil {
		return result{}, err
	}
	events, err := readEvents(text, o.format)
	if err != nil {
		return result{}, err
	}
	ops, err := pairEvents(events)
	if err != nil {
		return result{}, err
	}
	history, err := checker.Build(ops, o.crashed)
	if err != nil {
		return result{}, err
	}
	res := result{ops: len(history), parts: 1}
	if checker.Model.Partition != nil {
		res.parts = len(checker.Model.Partition(history))
	}

	t0 := time.Now()
	var info porcupine.LinearizationInfo
	if o.stopEarly {
		res.verdict = porcupine.CheckOperationsTimeout(checker.Model, history, o.timeout)
	} else {
		res.verdict, info = porcupine.CheckOperationsVerbose(checker.Model, history, o.timeout)
	}
	res.elapsed = time.Since(t0)

	if o.visualize != "" && !o.stopEarly && res.verdict != porcupine.Ok {
		out := filepath.Join(o.visualize, strings.NewReplacer("/", "_", "\\", "_").Replace(name)+".html")
		if err := porcupine.VisualizePath(checker.Model, info, out); err != nil {
			fmt.Fprintf(os.Stderr, "porcupine-harness: visualize %s: %v\n", name, err)
		}
	}
	if o.byPartition && checker.PartitionName != nil {
		checkPartitions(o, name, checker, history)
	}
	return res, nil
}

// checkPartitions checks each partition on its own, for a per-key account of
// a partitioned file (which keys are illegal, which time out).
func checkPartitions(o options, name string, checker *Checker, history []porcupine.Operation) {
	single := checker.Model
	single.Partition = nil
	for _, part := range checker.Model.Partition(history) {
		t0 := time.Now()
		verdict := porcupine.CheckOperationsTimeout(single, part, o.timeout)
		fmt.Fprintf(os.Stderr, "porcupine-harness:   %s key %s: %s in %.1f ms (%d ops)\n",
			name, checker.PartitionName(part), verdict, ms(time.Since(t0)), len(part))
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
