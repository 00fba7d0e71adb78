// Package play is the playground: a page where wfc is tried in the
// browser (docs/playground.md), its request handler and its server.
//
// One request handler, Handle, takes a JSON request and returns a JSON
// response; both backends of the page call it. `wfc play` serves the page
// on the loopback interface and answers the page's requests with Handle
// natively (server.go); the static build (static.go) compiles Handle to
// WebAssembly (play/wasm), which the page runs in a Web Worker. The page's
// JavaScript (assets/) talks to either through one interface (backend.js),
// so the two are the same program, and the browser tests run both.
//
// Handle reads nothing but its request: no file, no environment, no
// network. Its answers are deterministic (no timings), so the page shows
// what the command line prints.
package play

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/wfc-lang/wfc/diag"
)

// Limits on a request: a playground program is small; larger input is
// refused with a message rather than worked on.
const (
	MaxRequest  = 4 << 20 // bytes of JSON
	MaxFiles    = 32
	maxNameLen  = 100
	maxSimSteps = 10_000
)

// Op is what a request asks for.
type Op uint8

// The operations.
const (
	OpCheck    Op = iota + 1 // diagnostics of the program
	OpFormat                 // one file in the canonical layout
	OpFix                    // apply one fix of one diagnostic
	OpSchedule               // the schedule timelines
	OpGraph                  // the state graph of each workflow
	OpTest                   // run the tests: verdicts, run timelines, coverage
	OpSim                    // step a run by hand (sim.go)
)

var opNames = [...]string{OpCheck: "check", OpFormat: "format", OpFix: "fix", OpSchedule: "schedule",
	OpGraph: "graph", OpTest: "test", OpSim: "sim"}

func (o Op) String() string {
	if int(o) < len(opNames) && o != 0 {
		return opNames[o]
	}
	return fmt.Sprintf("Op(%d)", int(o))
}

// MarshalText writes the operation's name.
func (o Op) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// UnmarshalText reads an operation's name.
func (o *Op) UnmarshalText(b []byte) error {
	for i, n := range opNames {
		if n != "" && n == string(b) {
			*o = Op(i)
			return nil
		}
	}
	return fmt.Errorf("unknown op %q", b)
}

// File is one source file of the program: its name (a label, never a path
// that is opened) and its text.
type File struct {
	Name string `json:"name"`
	Text string `json:"text"`
}

// Request is what the page sends.
type Request struct {
	Op    Op     `json:"op"`
	Files []File `json:"files"`
	// File names the file of OpFormat.
	File string `json:"file,omitempty"`
	// Diagnostic and Fix, for OpFix: the indexes of the diagnostic (in the
	// order OpCheck returned them for the same files) and of its fix.
	Diagnostic int `json:"diagnostic,omitempty"`
	Fix        int `json:"fix,omitempty"`
	// Code is the diagnostic's code, for OpFix: a fix is applied only to
	// the diagnostic the page saw.
	Code string `json:"code,omitempty"`
	// Run selects the tests of OpTest whose name contains it ("" all).
	Run string `json:"run,omitempty"`
	// Cover asks OpTest for coverage.
	Cover bool `json:"cover,omitempty"`
	// Sim is OpSim's scenario.
	Sim *SimRequest `json:"sim,omitempty"`
	// Highlight names a state to mark in OpGraph's pictures.
	Workflow  string `json:"workflow,omitempty"`
	Highlight string `json:"highlight,omitempty"`
}

// Response is what Handle answers. Only the fields of the request's
// operation are set; Error says why a request was refused.
type Response struct {
	Error       string       `json:"error,omitempty"`
	Diagnostics []Diagnostic `json:"diagnostics,omitempty"`
	Errors      int          `json:"errors"`
	Warnings    int          `json:"warnings"`
	// Files are the files a format or a fix changed, with their new text.
	Files []File `json:"files,omitempty"`
	// SVG is the schedule or graph picture.
	SVG string `json:"svg,omitempty"`
	// Text is the schedule table as `wfc schedule` prints it.
	Text string `json:"text,omitempty"`
	// Workflows are OpGraph's workflows with their states (for the page's
	// lists and the tests).
	Workflows []WorkflowInfo `json:"workflows,omitempty"`
	Tests     *TestReport    `json:"tests,omitempty"`
	Sim       *SimState      `json:"sim,omitempty"`
}

// Diagnostic is a diagnostic as the editor needs it: the range in lines
// and code-point columns (as wfc check prints it) and in UTF-16 code units
// from the start of the file (as a JavaScript string counts).
type Diagnostic struct {
	File     string `json:"file"`
	Severity string `json:"severity"`
	Code     string `json:"code"`
	Message  string `json:"message"`
	Line     int32  `json:"line"`
	Column   int32  `json:"column"`
	EndLine  int32  `json:"end_line"`
	EndCol   int32  `json:"end_column"`
	From     int    `json:"from"`
	To       int    `json:"to"`
	Related  []Note `json:"related,omitempty"`
	Fixes    []Fix  `json:"fixes,omitempty"`
}

// Note is a related location of a diagnostic.
type Note struct {
	File    string `json:"file"`
	Line    int32  `json:"line"`
	Column  int32  `json:"column"`
	From    int    `json:"from"`
	To      int    `json:"to"`
	Message string `json:"message"`
}

