package play

// This file is the playground's one use of the compiler's driver (the
// root package, wfc.Run) and of the stages it hands results to: checking,
// formatting, fixing, the schedule tables and the tests. When the driver's
// API changes, this file follows it.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/wfc-lang/wfc"
	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/codegen"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/format"
	"github.com/wfc-lang/wfc/graph"
	"github.com/wfc-lang/wfc/interp"
	"github.com/wfc-lang/wfc/parser"
	"github.com/wfc-lang/wfc/picture"
	"github.com/wfc-lang/wfc/wftest"
)

// run is wfc.Run over the request's files, as `wfc check` runs it (long
// tables cut for the diagnostics, whose totals stay exact) or, with whole,
// as `wfc schedule` does.
func run(ctx context.Context, files []File, whole bool) *wfc.Result {
	srcs := make([]parser.Source, len(files))
	for i, f := range files {
		srcs[i] = parser.Source{Name: f.Name, Src: f.Text}
	}
	opt := wfc.Options{Workers: 1}
	if !whole {
		opt.Lower.MaxRows = codegen.SummaryRows
	}
	return wfc.Run(ctx, srcs, opt)
}

func checkOp(ctx context.Context, files []File) *Response {
	r := run(ctx, files, false)
	if r.Err != nil {
		return &Response{Error: r.Err.Error()}
	}
	return withDiags(&Response{}, r.Diagnostics, files)
}

func withDiags(resp *Response, ds []diag.Diagnostic, files []File) *Response {
	resp.Diagnostics = diagnostics(ds, files)
	resp.Errors, resp.Warnings = diag.Counts(ds)
	return resp
}

// formatFile lays out req.File as `wfc fmt` does; a file with syntax
// errors is refused with their count, as wfc fmt refuses it.
func formatFile(req Request) *Response {
	for _, f := range req.Files {
		if f.Name != req.File {
			continue
		}
		out, err := format.Source(f.Name, f.Text)
		if err != nil {
			var se *format.SyntaxError
			if errors.As(err, &se) {
				return &Response{Error: fmt.Sprintf("%s has %s: fix them, then format", f.Name, se.Error())}
			}
			return &Response{Error: fmt.Sprintf("%s: %v", f.Name, err)}
		}
		return &Response{Files: []File{{Name: f.Name, Text: out}}}
	}
	return &Response{Error: fmt.Sprintf("no file named %q to format", req.File)}
}

// fix applies one fix of one diagnostic, found again by checking the same
// files: the page names it by its index and code, and a fix whose
// diagnostic moved (the page's files changed meanwhile) is refused.
func fix(ctx context.Context, req Request) *Response {
	r := run(ctx, req.Files, false)
	if r.Err != nil {
		return &Response{Error: r.Err.Error()}
	}
	ds := r.Diagnostics
	if req.Diagnostic < 0 || req.Diagnostic >= len(ds) || string(ds[req.Diagnostic].Code) != req.Code {
		return &Response{Error: "that diagnostic is gone: the program changed; check again"}
	}
	d := ds[req.Diagnostic]
	if req.Fix < 0 || req.Fix >= len(d.Fixes) {
		return &Response{Error: fmt.Sprintf("%s has no fix %d", d.Code, req.Fix)}
	}
	byFile := map[string][]diag.Edit{}
	var order []string
	for _, e := range d.Fixes[req.Fix].Edits {
		if _, ok := byFile[e.File]; !ok {
			order = append(order, e.File)
		}
		byFile[e.File] = append(byFile[e.File], e)
	}
	resp := &Response{}
	for _, name := range order {
		src, ok := r.Sources[name]
		if !ok {
			return &Response{Error: fmt.Sprintf("the fix edits %q, which is not one of the files", name)}
		}
		out, err := diag.ApplyEdits(src, byFile[name])
		if err != nil {
			return &Response{Error: err.Error()}
		}
		resp.Files = append(resp.Files, File{Name: name, Text: out})
	}
	return resp
}

