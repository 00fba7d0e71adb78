// Package wfc is the compiler as a library, and the driver at the top of
// it: parse → check (the model, its rules) → lower and lint → a backend if
// asked (the Temporal export) → finish (ignore comments, project settings,
// sorting). It lives at the module's root because it sits above every
// stage it calls — nothing below imports it — and because
// `github.com/wfc-lang/wfc` is the name a user of the library imports.
// One call takes the sources of a program and returns its syntax tree, every diagnostic (parsed, checked,
// linted, suppressed by ignore comments, project settings applied, sorted)
// and the lowered schedule tables. The command line and the tests go
// through Run; the language server calls its parts (RunParsed, Lower,
// Finish) so that it can re-check part of a program, and ends in Finish as
// Run does, so they cannot disagree.
//
// Run is safe for concurrent use: it keeps no state between calls and sets
// nothing process-wide (memory limits and GC settings are the caller's).
package wfc

import (
	"context"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/codegen"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/parser"
)

// Options tune a run. The zero value is what `wfc check` does without flags,
// except that check cuts long tables (Lower.MaxRows = codegen.SummaryRows):
// the zero value lowers every table whole, as `wfc schedule` prints it.
type Options struct {
	// Settings returns the project settings for a file (keyed by the file's
	// name as given in Source.Name); nil means no settings.
	Settings func(file string) diag.Settings
	// Lower tunes the schedule tables (attempt duration, draws, the row
	// bound); the lints and the totals do not depend on it.
	Lower codegen.Options
	// Workers is the number of goroutines that parse; 0 means GOMAXPROCS.
	Workers int
	// Export is a backend run after lowering (`wfc export temporal`): its
	// diagnostics (the Export phase, WF401–WF405) go through Finish with
	// the others, so ignore comments and wfc.json apply to them too. It
	// runs only when the program has no error. Nil runs none.
	Export func(schedules []*codegen.Schedule) []diag.Diagnostic
	// Sources are the files' texts by name when the caller keeps them
	// already (the command line's loader does): Run uses them as
	// Result.Sources instead of building a copy of the index. They must
	// hold every file given to Run, as given; nil builds them.
	Sources diag.Sources
}

// Result is everything Run found out about a program.
type Result struct {
	Program *ast.Program
	// Diagnostics are sorted by file (in the order given), then position,
	// then code, with exact duplicates removed.
	Diagnostics []diag.Diagnostic
	// Schedules are the tables of every valid policy consumer, in source
	// order. They are meaningful only when Diagnostics hold no error.
	Schedules []*codegen.Schedule
	// Sources maps each file's name to its text, for rendering.
	Sources diag.Sources
	// Checked is the checker's own result (the policy consumers), for
	// callers that lower again with other options.
	Checked *check.Result
	// Err is ctx.Err() when the run was cancelled; the other fields then
	// hold what was done before (possibly nothing).
	Err error
}

// Run parses, checks, lints and lowers files as one program.
func Run(ctx context.Context, files []parser.Source, opt Options) *Result {
	if err := ctx.Err(); err != nil {
		return &Result{Sources: sourcesOf(files, opt), Err: err}
	}
	prog, ds := parser.Parse(files, parser.Options{Workers: opt.Workers})
	return RunParsed(ctx, files, prog, ds, opt)
}

// RunParsed is Run after parsing: prog and its syntax diagnostics come from
// the caller (the language server keeps the files that did not change
// parsed). files are the program's sources, in the order of prog.Files.
func RunParsed(ctx context.Context, files []parser.Source, prog *ast.Program, syntax []diag.Diagnostic, opt Options) *Result {
	r := &Result{Sources: sourcesOf(files, opt), Program: prog}
	if r.Err = ctx.Err(); r.Err != nil {
		return r
	}
	ds := append([]diag.Diagnostic(nil), syntax...)
	r.Checked = check.Check(prog)
	ds = append(ds, r.Checked.Diags...)
	var lints []diag.Diagnostic
	r.Schedules, lints = Lower(r.Checked, opt.Lower)
	ds = append(ds, lints...)
	if opt.Export != nil {
		if errs, _ := diag.Counts(ds); errs == 0 {
			ds = append(ds, opt.Export(r.Schedules)...)
		} else {
			opt.Export = nil // not run: its codes are not looked for
		}
	}
	r.Diagnostics = Finish(prog, r.Sources, ds, opt)
	return r
}

// Lower lowers a checked program's policy consumers into schedule tables
// and lints them (WF310-WF316, read off the tables; a consumer that gets no
// table of its own is lowered for its lints alone). A caller that checked
// only part of a program (the language server, after an edit) lowers that
// part here, so its lints are the ones Run reports.
func Lower(checked *check.Result, opt codegen.Options) ([]*codegen.Schedule, []diag.Diagnostic) {
	schedules := codegen.Lower(checked, opt)
	lints := codegen.LintSchedules(schedules)
	lints = append(lints, codegen.LintSchedules(codegen.LowerForLints(checked, codegen.Options{MaxRows: opt.MaxRows}))...)
	return schedules, lints
}

// Finish turns a program's raw diagnostics (syntax, checker, lints) into
// what Run reports: ignore comments applied (with WF317 for stale ones),
// project settings applied, sorted by file in the order of prog.Files, then
// position and code, duplicates removed, at most diag.MaxPerCode of each
// code per file (then one that counts the rest). A caller that assembles the raw
// diagnostics itself calls Finish last, so nothing differs from Run.
func Finish(prog *ast.Program, sources diag.Sources, ds []diag.Diagnostic, opt Options) []diag.Diagnostic {
	order := make([]string, 0, len(prog.Files))
	var ignores []diag.Ignore
	for _, f := range prog.Files {
		order = append(order, f.Name)
		ignores = append(ignores, f.Ignores...)
	}
	ds = diag.Suppress(ds, ignores, diag.SuppressOptions{Sources: sources, Scope: newScopes(prog).scope, Exported: opt.Export != nil})
	if opt.Settings != nil {
		ds = applySettings(ds, opt.Settings)
	}
	return diag.Cap(diag.Sort(ds, order))
}

// sourcesOf maps each file's name to its text (opt.Sources if given).
func sourcesOf(files []parser.Source, opt Options) diag.Sources {
	if opt.Sources != nil {
		return opt.Sources
	}
	s := make(diag.Sources, len(files))
	for _, f := range files {
		s[f.Name] = f.Src
	}
	return s
}

// applySettings applies each file's settings to its diagnostics, asking for
// a file's settings once.
func applySettings(ds []diag.Diagnostic, settings func(string) diag.Settings) []diag.Diagnostic {
	byFile := map[string]diag.Settings{}
	out := ds[:0]
	for _, d := range ds {
		s, ok := byFile[d.File]
		if !ok {
			s = settings(d.File)
			byFile[d.File] = s
		}
		if d, keep := s.Adjust(d); keep {
			out = append(out, d)
		}
	}
	return out
}
