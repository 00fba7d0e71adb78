package lsp

import (
	"context"
	"sync"

	"github.com/wfc-lang/wfc"
	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/codegen"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/parser"
)

// result is one analysis of the whole workspace program: what the library
// pipeline returns (syntax tree, sorted diagnostics, schedule tables).
type result struct {
	prog      *ast.Program
	checked   *check.Result
	diags     []diag.Diagnostic
	schedules []*codegen.Schedule
	err       error // ctx.Err() when cancelled

	// sem are the checker's and the lints' diagnostics before ignore
	// comments apply: what recheck updates.
	sem []diag.Diagnostic
	// incremental tells how the program was checked (for tests and logs).
	incremental bool
	// part is what recheck checked last, for the next keystroke.
	part checkedPart
}

// parsed is one file's syntax tree with its syntax diagnostics.
type parsed struct {
	src   string
	file  *ast.File
	diags []diag.Diagnostic
}

// parseCache keeps each file's last parse and the last analysis: files
// parse independently (the parser has no cross-file state), so after an
// edit only the edited file is parsed again, and within it only the edited
// declaration where that is safe (reparseDecl); then only the workflows the
// edit can affect are checked again where that is safe (recheck). One
// analysis runs at a time; the last result is kept only when it belongs to
// the cached trees (an analysis cancelled after parsing forgets it).
type parseCache struct {
	mu    sync.Mutex
	files map[string]*parsed
	last  *result
	// partialSafe says whether the checker's rules allow re-checking only
	// the edited workflows: check.PartialRecheckSafe, which reads the
	// rules' declared scopes (a test puts a program-wide rule in its place).
	partialSafe func() bool
}

func newParseCache() *parseCache {
	return &parseCache{files: map[string]*parsed{}, partialSafe: check.PartialRecheckSafe}
}

// parse returns the trees of files, parsing only those whose text changed,
// and the next cache content. edit is set when exactly one file changed,
// in one declaration.
func (pc *parseCache) parse(files []parser.Source) (out []*parsed, keep map[string]*parsed, edit *declEdit) {
	out = make([]*parsed, len(files))
	keep = make(map[string]*parsed, len(files))
	var todo []parser.Source
	var at []int
	changed := 0
	for i, f := range files {
		p := pc.files[f.Name]
		if p != nil && p.src == f.Src {
			out[i], keep[f.Name] = p, p
			continue
		}
		changed++
		if np, e, ok := reparseDecl(p, f.Name, f.Src); ok {
			out[i], keep[f.Name], edit = np, np, e
			continue
		}
		todo = append(todo, f)
		at = append(at, i)
	}
	if changed != 1 || len(todo) > 0 || len(files) != len(pc.files) {
		edit = nil
	}
	if len(todo) > 0 {
		prog, ds := parser.Parse(todo, parser.Options{})
		byFile := map[string][]diag.Diagnostic{}
		for _, d := range ds {
			byFile[d.File] = append(byFile[d.File], d)
		}
		for k, f := range prog.Files {
			p := &parsed{src: f.Src, file: f, diags: byFile[f.Name]}
			out[at[k]], keep[f.Name] = p, p
		}
	}
	return out, keep, edit
}

// analyze runs the library pipeline over the workspace's files with the
// parse cache: wfc.RunParsed's steps — check, wfc.Lower (tables
// and their lints), wfc.Finish (ignore comments with their scopes,
// project settings from wfc.json, sort) — with two shortcuts: unchanged
// files are not parsed again and, after an edit inside one workflow, only
// the workflows it can affect are checked and lowered again (recheck). Both
// paths end in wfc.Finish, so the server reports what `wfc check`
// reports.
func analyze(ctx context.Context, pc *parseCache, files []parser.Source) *result {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return &result{err: err}
	}
	last := pc.last
	ps, keep, edit := pc.parse(files)
	// The trees are good whatever happens next: keep them, so a check
	// cancelled now (the user typed on) does not cost the next one a parse.
	// The last result no longer matches them until this check completes.
	pc.files, pc.last = keep, nil
	prog := &ast.Program{Files: make([]*ast.File, len(ps))}
	var syntax []diag.Diagnostic
	sources := make(diag.Sources, len(files))
	for i, p := range ps {
		prog.Files[i] = p.file
		syntax = append(syntax, p.diags...)
		sources[files[i].Name] = files[i].Src
	}
	if err := ctx.Err(); err != nil {
		return &result{err: err}
	}
	res := &result{prog: prog}
	if edit != nil {
		if sem, cons, scheds, part, ok := recheck(last, edit, prog, pc.partialSafe()); ok {
			res.sem, res.schedules, res.incremental, res.part = sem, scheds, true, part
			res.checked = &check.Result{Consumers: cons}
		}
	}
	if !res.incremental {
		res.checked = check.CheckWith(prog, check.Options{Info: true}) // the index's hover reads them
		var lints []diag.Diagnostic
		res.schedules, lints = wfc.Lower(res.checked, lowering())
		res.sem = append(append([]diag.Diagnostic{}, res.checked.Diags...), lints...)
	}
	ds := append(append([]diag.Diagnostic(nil), syntax...), res.sem...)
	res.diags = wfc.Finish(prog, sources, ds, wfc.Options{Settings: projectSettings()})
	pc.last = res
	return res
}
