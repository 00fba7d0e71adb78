package main

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/codegen"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/picture"
)

type scheduleFlags struct {
	format    string
	duration  string
	draws     string
	seed      int64
	rows      int
	stdinName string
	settings  settingsFlags
}

// scheduleRows is how many rows of a table, and attempts of a timeline,
// `wfc schedule` prints by default: every table of up to 100 attempts
// whole, and a bounded output per consumer whatever its budget (a Linear
// policy below its cap has a row per attempt: at 10,000 rows, 40 steps
// in 4 KB of source printed 13 MB). --rows raises it to codegen.MaxRows.
const scheduleRows = 100

func newScheduleCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	var f scheduleFlags
	cmd := &cobra.Command{
		Use:   "schedule [flags] PATH...",
		Short: "Print the resolved retry schedule of every milestone and durable step",
		Long: `Schedule lowers every policy consumer — each milestone and each durable step —
into its resolved schedule: the normalised policy, the budget counted both
ways, and per attempt the wait before it and when it starts (see
"The schedule table" in docs/language.md).

In text format the program's warnings go to standard error before the
tables, as wfc check prints them; the JSON document does not carry them.
With --format svg the tables are drawn as timelines (one SVG document):
each attempt at its start, the waits, the jitter band and the give-up; the
warnings go to standard error as in text format.

A program with errors has no schedule: its diagnostics go to standard error
(with --format json, the diagnostics document of wfc check goes to standard
output) and the exit status is 1.`,
		Args: needPaths,
		ValidArgsFunction: func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return []string{"wf"}, cobra.ShellCompDirectiveFilterFileExt
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSchedule(cmd, f, args, stdin, stdout, stderr)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.format, "format", "text", "output format: text, json or svg (a timeline of each table)")
	fl.StringVar(&f.duration, "attempt-duration", "0s", "how long each attempt of a durable step takes (2s, 1m30s, 250ms)")
	fl.StringVar(&f.draws, "draws", "", "replay these uniform draws in [0,1) for jitter, comma-separated, used in turn and from the first again when there are more waits than draws (adds the concrete timeline)")
	fl.Int64Var(&f.seed, "seed", 0, "draw jitter pseudo-randomly from this seed (adds the concrete timeline)")
	fl.IntVar(&f.rows, "rows", scheduleRows, fmt.Sprintf("print at most this many rows of a table, and attempts of a timeline (2 to %d); a Linear table cut short says what its rows leave out", codegen.MaxRows))
	fl.StringVar(&f.stdinName, "stdin-filename", "<stdin>", "name used for - (standard input)")
	f.settings.register(fl)
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{"text", "json", "svg"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

func runSchedule(cmd *cobra.Command, f scheduleFlags, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	opt, err := lowerOptions(cmd, f)
	if err != nil {
		return err
	}
	over, err := f.settings.parse()
	if err != nil {
		return err
	}
	l := load(args, stdin, f.stdinName, stderr)
	applySettings(l, over, stderr)
	defer limitMemory(l)()
	// The diagnostics need the tables' totals and lints only; the tables
	// printed are lowered whole below.
	a := analyzeSummary(l)
	if errs, _ := diag.Counts(a.diags); errs > 0 {
		return noSchedule(f, l, a, stdout, stderr)
	}
	w := bufio.NewWriter(stdout)
	switch f.format {
	case "json":
		err = codegen.WriteJSONNotes(w, codegen.Lower(a.result, opt), l.notes)
	case "svg":
		// The picture of every table (docs/language.md, "The schedule
		// table"); the warnings go to standard error, as with text.
		if len(a.diags) > 0 {
			if err := writeReport(stderr, l, a.diags); err != nil {
				return err
			}
		}
		err = picture.Schedules(w, codegen.Lower(a.result, opt), picture.Options{Standalone: true})
	default:
		// The warnings first, on stderr, so a user sees them (WF312: a
		// policy that waits hours) without running wfc check as well.
		if len(a.diags) > 0 {
			if err := writeReport(stderr, l, a.diags); err != nil {
				return err
			}
		}
		// Table by table: one table in memory at a time.
		first := true
		err = codegen.LowerEach(a.result, opt, func(s *codegen.Schedule) error {
			if !first {
				if err := w.WriteByte('\n'); err != nil {
					return err
				}
			}
			first = false
			return codegen.WriteText(w, []*codegen.Schedule{s})
		})
	}
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	if l.failed {
		return exitError{exitUsage}
	}
	return nil
}

// lowerOptions validates the flags that tune lowering.
func lowerOptions(cmd *cobra.Command, f scheduleFlags) (codegen.Options, error) {
	var opt codegen.Options
	if f.format != "text" && f.format != "json" && f.format != "svg" {
		return opt, fmt.Errorf("unknown --format %q: use text, json or svg", f.format)
	}
	if cmd.Flags().Changed("draws") && cmd.Flags().Changed("seed") {
		return opt, fmt.Errorf("--draws and --seed exclude each other: --draws replays the draws you give, --seed makes them up; give one of them")
	}
	d, err := check.ParseDuration(f.duration)
	if err != nil {
		return opt, fmt.Errorf("--attempt-duration: %w", err)
	}
	opt.AttemptDuration = d
	if f.draws != "" {
		for _, part := range strings.Split(f.draws, ",") {
			u, err := strconv.ParseFloat(strings.TrimSpace(part), 64)
			if err != nil || !(u >= 0 && u < 1) { // NaN compares false
				return opt, fmt.Errorf("--draws: %q is not a number in [0,1)", part)
			}
			opt.Draws = append(opt.Draws, u)
		}
	}
	if cmd.Flags().Changed("seed") {
		opt.Seed, opt.HasSeed = uint64(f.seed), true
	}
	if f.rows < 2 || f.rows > codegen.MaxRows {
		return opt, fmt.Errorf("--rows %d: give a number from 2 to %d", f.rows, codegen.MaxRows)
	}
	opt.MaxRows, opt.MaxTimeline = f.rows, f.rows
	return opt, nil
}

// noSchedule reports a program with errors, which has no schedule: its
// diagnostics as text on stderr, or with --format json the diagnostics
// document on stdout, so a script always gets JSON.
func noSchedule(f scheduleFlags, l *loaded, a *analysis, stdout, stderr io.Writer) error {
	if f.format == "json" {
		if err := diag.WriteJSONNotes(stdout, a.diags, len(l.order), l.notes); err != nil {
			return fmt.Errorf("writing output: %w", err)
		}
	} else if err := writeReport(stderr, l, a.diags); err != nil {
		return err
	}
	fmt.Fprintln(stderr, "wfc: the program has errors, so it has no schedule")
	if l.failed {
		return exitError{exitUsage}
	}
	return exitError{exitFound}
}

// writeReport renders diagnostics as wfc check's text format does, summary
// line and all, without colors: the report that goes to standard error
// beside another command's output.
func writeReport(w io.Writer, l *loaded, ds []diag.Diagnostic) error {
	if err := diag.WriteText(w, ds, l.bytes, diag.TextOptions{}); err != nil {
		return err
	}
	err := writeSummary(w, ds, len(l.order))
	return err
}
