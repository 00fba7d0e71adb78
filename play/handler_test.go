package play

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/codegen"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/parser"
	"github.com/wfc-lang/wfc/wftest"
)

func call(t testing.TB, req Request) *Response {
	t.Helper()
	raw, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	var resp Response
	if err := json.Unmarshal(Handle(context.Background(), raw), &resp); err != nil {
		t.Fatal(err)
	}
	return &resp
}

func example(t testing.TB, name string) []File {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join("..", "testdata", "examples", name, "*.wf"))
	var out []File
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, File{Name: filepath.Base(p), Text: string(b)})
	}
	return out
}

// TestCheckRangesInUTF16: a diagnostic's from/to count UTF-16 units, as
// the editor's textarea does, after characters of one, two, three and four
// bytes (the last two units in UTF-16).
func TestCheckRangesInUTF16(t *testing.T) {
	src := "// é € 😀\nworkflow W { Initial = A; state A { on X { goto Nowhere; } } }\n"
	resp := call(t, Request{Op: OpCheck, Files: []File{{Name: "a.wf", Text: src}}})
	if resp.Error != "" || len(resp.Diagnostics) == 0 {
		t.Fatalf("no diagnostics: %+v", resp)
	}
	u := utf16.Encode([]rune(src))
	for _, d := range resp.Diagnostics {
		got := string(utf16.Decode(u[d.From:d.To]))
		// The range's text, found by byte offsets from line and column.
		lines := strings.Split(src, "\n")
		line := []rune(lines[d.Line-1])
		want := string(line[d.Column-1 : min(int(d.EndCol-1), len(line))])
		if d.Line == d.EndLine && got != want {
			t.Errorf("%s: from/to cover %q, line/column %q", d.Code, got, want)
		}
	}
}

// TestFixRemovesItsDiagnostic: applying each fix of a misspelt keyword
// through the handler removes the diagnostic.
func TestFixRemovesItsDiagnostic(t *testing.T) {
	files := example(t, "jobflow")
	for i, f := range files {
		if f.Name == "jobflow.wf" {
			files[i].Text = strings.Replace(f.Text, "  state Running {", "  stat Running {", 1)
		}
	}
	resp := call(t, Request{Op: OpCheck, Files: files})
	if len(resp.Diagnostics) != 1 || resp.Diagnostics[0].Code != "WF001" || len(resp.Diagnostics[0].Fixes) == 0 {
		t.Fatalf("want one WF001 with a fix, got %+v", resp.Diagnostics)
	}
	fixed := call(t, Request{Op: OpFix, Files: files, Diagnostic: 0, Fix: 0, Code: "WF001"})
	if fixed.Error != "" || len(fixed.Files) != 1 {
		t.Fatalf("fix: %+v", fixed)
	}
	for i, f := range files {
		if f.Name == fixed.Files[0].Name {
			files[i] = fixed.Files[0]
		}
	}
	if after := call(t, Request{Op: OpCheck, Files: files}); len(after.Diagnostics) != 0 {
		t.Errorf("after the fix: %+v", after.Diagnostics)
	}
	// A fix of a diagnostic that is gone is refused, not applied.
	if r := call(t, Request{Op: OpFix, Files: files, Diagnostic: 0, Fix: 0, Code: "WF001"}); r.Error == "" {
		t.Error("a stale fix was applied")
	}
}

// TestTestVerdictsAreWftests: the handler's verdicts are wftest's, test by
// test, for the examples and for a failing test.
func TestTestVerdictsAreWftests(t *testing.T) {
	for _, name := range []string{"jobflow", "orders"} {
		files := example(t, name)
		for i, f := range files {
			if strings.HasSuffix(f.Name, "_test.wf") {
				files[i].Text += "\ntest \"fails\" {\n  Expect.State(Nowhere);\n}\n"
				files[i].Text = strings.Replace(files[i].Text, "Expect.State(Nowhere)", "Expect.End("+endState(name)+", at: TimeSpan.FromDays(99))", 1)
			}
		}
		resp := call(t, Request{Op: OpTest, Files: files, Cover: true})
		if resp.Error != "" || resp.Tests == nil {
			t.Fatalf("%s: %+v", name, resp)
		}
		res, scheds := checked(t, files)
		var want []string
		for _, tc := range res.Program.Tests {
			r := wftest.Run(res, tc, wftest.Options{Schedules: scheds})
			want = append(want, verdict(tc.Name, r.Passed()))
		}
		var got []string
		for _, tr := range resp.Tests.Tests {
			got = append(got, verdict(tr.Name, tr.Passed))
			if tr.SVG == "" || len(tr.Lines) == 0 {
				t.Errorf("%s: no run timeline or transcript", tr.Name)
			}
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: verdicts\n%s\nwant\n%s", name, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if resp.Tests.Failed != 1 || len(resp.Tests.Coverage) == 0 {
			t.Errorf("%s: %d failed (want 1), coverage %d workflows", name, resp.Tests.Failed, len(resp.Tests.Coverage))
		}
	}
}

