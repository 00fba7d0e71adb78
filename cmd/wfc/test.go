package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/interp"
	"github.com/wfc-lang/wfc/wftest"
)

type testFlags struct {
	run     string
	verbose bool
	format  string
	cover   bool
	svg     string
}

// newTestCmd is `wfc test`: it runs the tests written in the language
// (docs/language.md, "Tests") on the reference interpreter, like `go test`.
//
// Its flags are spelt as go test's, `-run REGEX`, `-v`, `-cover`, and also
// with two dashes: cobra's flag parser reads `-run` as `-r -u -n`, so the
// command parses its own arguments (DisableFlagParsing) after turning the
// single-dash long forms into double-dash ones.
func newTestCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	var f testFlags
	cmd := &cobra.Command{
		Use:   "test [flags] PATH...",
		Short: "Run the tests written in workflow files (*_test.wf)",
		Long: `Test reads the files and directories given, with the *_test.wf files of the
directories, as one program, and runs its tests on the reference interpreter's
virtual clock (docs/language.md, "Tests"). A program or test with errors is
reported and not run. Each test prints one line, as go test does; a failing
expectation is shown with the transcript around it.

Exit status: 0 every test passed; 1 a test failed, or the program or a test
has errors; 2 a usage error or an unreadable path.`,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			fl := cmd.Flags()
			if err := fl.Parse(goStyleFlags(args)); err != nil {
				return usageError(cmd, "%v", err)
			}
			if help, _ := fl.GetBool("help"); help {
				return cmd.Help()
			}
			if err := needPaths(cmd, fl.Args()); err != nil {
				return err
			}
			return runTest(f, fl.Args(), stdin, stdout, stderr)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.run, "run", "", "run only the tests whose name matches this regular expression")
	fl.BoolVarP(&f.verbose, "v", "v", false, "print each test's transcript")
	fl.StringVar(&f.format, "format", "text", "output format: text or json (docs/schema/test.schema.json)")
	fl.BoolVar(&f.cover, "cover", false, "report coverage: states, transitions, cases, milestone and step outcomes")
	fl.StringVar(&f.svg, "svg", "", "write each test's run timeline to DIR/NAME.svg")
	fl.BoolP("help", "h", false, "help for test")
	cmd.SetUsageFunc(func(c *cobra.Command) error {
		fmt.Fprint(c.OutOrStderr(), goStyleUsage(c))
		return nil
	})
	return cmd
}

// goStyleUsage is the command's usage with its flags spelt as the docs
// and go test spell them, one dash (`-run REGEX`, `-cover`); two dashes
// work as well, and the usage says so.
func goStyleUsage(c *cobra.Command) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Usage:\n  %s\n\nFlags (one dash, as go test spells them, or two):\n", c.UseLine())
	type row struct{ name, usage string }
	var rows []row
	width := 0
	c.Flags().VisitAll(func(f *pflag.Flag) {
		name := "-" + f.Name
		if f.Shorthand != "" && f.Shorthand != f.Name {
			name = "-" + f.Shorthand + ", " + name
		}
		if t := f.Value.Type(); t != "bool" {
			name += " " + t
		}
		u := f.Usage
		if f.DefValue != "" && f.Value.Type() != "bool" {
			u += fmt.Sprintf(" (default %q)", f.DefValue)
		}
		rows = append(rows, row{name, u})
		width = max(width, len(name))
	})
	for _, r := range rows {
		fmt.Fprintf(&b, "  %-*s   %s\n", width, r.name, r.usage)
	}
	return b.String()
}

// goStyleFlags turns go test's single-dash long flags (`-run`, `-cover`,
// `-format`, `-run=X`) into the double-dash form pflag reads; `--` ends the
// flags.
func goStyleFlags(args []string) []string {
	out := make([]string, 0, len(args))
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...)
		}
		name, _, _ := strings.Cut(strings.TrimPrefix(a, "-"), "=")
		if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && (name == "run" || name == "cover" || name == "format" || name == "svg" || name == "help") {
			a = "-" + a
		}
		out = append(out, a)
	}
	return out
}