// schedule draws the schedule timelines and prints the tables, as `wfc
// schedule --format svg` and `wfc schedule` do; a program with errors has
// none, and gets its diagnostics.
func schedule(ctx context.Context, files []File) *Response {
	r := run(ctx, files, true)
	if r.Err != nil {
		return &Response{Error: r.Err.Error()}
	}
	resp := withDiags(&Response{}, r.Diagnostics, files)
	if resp.Errors > 0 {
		return resp
	}
	var svg, txt strings.Builder
	if err := picture.Schedules(&svg, r.Schedules, picture.Options{}); err != nil {
		return &Response{Error: err.Error()}
	}
	if err := codegen.WriteText(&txt, r.Schedules); err != nil {
		return &Response{Error: err.Error()}
	}
	resp.SVG, resp.Text = svg.String(), txt.String()
	return resp
}

// TestReport is OpTest's answer: each test's verdict as `wfc test` gives
// it, its transcript and run timeline, and the coverage of the runs.
type TestReport struct {
	Passed   int             `json:"passed"`
	Failed   int             `json:"failed"`
	Tests    []TestResult    `json:"tests"`
	Coverage []CoverWorkflow `json:"coverage,omitempty"`
	// Stopped says the run was stopped (the request was cancelled) before
	// every test ran; the test running then is not reported.
	Stopped bool `json:"stopped,omitempty"`
}

// TestResult is one test's run.
type TestResult struct {
	Name     string    `json:"name"`
	File     string    `json:"file"`
	Line     int32     `json:"line"`
	From     int       `json:"from"`
	To       int       `json:"to"`
	Workflow string    `json:"workflow"`
	Passed   bool      `json:"passed"`
	Error    string    `json:"error,omitempty"`
	Failures []Failure `json:"failures"`
	// Lines are the transcript as `wfc test -v` prints it, one per entry;
	// Transcript is its JSON form (docs/schema/transcript.schema.json).
	Lines      []string        `json:"lines"`
	Transcript json.RawMessage `json:"transcript,omitempty"`
	// SVG is the run timeline (picture.Run).
	SVG string `json:"svg,omitempty"`
}

// Failure is an expectation that did not hold, at its position.
type Failure struct {
	File    string `json:"file"`
	Line    int32  `json:"line"`
	Column  int32  `json:"column"`
	From    int    `json:"from"`
	To      int    `json:"to"`
	Expect  string `json:"expect"`
	Message string `json:"message"`
	// Entry is the transcript entry the failure is about (-1: none).
	Entry int `json:"entry"`
}

// CoverWorkflow is one workflow's coverage: every item, covered or not, at
// its position.
type CoverWorkflow struct {
	Workflow string      `json:"workflow"`
	Percent  float64     `json:"percent"`
	Items    []CoverItem `json:"items"`
}

// CoverItem is one coverage item.
type CoverItem struct {
	Kind    string `json:"kind"`
	What    string `json:"what"`
	File    string `json:"file"`
	Line    int    `json:"line"`
	From    int    `json:"from"`
	To      int    `json:"to"`
	Covered bool   `json:"covered"`
}