func endState(example string) string {
	if example == "jobflow" {
		return "Escalated"
	}
	return "Delivered"
}

func verdict(name string, passed bool) string {
	if passed {
		return "PASS " + name
	}
	return "FAIL " + name
}

func checked(t testing.TB, files []File) (*check.Result, []*codegen.Schedule) {
	t.Helper()
	var srcs []parser.Source
	for _, f := range files {
		srcs = append(srcs, parser.Source{Name: f.Name, Src: f.Text})
	}
	prog, ds := parser.Parse(srcs, parser.Options{})
	res := check.Check(prog)
	for _, d := range append(ds, res.Diags...) {
		if d.Severity == diag.Error {
			t.Fatalf("%s:%d: %s", d.File, d.Range.Start.Line, d.Message)
		}
	}
	return res, codegen.Lower(res, codegen.Options{})
}

// TestSimulatorSavedTestPasses steps JobFlow by hand — advance, send
// Start, let the first window pass, fail nothing, send Complete — and the
// saved test, checked and run as `wfc test` runs it, passes.
func TestSimulatorSavedTestPasses(t *testing.T) {
	files := example(t, "jobflow")
	prog := files[:0:0]
	for _, f := range files {
		if !strings.HasSuffix(f.Name, "_test.wf") {
			prog = append(prog, f)
		}
	}
	const min = 60 * 10_000_000
	sim := &SimRequest{}
	step := func() *SimState {
		t.Helper()
		r := call(t, Request{Op: OpSim, Files: prog, Sim: sim})
		if r.Error != "" || r.Sim == nil {
			t.Fatalf("sim: %s %+v", r.Error, r.Diagnostics)
		}
		return r.Sim
	}
	if st := step(); st.State != "Queued" || !st.Started || st.HasNext {
		t.Fatalf("at the start: %+v", st)
	}
	sim.Now = min
	sim.Actions = append(sim.Actions, SimAction{Kind: ActSend, At: min, Event: "Start"})
	st := step()
	if st.State != "Running" || !st.HasNext || st.Next != 6*min {
		t.Fatalf("after Start: state %s, next %d", st.State, st.Next)
	}
	sim.Now = st.Next // the first window passes
	st = step()
	if st.State != "Running" || st.Next != 11*min {
		t.Fatalf("after the first window: state %s, next %s", st.State, st.NextText)
	}
	sim.Actions = append(sim.Actions, SimAction{Kind: ActSend, At: sim.Now, Event: "Complete", Args: []string{"Ok"}})
	st = step()
	if st.State != "Escalated" || !st.Ended {
		t.Fatalf("after Complete: %+v", st)
	}
	if !strings.Contains(st.Test, "Expect.End(Escalated, at: TimeSpan.FromMinutes(6));") {
		t.Errorf("saved test:\n%s", st.Test)
	}
	res, scheds := checked(t, append(prog, File{Name: "saved_test.wf", Text: st.Test}))
	if len(res.Program.Tests) != 1 {
		t.Fatalf("%d tests in the saved text", len(res.Program.Tests))
	}
	if r := wftest.Run(res, res.Program.Tests[0], wftest.Options{Schedules: scheds}); !r.Passed() {
		t.Errorf("the saved test fails: %+v %v\n%s", r.Failures, r.Err, st.Test)
	}
	// An argument that would end the statement is refused.
	sim.Actions = append(sim.Actions, SimAction{Kind: ActSend, At: sim.Now, Event: "Complete", Args: []string{"Ok)); Expect.End(Queued"}})
	if r := call(t, Request{Op: OpSim, Files: prog, Sim: sim}); r.Error == "" {
		t.Error("an argument holding `)` and `;` was written into the test")
	}
}