func runTest(f testFlags, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if f.format != "text" && f.format != "json" {
		return fmt.Errorf("unknown --format %q: use text or json", f.format)
	}
	var re *regexp.Regexp
	if f.run != "" {
		var err error
		if re, err = regexp.Compile(f.run); err != nil {
			return fmt.Errorf("bad -run pattern: %v", err)
		}
	}
	l := loadFiles(args, stdin, "<stdin>", stderr, true)
	defer limitMemory(l)()
	a := analyze(l)
	w := bufio.NewWriterSize(stdout, 64<<10)
	defer w.Flush()
	if errs, _ := diag.Counts(a.diags); errs > 0 || l.failed {
		var err error
		if f.format == "json" {
			err = diag.WriteJSONNotes(w, a.diags, len(l.order), l.notes)
		} else {
			err = diag.WriteText(w, a.diags, l.bytes, diag.TextOptions{})
			if err == nil && errs > 0 {
				// Only a program with errors gets the verdict; an unreadable
				// path is said on standard error, and no summary contradicts it.
				_, err = fmt.Fprintf(w, "%s\nFAIL: the program has errors; no test was run\n", diag.Summary(a.diags, len(l.order)))
			}
		}
		if err != nil {
			return fmt.Errorf("writing output: %w", err)
		}
		if l.failed {
			return exitError{exitUsage}
		}
		return exitError{exitFound}
	}
	var cov *wftest.Coverage
	if f.cover {
		cov = wftest.NewCoverage(a.result, a.schedules)
	}
	var pics *runPictures
	if f.svg != "" {
		var err error
		if pics, err = newRunPictures(f.svg); err != nil {
			return err
		}
	}
	doc := testDoc{Tests: []testJSON{}}
	for _, t := range a.result.Program.Tests {
		if re != nil && !re.MatchString(t.Name) {
			continue
		}
		// Only -v, -svg and the JSON document read whole transcripts:
		// otherwise the runs keep none, and a failure brings the entries
		// around it.
		r := wftest.Run(a.result, t, wftest.Options{Schedules: a.schedules, Cover: cov, Discard: !f.verbose && f.format != "json" && pics == nil})
		if pics != nil {
			if err := pics.write(r); err != nil {
				return err
			}
		}
		j := testJSON{Name: t.Name, File: t.Decl.File.Name, Line: int(t.Decl.Range.Start.Line), Workflow: t.Workflow.Decl.Name.Name,
			Passed: r.Passed(), ElapsedMS: float64(r.Elapsed) / float64(time.Millisecond), Seconds: r.Elapsed.Seconds(), Failures: []failureJSON{}}
		if r.Err != nil {
			j.Error = r.Err.Error()
		}
		for _, x := range r.Failures {
			j.Failures = append(j.Failures, failureJSON{File: x.File, Line: int(x.Range.Start.Line), Column: int(x.Range.Start.Column),
				Expect: x.Expect.Kind.String(), Message: x.Message})
		}
		if f.verbose || !r.Passed() {
			j.Transcript = r.Transcript
		}
		if r.Passed() {
			doc.Passed++
		} else {
			doc.Failed++
		}
		doc.Tests = append(doc.Tests, j)
		if f.format == "text" {
			writeTestText(w, f, r)
		}
	}
	if f.format == "json" {
		if cov != nil {
			doc.Coverage = cov
		}
		// One Write of the whole document, through the escaping every JSON
		// of wfc's goes through (diag.SafeJSON): a name holding `##[` or a
		// bidi control stays inert in a CI log.
		b, err := json.MarshalIndent(doc, "", "  ")
		if err != nil {
			return err
		}
		diag.SafeJSON(w).Write(append(b, '\n'))
	} else {
		switch {
		case len(doc.Tests) == 0 && re != nil:
			fmt.Fprintf(w, "no test matches -run %s\n", diag.Escape(strconv.Quote(f.run)))
		case len(doc.Tests) == 0:
			fmt.Fprintln(w, "no tests to run")
		}
		if cov != nil {
			w.WriteString(cov.Text())
		}
		verdict := "PASS"
		if doc.Failed > 0 {
			verdict = "FAIL"
		}
		fmt.Fprintf(w, "%s: %d passed, %d failed\n", verdict, doc.Passed, doc.Failed)
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	if doc.Failed > 0 {
		return exitError{exitFound}
	}
	return nil
}

// writeTestText writes one test's line, as go test does, and what failed.
// Every text that came from the program (the test's name, its file's name,
// the transcript's names and arguments, the messages that quote them) goes
// through diag's escaping, as `wfc check`'s output does: a name holding a
// line break, `::error::` or `##[` stays one inert line in a CI log. A file
// name that starts a line is escaped as a line's start (EscapeLineStart).
func writeTestText(w io.Writer, f testFlags, r *wftest.Result) {
	t := r.Test
	name := diag.Escape(t.Name)
	if f.verbose {
		fmt.Fprintf(w, "=== RUN   %s\n", name)
		if r.Transcript != nil {
			for _, e := range r.Transcript.Entries {
				fmt.Fprintf(w, "    %s\n", diag.Escape(e.String()))
			}
		}
	}
	verdict := "PASS"
	if !r.Passed() {
		verdict = "FAIL"
	}
	fmt.Fprintf(w, "--- %s: %s (%.2fs)\n", verdict, name, r.Elapsed.Seconds())
	if r.Err != nil {
		fmt.Fprintf(w, "    %s:%d: the run stopped: %s\n", diag.EscapeLineStart(t.Decl.File.Name), t.Decl.Range.Start.Line, diag.Escape(r.Err.Error()))
	}
	for _, x := range r.Failures {
		fmt.Fprintf(w, "    %s:%d:%d: %s: %s\n", diag.EscapeLineStart(x.File), x.Range.Start.Line, x.Range.Start.Column, x.Expect.Kind, diag.Escape(x.Message))
		if !f.verbose {
			io.WriteString(w, x.Context)
		}
	}
}

// testDoc is `wfc test --format json`'s document
// (docs/schema/test.schema.json).
type testDoc struct {
	Tests    []testJSON       `json:"tests"`
	Passed   int              `json:"passed"`
	Failed   int              `json:"failed"`
	Coverage *wftest.Coverage `json:"coverage,omitempty"`
}

type testJSON struct {
	Name     string `json:"name"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Workflow string `json:"workflow"`
	Passed   bool   `json:"passed"`
	// ElapsedMS is the run's wall-clock time in milliseconds; Seconds the
	// same in seconds, the field's name until this release (deprecated,
	// dropped in the next: docs/language.md, "JSON output").
	ElapsedMS float64       `json:"elapsed_ms"`
	Seconds   float64       `json:"seconds"`
	Error     string        `json:"error,omitempty"`
	Failures  []failureJSON `json:"failures"`
	// Transcript is the run's transcript (docs/schema/transcript.schema.json),
	// for a test that failed, and for every test with -v.
	Transcript *interp.Transcript `json:"transcript,omitempty"`
}

type failureJSON struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Expect  string `json:"expect"`
	Message string `json:"message"`
}
