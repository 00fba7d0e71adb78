package lsp

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/parser"
)

// flow is a workflow named name whose state A waits for Go with a Backoff
// policy of the given members; extra goes into state A's handler.
func flow(name, members, extra string) string {
	return fmt.Sprintf(`workflow %s {
  Initial = A;
  event Go();
  state A {
    subscribe Go() {
      Finished {
        Within = TimeSpan.FromMinutes(1);
        Backoff = Backoff.Exponential(TimeSpan.FromSeconds(1))%s;
        Unfinished { goto Done; }
      }
    }
    on Go { %s goto Done; }
  }
  terminal Done { }
}
`, name, members, extra)
}

// recheckWorkspace is a.wf with the workflows One, Two and Three (each with a
// diagnostic that has a related location or a fix, so that what recheck
// keeps must move with the edit), then two tests of One with one name
// (kept by an edit of Two, with a related location and a fix that move), and b.wf with Four and two tests.
func recheckWorkspace() []parser.Source {
	a := "enum Stage { Open, Closed }\n" +
		flow("One", ".MaxAttempts(3).Cap(TimeSpan.FromSeconds(4)).Cap(TimeSpan.FromSeconds(5))", "goto Dne;") +
		flow("Two", ".MaxAttempts(3)", "") +
		flow("Three", ".Cap(TimeSpan.FromSeconds(4)).MaxAttempts(5).Cap(TimeSpan.FromSeconds(5))", "goto Dne;") +
		"test \"dup\" { Workflow = One; Expect.State(Done); }\n" +
		"test \"dup\" { Workflow = One; Expect.State(Don); }\n"
	b := flow("Four", ".MaxAttempts(2).Jitter(0)", "goto Dne;") +
		"test \"two\" { Workflow = Two; Expect.State(Nowhere); }\n" +
		"test \"four\" { Workflow = Four; Expect.State(Nowhere); }\n"
	return []parser.Source{{Name: "a.wf", Src: a}, {Name: "b.wf", Src: b}}
}

// schedConsumers is consumerSummary for the schedules' consumers.
func schedConsumers(r *result) []string {
	cons := &result{prog: r.prog, checked: &check.Result{}}
	for _, s := range r.schedules {
		cons.checked.Consumers = append(cons.checked.Consumers, s.Consumer)
	}
	return consumerSummary(cons)
}

// consumerSummary is what lowering and the server read from the consumers,
// with whether each consumer's Src holds its file's current text (a
// consumer kept from before the edit must quote the new text).
func consumerSummary(r *result) []string {
	var out []string
	for _, c := range r.checked.Consumers {
		current := false
		for _, f := range r.prog.Files {
			current = current || f.Name == c.FileName() && c.Src.Src == f.Src
		}
		out = append(out, fmt.Sprintf("%s %s:%v %s.%s %v %d %v current=%v", c.FileName(), c.WorkflowName(), c.Pos, c.StateName(), c.Slot(), c.Kind, c.Attempts, c.Budget, current))
	}
	return out
}