// Fix is a fix offered for a diagnostic (its edits stay on the server:
// the page asks for OpFix by index).
type Fix struct {
	Title   string `json:"title"`
	Machine bool   `json:"machine_applicable"`
}

// Handle answers one request. It never panics on bad input: a request it
// cannot read is answered with Error set.
func Handle(ctx context.Context, req []byte) []byte {
	resp := handle(ctx, req)
	b, err := json.Marshal(resp)
	if err != nil {
		b, _ = json.Marshal(&Response{Error: "cannot encode the answer: " + err.Error()})
	}
	return b
}

func handle(ctx context.Context, raw []byte) (resp *Response) {
	defer func() {
		// The handler works on anyone's program: a bug below must be a
		// message on the page, never a dead server or worker.
		if r := recover(); r != nil {
			resp = &Response{Error: fmt.Sprintf("internal error: %v (please report it with the program)", r)}
		}
	}()
	if len(raw) > MaxRequest {
		return &Response{Error: fmt.Sprintf("the request has %d bytes; at most %d are read", len(raw), MaxRequest)}
	}
	var req Request
	if err := json.Unmarshal(raw, &req); err != nil {
		return &Response{Error: "bad request: " + err.Error()}
	}
	if err := req.validate(); err != nil {
		return &Response{Error: err.Error()}
	}
	switch req.Op {
	case OpCheck:
		return checkOp(ctx, req.Files)
	case OpFormat:
		return formatFile(req)
	case OpFix:
		return fix(ctx, req)
	case OpSchedule:
		return schedule(ctx, req.Files)
	case OpGraph:
		return graphs(ctx, req)
	case OpTest:
		return runTests(ctx, req)
	case OpSim:
		return simulate(ctx, req)
	}
	return &Response{Error: "no op: say what to do (check, format, fix, schedule, graph, test, sim)"}
}

func (r *Request) validate() error {
	if r.Op == 0 {
		return errors.New("bad request: no op")
	}
	if len(r.Files) > MaxFiles {
		return fmt.Errorf("%d files; the playground takes at most %d", len(r.Files), MaxFiles)
	}
	seen := map[string]bool{}
	for _, f := range r.Files {
		if err := validName(f.Name); err != nil {
			return err
		}
		if seen[f.Name] {
			return fmt.Errorf("two files are named %q", f.Name)
		}
		seen[f.Name] = true
		if !utf8.ValidString(f.Text) {
			return fmt.Errorf("%s is not UTF-8 text", f.Name)
		}
	}
	return nil
}

// validName accepts the names the page gives files: `main.wf`,
// `main_test.wf`, `model.wf` — letters, digits, `_`, `-` and `.`, ending
// in `.wf`.
func validName(name string) error {
	if !strings.HasSuffix(name, ".wf") || len(name) > maxNameLen || len(name) < 4 {
		return fmt.Errorf("bad file name %q: a name ends in .wf and has at most %d characters", name, maxNameLen)
	}
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.') {
			return fmt.Errorf("bad file name %q: use letters, digits, _, - and .", name)
		}
	}
	return nil
}

// utf16Index converts byte offsets of one file to UTF-16 offsets. It walks
// the text once per call with offsets in any order by caching the last
// position.
type utf16Index struct {
	src        string
	byteAt, at int // the last conversion: byte offset byteAt is UTF-16 offset at
}

func (x *utf16Index) of(off int) int {
	if off < x.byteAt {
		x.byteAt, x.at = 0, 0
	}
	off = min(max(off, 0), len(x.src))
	for x.byteAt < off {
		r, size := utf8.DecodeRuneInString(x.src[x.byteAt:])
		x.byteAt += size
		x.at += utf16.RuneLen(r) // an invalid byte is U+FFFD: one unit, as in the browser
	}
	return x.at
}

// diagnostics converts the driver's diagnostics for the page.
func diagnostics(ds []diag.Diagnostic, files []File) []Diagnostic {
	idx := map[string]*utf16Index{}
	for _, f := range files {
		idx[f.Name] = &utf16Index{src: f.Text}
	}
	conv := func(file string, r diag.Range) (int, int) {
		x := idx[file]
		if x == nil {
			return 0, 0
		}
		return x.of(int(r.Start.Offset)), x.of(int(r.End.Offset))
	}
	out := make([]Diagnostic, 0, len(ds))
	for _, d := range ds {
		from, to := conv(d.File, d.Range)
		pd := Diagnostic{File: d.File, Severity: d.Severity.String(), Code: string(d.Code), Message: d.Message,
			Line: d.Range.Start.Line, Column: d.Range.Start.Column, EndLine: d.Range.End.Line, EndCol: d.Range.End.Column,
			From: from, To: to}
		for _, r := range d.Related {
			f, t := conv(r.File, r.Range)
			pd.Related = append(pd.Related, Note{File: r.File, Line: r.Range.Start.Line, Column: r.Range.Start.Column, From: f, To: t, Message: r.Message})
		}
		for _, f := range d.Fixes {
			pd.Fixes = append(pd.Fixes, Fix{Title: f.Title, Machine: f.MachineApplicable})
		}
		out = append(out, pd)
	}
	return out
}
