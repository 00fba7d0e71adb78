package main

import (
	"bufio"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/wfc-lang/wfc"
	"github.com/wfc-lang/wfc/codegen"
	"github.com/wfc-lang/wfc/codegen/temporal"
	"github.com/wfc-lang/wfc/diag"
)

// `wfc export temporal` is its own command rather than a `schedule
// --format`: it writes a different document (the engine's policy, not the
// table), reports its own warnings (WF4xx) and has --strict, which a table
// format does not. docs/temporal.md documents it.

type exportFlags struct {
	strict    bool
	stdinName string
}

func newExportCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "export TARGET [flags] PATH...",
		Short: "Export every policy for a workflow engine (temporal)",
		Long: `Export writes every policy consumer's policy in a workflow engine's own form.

  wfc export temporal PATH...   Temporal RetryPolicy per durable step (JSON),
                                windows and waits per milestone

What the engine cannot express is reported as a WF4xx warning on standard
error (see ` + "`wfc explain WF401`" + ` and docs/temporal.md), never changed silently.

Exit status: 0 exported; 1 the program has errors (nothing is exported),
or with --strict a WF4xx warning; 2 usage error or an unreadable path.`,
		Args: oneOfCommands("target"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return usageError(cmd, "name a target: wfc export temporal PATH...")
		},
	}
	var f exportFlags
	tc := &cobra.Command{
		Use:   "temporal [flags] PATH...",
		Short: "Export Temporal RetryPolicies (steps) and windows (milestones) as JSON",
		Long: `Temporal writes, per durable step, Temporal's RetryPolicy in its API's JSON
form (initialInterval, backoffCoefficient, maximumInterval, maximumAttempts)
and, per milestone, the windows and waits that workflow code runs
(integration/temporal runs them). What Temporal cannot express is a WF4xx
warning. See docs/temporal.md.`,
		Args: needPaths,
		ValidArgsFunction: func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return []string{"wf"}, cobra.ShellCompDirectiveFilterFileExt
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runExportTemporal(f, args, stdin, stdout, stderr)
		},
	}
	fl := tc.Flags()
	fl.BoolVar(&f.strict, "strict", false, "a WF4xx warning fails the export (exit 1)")
	fl.StringVar(&f.stdinName, "stdin-filename", "<stdin>", "name used for - (standard input)")
	cmd.AddCommand(tc)
	return cmd
}

// exportTemporal checks, lowers and exports the loaded program in one run
// of the pipeline, so the export's warnings (WF401–WF405) go through its
// last stage with the checker's: `// wfc:ignore` and wfc.json's `disable`
// and `error` apply to them. It returns the entries, the program's own
// diagnostics and the export's, each sorted; the export runs only when the
// program has no error.
func exportTemporal(l *loaded) (es []*temporal.Entry, program, export []diag.Diagnostic) {
	a := analyzeWith(l, wfc.Options{Export: func(s []*codegen.Schedule) []diag.Diagnostic {
		var ds []diag.Diagnostic
		es, ds = temporal.Export(s)
		return ds
	}})
	for _, d := range a.diags {
		if d.Code.Phase() == diag.Export {
			export = append(export, d)
		} else {
			program = append(program, d)
		}
	}
	return es, program, export
}

func runExportTemporal(f exportFlags, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	l := load(args, stdin, f.stdinName, stderr)
	defer limitMemory(l)()
	applySettings(l, diag.Settings{}, stderr) // wfc.json can acknowledge a WF4xx
	es, program, ds := exportTemporal(l)
	if errs, _ := diag.Counts(program); errs > 0 {
		if err := diag.WriteText(stderr, program, l.bytes, diag.TextOptions{}); err != nil {
			return err
		}
		writeSummary(stderr, program, len(l.order))
		fmt.Fprintln(stderr, "wfc: the program has errors, so nothing is exported")
		if l.failed {
			return exitError{exitUsage}
		}
		return exitError{exitFound}
	}
	if len(ds) > 0 {
		// The warnings, then a summary as `wfc check` ends with, and what
		// was written all the same, so the last line says how it went.
		if err := diag.WriteText(stderr, ds, l.bytes, diag.TextOptions{}); err != nil {
			return err
		}
		writeSummary(stderr, ds, len(l.order))
		fmt.Fprintf(stderr, "wfc: exported %d %s; %s\n", len(es), map[bool]string{true: "policy", false: "policies"}[len(es) == 1], exportVerdict(ds, f.strict))
	}
	w := bufio.NewWriter(stdout)
	err := temporal.WriteJSON(w, es)
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	return exitFor(l, ds, f.strict)
}

// exportVerdict says what the export's diagnostics mean for its exit
// status: an error (wfc.json's `error`) always fails it, a warning only
// with --strict.
func exportVerdict(ds []diag.Diagnostic, strict bool) string {
	switch errs, _ := diag.Counts(ds); {
	case errs > 0:
		return "the errors above fail the export (exit 1)"
	case strict:
		return "--strict makes the warnings above fail it (exit 1)"
	}
	return "the warnings above say where Temporal's form differs from the schedule table"
}