// TestRecheckTakenOrDeclined: after one edit, the analysis re-checks only
// the affected workflows when that is safe — and then gives exactly what a
// full analysis gives — and checks everything when it is not.
func TestRecheckTakenOrDeclined(t *testing.T) {
	for _, tc := range []struct {
		name        string
		file        string // the edited file
		from, to    string // the first from in it becomes to
		setup       func([]parser.Source) []parser.Source
		incremental bool
	}{
		{name: "a policy of the middle workflow", file: "a.wf", from: "MaxAttempts(3);", to: "MaxAttempts(4);", incremental: true},
		{name: "lines inserted in the middle workflow move the ones after it", file: "a.wf", from: "workflow Two {\n  Initial = A;", to: "workflow Two {\n\n\n  Initial = A;", incremental: true},
		{name: "bytes removed in the middle workflow", file: "a.wf", from: "Two {\n  Initial = A;", to: "Two {\n Initial = A;", incremental: true},
		{name: "a diagnostic appears in the middle workflow", file: "a.wf", from: "on Go {  goto Done; }", to: "on Go { goto Don; goto Done; }", incremental: true},
		{name: "the first workflow, every later one re-checked", file: "a.wf", from: "goto Dne;", to: "goto Done;", incremental: true},
		{name: "the last workflow", file: "a.wf", from: "MaxAttempts(5)", to: "MaxAttempts(6)", incremental: true},
		{name: "a workflow a test names", file: "b.wf", from: "  terminal Done { }\n", to: "  terminal Done { }\n  terminal Nowhere { }\n", incremental: true},
		{name: "a workflow that becomes an enum", file: "a.wf", from: strings.TrimSuffix(flow("Two", ".MaxAttempts(3)", ""), "\n"), to: "enum Two { X }", incremental: false},
		{name: "an enum that becomes an entity", file: "a.wf", from: "enum Stage { Open, Closed }", to: "entity Stage { string N; }", incremental: false},
		{name: "a renamed workflow", file: "a.wf", from: "workflow Two", to: "workflow Twain", incremental: false},
		{name: "an edited enum", file: "a.wf", from: "Open, Closed", to: "Open, Shut", incremental: false},
		{name: "two declarations share a name", file: "a.wf", from: "MaxAttempts(3);", to: "MaxAttempts(4);", incremental: false,
			setup: func(fs []parser.Source) []parser.Source { fs[1].Src += "enum Two { X }\n"; return fs }},
		{name: "two workflows share a name", file: "a.wf", from: "MaxAttempts(3);", to: "MaxAttempts(4);", incremental: false,
			setup: func(fs []parser.Source) []parser.Source { fs[1].Src += flow("Two", "", ""); return fs }},
		{name: "the only workflow, with a test that names none", file: "a.wf", from: "  terminal Done { }\n", to: "  terminal Done { }\n  terminal Nowhere { }\n", incremental: true,
			setup: func([]parser.Source) []parser.Source {
				return []parser.Source{{Name: "a.wf", Src: "enum Stage { Open, Closed }\n" + flow("One", ".MaxAttempts(3).Jitter(0)", "goto Dne;") +
					"test \"t\" { Expect.State(Nowhere); }\n"}}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := recheckWorkspace()
			if tc.setup != nil {
				files = tc.setup(files)
			}
			pc := newParseCache()
			before := analyze(context.Background(), pc, files)
			if len(before.diags) < 3 {
				t.Fatalf("the workspace has %d diagnostics, want at least 3", len(before.diags))
			}
			i := 0
			for files[i].Name != tc.file {
				i++
			}
			if !strings.Contains(files[i].Src, tc.from) {
				t.Fatalf("%s has no %q", tc.file, tc.from)
			}
			files[i].Src = strings.Replace(files[i].Src, tc.from, tc.to, 1)
			shown := fmt.Sprintf("%+v", before.diags)
			got := analyze(context.Background(), pc, files)
			want := analyze(context.Background(), newParseCache(), files)
			if fmt.Sprintf("%+v", before.diags) != shown {
				t.Errorf("the edit changed the previous result's diagnostics")
			}
			if got.incremental != tc.incremental {
				t.Errorf("incremental = %v, want %v", got.incremental, tc.incremental)
			}
			if d := cmp.Diff(want.diags, got.diags); d != "" {
				t.Errorf("diagnostics (-full +got):\n%s", d)
			}
			if d := cmp.Diff(schedSummary(want.schedules), schedSummary(got.schedules)); d != "" {
				t.Errorf("schedules (-full +got):\n%s", d)
			}
			if d := cmp.Diff(consumerSummary(want), consumerSummary(got)); d != "" {
				t.Errorf("consumers (-full +got):\n%s", d)
			}
			if d := cmp.Diff(schedConsumers(want), schedConsumers(got)); d != "" {
				t.Errorf("schedules' consumers (-full +got):\n%s", d)
			}
			// The next keystroke starts from this result.
			files[i].Src = strings.Replace(files[i].Src, tc.to, tc.from, 1)
			got = analyze(context.Background(), pc, files)
			want = analyze(context.Background(), newParseCache(), files)
			if got.incremental != tc.incremental {
				t.Errorf("undone: incremental = %v, want %v", got.incremental, tc.incremental)
			}
			if d := cmp.Diff(want.diags, got.diags); d != "" {
				t.Errorf("undone: diagnostics (-full +got):\n%s", d)
			}
			if d := cmp.Diff(consumerSummary(want), consumerSummary(got)); d != "" {
				t.Errorf("undone: consumers (-full +got):\n%s", d)
			}
		})
	}
}