// TestTimeSpanExpr: the largest unit that holds a time exactly.
func TestTimeSpanExpr(t *testing.T) {
	for ticks, want := range map[int64]string{0: "TimeSpan.Zero", 10_000_000: "TimeSpan.FromSeconds(1)", 6 * 600_000_000: "TimeSpan.FromMinutes(6)",
		864_000_000_000: "TimeSpan.FromDays(1)", 15_000: "TimeSpan.FromMilliseconds(1.5)", 1: "TimeSpan.FromMilliseconds(0.0001)", 25_000_000: "TimeSpan.FromMilliseconds(2500)"} {
		if got := timeSpanExpr(ticks); got != want {
			t.Errorf("timeSpanExpr(%d) = %s, want %s", ticks, got, want)
		}
	}
}

// TestBadRequests are refused with a message.
func TestBadRequests(t *testing.T) {
	for name, raw := range map[string]string{
		"not JSON":     `{`,
		"no op":        `{"files":[]}`,
		"unknown op":   `{"op":"delete"}`,
		"bad name":     `{"op":"check","files":[{"name":"../etc/passwd","text":""}]}`,
		"two names":    `{"op":"check","files":[{"name":"a.wf","text":""},{"name":"a.wf","text":""}]}`,
		"format none":  `{"op":"format","file":"x.wf","files":[]}`,
		"sim no state": `{"op":"sim","files":[]}`,
	} {
		var resp Response
		if err := json.Unmarshal(Handle(context.Background(), []byte(raw)), &resp); err != nil || resp.Error == "" {
			t.Errorf("%s: %s answered %+v (%v)", name, raw, resp, err)
		}
	}
	var many []File
	for i := 0; i <= MaxFiles; i++ {
		many = append(many, File{Name: "f" + strings.Repeat("x", i) + ".wf"})
	}
	if r := call(t, Request{Op: OpCheck, Files: many}); r.Error == "" {
		t.Error("too many files were accepted")
	}
}

// FuzzHandle: any request gets a JSON answer, never a panic (the handler
// recovers from one, but reports it: the target fails on that message).
func FuzzHandle(f *testing.F) {
	src, _ := os.ReadFile("../testdata/examples/jobflow/jobflow.wf")
	for _, op := range []string{"check", "format", "fix", "schedule", "graph", "test", "sim"} {
		req, _ := json.Marshal(map[string]any{"op": op, "file": "a.wf", "files": []File{{Name: "a.wf", Text: string(src)}},
			"sim": map[string]any{"actions": []map[string]any{{"kind": "send", "at": 0, "event": "Start"}}, "now": 600000000}})
		f.Add(req)
	}
	f.Add([]byte(`{"op":"check","files":[{"name":"a.wf","text":"workflow W { Initial = A; state A { } }"}]}`))
	f.Fuzz(func(t *testing.T, req []byte) {
		if len(req) > 1<<16 {
			return
		}
		out := Handle(context.Background(), req)
		var resp Response
		if err := json.Unmarshal(out, &resp); err != nil {
			t.Fatalf("not JSON: %v", err)
		}
		if strings.HasPrefix(resp.Error, "internal error") {
			t.Fatalf("%s", resp.Error)
		}
	})
}

// doneOnly is a context whose Done channel is closed while Err still says
// nil: the request is stopped after the check between tests and before
// the run looks, so the test sees a run stopped from inside, at once and
// without timing.
type doneOnly struct{ context.Context }

func (doneOnly) Err() error { return nil }

// TestStopEndsTheRunningTest: a stopped request stops the test that is
// running (a run of a million entries takes seconds), reports the run as
// stopped and does not report that test; the playground's Stop and the
// server's timeout do not wait for it.
func TestStopEndsTheRunningTest(t *testing.T) {
	files := example(t, "jobflow")
	long := `test "long" { Workflow = JobFlow; Send(Start()); Expect.End(Escalated); }` + "\n"
	for i := range files {
		if files[i].Name == "jobflow.wf" {
			files[i].Text = strings.Replace(files[i].Text, "Backoff.Exponential(TimeSpan.FromMinutes(5)).MaxAttempts(3).Cap(TimeSpan.FromHours(1))",
				"Backoff.Fixed(TimeSpan.FromMilliseconds(1)).MaxAttempts(2000000000)", 1)
		}
	}
	files = append(files, File{Name: "long_test.wf", Text: long})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	resp := runTests(doneOnly{ctx}, Request{Op: OpTest, Files: files, Run: "long"})
	if resp.Error != "" || resp.Errors != 0 {
		t.Fatalf("error %q, %d errors: %+v", resp.Error, resp.Errors, resp.Diagnostics)
	}
	if rep := resp.Tests; rep == nil || !rep.Stopped || len(rep.Tests) != 0 {
		t.Fatalf("report %+v, want stopped with no test reported", rep)
	}
}
