package lsp

import (
	"context"
	"sync"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/check/pipeline"
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
}

// parsed is one file's syntax tree with its syntax diagnostics.
type parsed struct {
	src   string
	file  *ast.File
	diags []diag.Diagnostic
}

// parseCache keeps each file's last parse: files parse independently (the
// parser has no cross-file state), so after an edit only the edited file is
// parsed again and the unchanged trees are reused.
type parseCache struct {
	mu    sync.Mutex
	files map[string]*parsed
}

func newParseCache() *parseCache { return &parseCache{files: map[string]*parsed{}} }

// parse returns the trees of files, parsing only those whose text changed,
// and forgets files no longer in the program.
func (pc *parseCache) parse(ctx context.Context, files []parser.Source) ([]*parsed, error) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	out := make([]*parsed, len(files))
	var todo []parser.Source
	var at []int
	keep := make(map[string]*parsed, len(files))
	for i, f := range files {
		if p := pc.files[f.Name]; p != nil && p.src == f.Src {
			out[i] = p
			keep[f.Name] = p
			continue
		}
		todo = append(todo, f)
		at = append(at, i)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(todo) > 0 {
		prog, ds := parser.Parse(todo, parser.Options{})
		byFile := map[string][]diag.Diagnostic{}
		for _, d := range ds {
			byFile[d.File] = append(byFile[d.File], d)
		}
		for k, f := range prog.Files {
			p := &parsed{src: f.Src, file: f, diags: byFile[f.Name]}
			out[at[k]] = p
			keep[f.Name] = p
		}
	}
	pc.files = keep
	return out, nil
}

// analyze runs the library pipeline over the workspace's files: parse (with
// the cache), check, lower the schedules, lint them, apply ignore comments,
// sort. It mirrors check/pipeline.Run step for step; the only difference is
// that unchanged files are not parsed again.
//
// An incremental path (re-checking only what an edit can affect) must not
// mirror the pipeline: lower and lint its part with pipeline.Lower and finish
// with pipeline.Finish (ignore comments with their scopes, project settings,
// sort), so the server can never report what `wfc check` would not.
func analyze(ctx context.Context, pc *parseCache, files []parser.Source) *result {
	ps, err := pc.parse(ctx, files)
	if err != nil {
		return &result{err: err}
	}
	prog := &ast.Program{Files: make([]*ast.File, len(ps))}
	var ds []diag.Diagnostic
	for i, p := range ps {
		prog.Files[i] = p.file
		ds = append(ds, p.diags...)
	}
	r := pipeline.RunParsed(ctx, files, prog, ds, pipeline.Options{Settings: projectSettings()})
	if r.Err != nil {
		return &result{err: r.Err}
	}
	return &result{prog: prog, checked: r.Checked, diags: r.Diagnostics, schedules: r.Schedules}
}
