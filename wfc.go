// Package wfc is the compiler as a library, and the driver at the top of
// it: parse → check (the model, its rules) → lower and lint → a backend if
// asked (the Temporal export) → finish (ignore comments, project settings,
// sorting). It lives at the module's root because it sits above every
// stage it calls — nothing below imports it — and because
// `github.com/wfc-lang/wfc` is the name a user of the library imports.
//
// Every caller goes through it: the command line, the language server, the
// tests and the browser playground. Run takes the sources of a program and
// returns its syntax tree, every diagnostic (parsed, checked, linted,
// suppressed by ignore comments, project settings applied, sorted), the
// lowered schedule tables and the model. A Session runs the same program
// again and again, checking again only the files an edit can change
// (session.go), and with a Cache keeps what each file yields between
// processes (cache.go); its results are byte for byte Run's.
//
//	res := wfc.Run(ctx, []wfc.Source{{Name: "flow.wf", Src: src}}, wfc.Options{})
//	for _, d := range res.Diagnostics { … }
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

// Source is one file of a program: the name diagnostics give it and its
// text.
type Source = parser.Source

// Diagnostic is one problem found in a program, with its position, related
// locations and fixes.
type Diagnostic = diag.Diagnostic

// Settings are a file's project settings (its wfc.json, package config):
// the warnings it disables and those it makes errors.
type Settings = diag.Settings

// Sources maps each file's name to its text, for rendering diagnostics.
type Sources = diag.Sources

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
	// diagnostics (the Export phase, WF401–WF405) are finished with
	// the others, so ignore comments and wfc.json apply to them too. It
	// runs only when the program has no error. Nil runs none.
	Export func(schedules []*codegen.Schedule) []diag.Diagnostic
	// Sources are the files' texts by name when the caller keeps them
	// already (the command line's loader does): Run uses them as
	// Result.Sources instead of building a copy of the index. They must
	// hold every file given to Run, as given; nil builds them.
	Sources diag.Sources
	// Info records, for each file, the object of every name in it and
	// the words of the language it uses (check.Info: Result.Info), which
	// the editor's navigation and hovers read. A check that does not ask
	// does not pay for them.
	Info bool
	// DiagnosticsOnly says the caller reads only Result.Diagnostics (`wfc
	// check`): the files whose results a session or its cache holds are
	// then neither parsed nor checked again, and Program, Checked,
	// Schedules and Info are left empty. Export overrides it.
	DiagnosticsOnly bool
	// Cache, when set, keeps what each file yields between runs and
	// processes (Cache). Without it a session keeps its results in
	// memory only.
	Cache *Cache
	// CacheFile says which files' results the cache keeps; nil keeps
	// every file's. The language server keeps those of the files it read
	// from disk, not the buffers being edited, which no other run will
	// read.
	CacheFile func(file string) bool
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
	// Checked is the checker's own result: the model (Checked.Program)
	// and the policy consumers, for callers that lower again with other
	// options.
	Checked *check.Result
	// Err is ctx.Err() when the run was cancelled; the other fields then
	// hold what was done before (possibly nothing).
	Err error
	// Rechecked are the files this run checked, in the program's order:
	// a Session's run checks only what changed and what that can change
	// (for tests and logs).
	Rechecked []string
	info      map[string]*check.Info
}

// Info is the names of file (with Options.Info): the object each defines or
// uses, and the words of the language it spells. A Session's is the file's
// own; a one-time Run's is the whole program's, which every file shares
// (look a node of the file up in it). It is nil for a file not in the
// program, or without Options.Info.
func (r *Result) Info(file string) *check.Info {
	if r.info == nil {
		return nil
	}
	return r.info[file]
}

// Run parses, checks, lints and lowers files as one program: a Session's
// first run.
func Run(ctx context.Context, files []Source, opt Options) *Result {
	s := NewSession(opt)
	s.once = true
	return s.Run(ctx, files)
}

// Lower lowers a checked program's policy consumers into schedule tables
// and lints them (WF310-WF316, read off the tables; a consumer that gets no
// table of its own is lowered for its lints alone). A session lowers the
// consumers of each file it checks here.
func Lower(checked *check.Result, opt codegen.Options) ([]*codegen.Schedule, []diag.Diagnostic) {
	schedules := codegen.Lower(checked, opt)
	lints := codegen.LintSchedules(schedules)
	lints = append(lints, codegen.LintSchedules(codegen.LowerForLints(checked, codegen.Options{MaxRows: opt.MaxRows}))...)
	return schedules, lints
}

// fileEnd is what finishing needs of a file besides its diagnostics.
type fileEnd struct {
	name    string
	ignores []diag.Ignore
	scopes  *fileScopes
}

// finish turns a program's raw diagnostics (syntax, checker, lints, the
// backend's) into what Run reports, file by file: ignore comments applied
// (with WF317 for stale ones), project settings applied, sorted by
// position and code, duplicates removed, at most diag.MaxPerCode of each
// code (then one that counts the rest); the files in the program's order.
// Each file's part depends on its own diagnostics and comments alone, so
// a file's can come from a cache.
func finish(us []fileEnd, ds []diag.Diagnostic, sources diag.Sources, settings func(string) diag.Settings, exported bool) []diag.Diagnostic {
	at := make(map[string]int, len(us))
	var again map[string][]diag.Ignore // a name given twice: the ignores of the later ones
	for i, u := range us {
		if _, ok := at[u.name]; !ok {
			at[u.name] = i
		} else if len(u.ignores) > 0 {
			if again == nil {
				again = map[string][]diag.Ignore{}
			}
			again[u.name] = append(again[u.name], u.ignores...)
		}
	}
	byFile := make([][]diag.Diagnostic, len(us)+1)
	for _, d := range ds {
		i, ok := at[d.File]
		if !ok {
			i = len(us) // not a file of the program: last, as diag.Sort puts it
		}
		byFile[i] = append(byFile[i], d)
	}
	var out []diag.Diagnostic
	for i, fds := range byFile {
		var name string
		var ignores []diag.Ignore
		var scopes *fileScopes
		if i < len(us) {
			u := us[i]
			if at[u.name] != i {
				continue // a name given twice: its diagnostics are with the first
			}
			name, ignores, scopes = u.name, u.ignores, u.scopes
			if more := again[name]; len(more) > 0 {
				ignores = append(append([]diag.Ignore(nil), ignores...), more...)
			}
		}
		if len(fds) == 0 && len(ignores) == 0 {
			continue
		}
		fds = diag.Suppress(fds, ignores, diag.SuppressOptions{Sources: sources, Scope: scopes.scope, Exported: exported})
		if settings != nil {
			fds = applySettings(fds, settings)
		}
		out = append(out, diag.Cap(diag.Sort(fds, []string{name}))...)
	}
	return out
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