// runTests runs the program's tests as `wfc test` does (the selected
// ones, with coverage when asked), stopping between tests when ctx is
// cancelled. A program with errors runs none and gets its diagnostics.
func runTests(ctx context.Context, req Request) *Response {
	r := run(ctx, req.Files, true)
	if r.Err != nil {
		return &Response{Error: r.Err.Error()}
	}
	resp := withDiags(&Response{}, r.Diagnostics, req.Files)
	if resp.Errors > 0 {
		return resp
	}
	idx := map[string]*utf16Index{}
	for _, f := range req.Files {
		idx[f.Name] = &utf16Index{src: f.Text}
	}
	conv := func(file string, rg diag.Range) (int, int) {
		if x := idx[file]; x != nil {
			return x.of(int(rg.Start.Offset)), x.of(int(rg.End.Offset))
		}
		return 0, 0
	}
	var cov *wftest.Coverage
	if req.Cover {
		cov = wftest.NewCoverage(r.Checked, r.Schedules)
	}
	rep := &TestReport{Tests: []TestResult{}}
	for _, t := range r.Checked.Program.Tests {
		if req.Run != "" && !strings.Contains(t.Name, req.Run) {
			continue
		}
		if ctx.Err() != nil {
			rep.Stopped = true
			break
		}
		res := wftest.Run(r.Checked, t, wftest.Options{Schedules: r.Schedules, Cover: cov, Done: ctx.Done()})
		if errors.Is(res.Err, interp.ErrStopped) {
			rep.Stopped = true
			break
		}
		from, to := conv(t.Decl.File.Name, t.Decl.Range)
		tr := TestResult{Name: t.Name, File: t.Decl.File.Name, Line: t.Decl.Range.Start.Line, From: from, To: to,
			Passed: res.Passed(), Failures: []Failure{}, Lines: []string{}}
		if t.Workflow != nil {
			tr.Workflow = t.Workflow.Decl.Name.Name
		}
		if res.Err != nil {
			tr.Error = res.Err.Error()
		}
		for _, x := range res.Failures {
			f, e := conv(x.File, x.Range)
			tr.Failures = append(tr.Failures, Failure{File: x.File, Line: x.Range.Start.Line, Column: x.Range.Start.Column,
				From: f, To: e, Expect: x.Expect.Kind.String(), Message: x.Message, Entry: x.Entry})
		}
		if res.Transcript != nil {
			for _, e := range res.Transcript.Entries {
				tr.Lines = append(tr.Lines, e.String())
			}
			js, err := res.Transcript.JSON()
			if err != nil {
				return &Response{Error: err.Error()}
			}
			tr.Transcript = js
			tr.SVG = runPicture(js, t.Workflow)
		}
		if tr.Passed {
			rep.Passed++
		} else {
			rep.Failed++
		}
		rep.Tests = append(rep.Tests, tr)
	}
	if cov != nil {
		for _, w := range cov.Workflows {
			cw := CoverWorkflow{Workflow: w.Workflow, Percent: w.Percent(), Items: []CoverItem{}}
			for _, it := range w.Items {
				f, e := conv(it.File, it.Range)
				cw.Items = append(cw.Items, CoverItem{Kind: it.Kind.String(), What: it.What, File: it.File, Line: it.Line, From: f, To: e, Covered: it.Covered})
			}
			rep.Coverage = append(rep.Coverage, cw)
		}
	}
	resp.Tests = rep
	return resp
}

// runPicture draws a transcript (its JSON form) as a run timeline.
func runPicture(js []byte, wf *check.Workflow) string {
	var b strings.Builder
	if err := picture.Run(&b, js, picture.RunOptions{States: picture.StatesOf(wf)}); err != nil {
		return ""
	}
	return b.String()
}

// WorkflowInfo is a workflow as OpGraph draws it.
type WorkflowInfo struct {
	Name   string   `json:"name"`
	States []string `json:"states"`
	SVG    string   `json:"svg"`
}

// graphs draws the state graph of every workflow, as `wfc graph` draws it
// (package graph's view) in SVG, the state req.Highlight highlighted in
// workflow req.Workflow. A program with errors is drawn as far as it is
// understood, as wfc graph draws it, with its diagnostics.
func graphs(ctx context.Context, req Request) *Response {
	r := run(ctx, req.Files, false)
	if r.Err != nil {
		return &Response{Error: r.Err.Error()}
	}
	resp := withDiags(&Response{}, r.Diagnostics, req.Files)
	resp.Workflows = drawGraphs(r, req.Workflow, req.Highlight)
	return resp
}

func drawGraphs(r *wfc.Result, workflow, current string) []WorkflowInfo {
	v := graph.Build(graph.Input{Program: r.Checked.Program, Schedules: r.Schedules})
	out := []WorkflowInfo{}
	for _, w := range v.Workflows {
		wi := WorkflowInfo{Name: w.Name, States: []string{}}
		for _, s := range w.States {
			wi.States = append(wi.States, s.Name)
		}
		opt := picture.GraphOptions{}
		if w.Name == workflow {
			opt.Current = current
		}
		var b strings.Builder
		if err := picture.Graph(&b, w, opt); err == nil {
			wi.SVG = b.String()
		}
		out = append(out, wi)
	}
	return out
}