// TestRecheckAcrossWorkflows: keystrokes in one workflow, then in another
// of the same file: the second recheck cannot reuse the part the first one
// checked, and still gives what a full analysis gives.
func TestRecheckAcrossWorkflows(t *testing.T) {
	files := recheckWorkspace()
	pc := newParseCache()
	analyze(context.Background(), pc, files)
	for i, e := range []struct{ from, to string }{
		{"MaxAttempts(3);", "MaxAttempts(4);"},                     // Two
		{"MaxAttempts(4);", "MaxAttempts(3);"},                     // Two again
		{"goto Dne; goto Done", "goto Done; goto Done"},            // One
		{"MaxAttempts(5)", "MaxAttempts(6)"},                       // Three
		{"MaxAttempts(3).Cap(", "MaxAttempts(2).Cap("},             // One
		{"on Go {  goto Done; }", "on Go { goto Dn; goto Done; }"}, // Two
	} {
		files[0].Src = strings.Replace(files[0].Src, e.from, e.to, 1)
		got := analyze(context.Background(), pc, files)
		want := analyze(context.Background(), newParseCache(), files)
		if !got.incremental {
			t.Errorf("edit %d (%q→%q): not incremental", i, e.from, e.to)
		}
		if d := cmp.Diff(want.diags, got.diags); d != "" {
			t.Errorf("edit %d (%q→%q): diagnostics (-full +got):\n%s", i, e.from, e.to, d)
		}
		if d := cmp.Diff(consumerSummary(want), consumerSummary(got)); d != "" {
			t.Errorf("edit %d: consumers (-full +got):\n%s", i, d)
		}
	}
}

// cancelAfter is a context cancelled after its Err has been asked n times:
// it cancels an analysis between two of its steps, deterministically.
type cancelAfter struct {
	context.Context
	n int
}

func (c *cancelAfter) Err() error {
	if c.n <= 0 {
		return context.Canceled
	}
	c.n--
	return nil
}

// TestRecheckAfterCancel: an analysis cancelled after parsing leaves no
// result to re-check from, so the next edit checks everything.
func TestRecheckAfterCancel(t *testing.T) {
	files := recheckWorkspace()
	pc := newParseCache()
	analyze(context.Background(), pc, files)
	files[0].Src = strings.Replace(files[0].Src, "MaxAttempts(3);", "MaxAttempts(4);", 1)
	if r := analyze(&cancelAfter{Context: context.Background(), n: 1}, pc, files); r.err == nil {
		t.Fatal("the analysis was not cancelled")
	}
	files[0].Src = strings.Replace(files[0].Src, "MaxAttempts(4);", "MaxAttempts(5);", 1)
	got := analyze(context.Background(), pc, files)
	want := analyze(context.Background(), newParseCache(), files)
	if got.incremental {
		t.Errorf("incremental after a cancelled analysis")
	}
	if d := cmp.Diff(want.diags, got.diags); d != "" {
		t.Errorf("diagnostics (-full +got):\n%s", d)
	}
}

// TestRecheckAsksRuleScopes: the server re-checks only the edited workflow
// when the checker's rules allow it, and the whole program when a rule
// reads across workflows (check.PartialRecheckSafe false, as it would be
// with a program-wide rule added: check's TestPartialRecheckScope) — with
// the same diagnostics either way.
func TestRecheckAsksRuleScopes(t *testing.T) {
	for _, safe := range []bool{true, false} {
		pc := newParseCache()
		pc.partialSafe = func() bool { return safe }
		srcs := recheckWorkspace()
		if r := analyze(context.Background(), pc, srcs); r.err != nil {
			t.Fatal(r.err)
		}
		srcs[0].Src = strings.Replace(srcs[0].Src, "workflow Two {\n  Initial = A;", "workflow Two {\n  Initial =  A;", 1)
		r := analyze(context.Background(), pc, srcs)
		if r.err != nil {
			t.Fatal(r.err)
		}
		if r.incremental != safe {
			t.Errorf("rules allow a partial re-check: %v; the server re-checked only the edited workflow: %v", safe, r.incremental)
		}
		full := analyze(context.Background(), newParseCache(), srcs)
		if d := cmp.Diff(full.diags, r.diags); d != "" {
			t.Errorf("safe=%v: diagnostics differ from a full check (-full +got):\n%s", safe, d)
		}
	}
}
