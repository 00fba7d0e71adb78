package parser

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/diag"
)

func parseOne(t testing.TB, src string) (*ast.File, []diag.Diagnostic) {
	t.Helper()
	prog, ds := Parse([]Source{{Name: "f.wf", Src: src}}, Options{})
	return prog.Files[0], ds
}

// span renders a range as line:col-line:col and the text it covers.
func showRange(f *ast.File, r diag.Range) string {
	return fmt.Sprintf("%d:%d-%d:%d %q", r.Start.Line, r.Start.Column, r.End.Line, r.End.Column, f.Text(r))
}

func TestExampleParses(t *testing.T) {
	b, err := os.ReadFile("../testdata/examples/jobflow/jobflow.wf")
	if err != nil {
		t.Fatal(err)
	}
	f, ds := parseOne(t, string(b))
	if len(ds) != 0 {
		t.Fatalf("diagnostics: %v", ds)
	}
	var kinds []string
	for _, d := range f.Decls {
		kinds = append(kinds, fmt.Sprintf("%T %s", d, d.DeclName().Name))
	}
	want := []string{"*ast.Enum JobStage", "*ast.Enum Decision", "*ast.Entity Person", "*ast.Entity Job", "*ast.Workflow JobFlow"}
	if diff := cmp.Diff(want, kinds); diff != "" {
		t.Fatalf("decls (-want +got):\n%s", diff)
	}
	w := f.Decls[4].(*ast.Workflow)
	if len(w.Settings) != 3 || len(w.Events) != 2 || len(w.States) != 3 {
		t.Fatalf("workflow members: %d settings, %d events, %d states", len(w.Settings), len(w.Events), len(w.States))
	}
	running := w.States[1]
	sub := running.Subscribes[0]
	ms := sub.Milestones[0]
	got := []string{
		showRange(f, w.Name.Range),
		showRange(f, sub.Event.Range),
		showRange(f, sub.Alias.Range),
		showRange(f, sub.Params.Range),
		showRange(f, ms.Kind.Range),
		showRange(f, ms.Settings[1].Range),
		showRange(f, ms.Settings[1].Value.Rng()),
		showRange(f, ms.Outcomes[1].Range),
		showRange(f, running.Handlers[0].Params.Range),
		showRange(f, w.States[2].Settings[0].Value.Rng()),
	}
	want = []string{
		`15:10-15:17 "JobFlow"`,
		`26:15-26:23 "Complete"`,
		`26:46-26:52 "Worker"`,
		`26:23-26:42 "(Decision decision)"`,
		`27:7-27:15 "Finished"`,
		`29:9-29:106 "Backoff = Backoff.Exponential(TimeSpan.FromMinutes(5)).MaxAttempts(3).Cap(TimeSpan.FromHours(1));"`,
		`29:19-29:105 "Backoff.Exponential(TimeSpan.FromMinutes(5)).MaxAttempts(3).Cap(TimeSpan.FromHours(1))"`,
		`31:9-31:39 "Unfinished { goto Escalated; }"`,
		`34:14-34:33 "(Decision decision)"`,
		`37:40-37:55 "\"job escalated\""`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ranges (-want +got):\n%s", diff)
	}
	// The policy is a real expression tree: Cap(…) of MaxAttempts(…) of Exponential(…).
	call := ms.Settings[1].Value.(*ast.Call)
	if sel := call.Fun.(*ast.Selector); sel.Sel.Name != "Cap" {
		t.Errorf("outermost member %q, want Cap", sel.Sel.Name)
	}
}

func TestRecoveryDeclaresNames(t *testing.T) {
	src := `workflow W {
  Initial = A;
  event Broken(int;
  state A { subscribe Broken(); on Broken { goto B } }
  state B { on X { Mail.Send(1 2); } }
  terminal C { }
}
enum E { A B }
entity Ent { int }
`
	f, ds := parseOne(t, src)
	var lines []int
	for _, d := range ds {
		if d.Code != "WF001" {
			t.Errorf("unexpected %s: %s", d.Code, d.Message)
		}
		lines = append(lines, int(d.Range.Start.Line))
	}
	if diff := cmp.Diff([]int{3, 4, 5, 8, 9}, lines); diff != "" {
		t.Errorf("error lines (-want +got):\n%s", diff)
	}
	w := f.Decls[0].(*ast.Workflow)
	if !w.Bad || len(w.Events) != 1 || w.Events[0].Name.Name != "Broken" || !w.Events[0].Bad {
		t.Errorf("the broken event is not declared: %+v", w.Events)
	}
	var states []string
	for _, s := range w.States {
		states = append(states, fmt.Sprintf("%s bad=%v", s.Name.Name, s.Bad))
	}
	if diff := cmp.Diff([]string{"A bad=true", "B bad=true", "C bad=false"}, states); diff != "" {
		t.Errorf("states (-want +got):\n%s", diff)
	}
	if h := w.States[0].Handlers; len(h) != 1 || h[0].Name.Name != "Broken" || !h[0].Bad {
		t.Errorf("the broken handler is not kept: %+v", h)
	}
	if len(f.Decls) != 3 {
		t.Errorf("want 3 declarations, got %d", len(f.Decls))
	}
}

func TestNestingGuard(t *testing.T) {
	deep := "entity E { [MaxLength(" + strings.Repeat("(", 100000) + "1" + strings.Repeat(")", 100000) + ")] string S; }\nenum After { A }\n"
	f, ds := parseOne(t, deep)
	if len(ds) != 1 || ds[0].Code != "WF001" || !strings.Contains(ds[0].Message, "nesting") {
		t.Fatalf("want one nesting diagnostic, got %v", ds)
	}
	if len(f.Decls) != 2 {
		t.Fatalf("the entity and the enum after it should still be declared, got %d decls", len(f.Decls))
	}
	unary := "workflow W { Initial = A; event Go(); state A { subscribe Go(); on Go { X.Y(" + strings.Repeat("!", 100000) + "true); goto A; } } }"
	_, ds = parseOne(t, unary)
	if len(ds) != 1 || !strings.Contains(ds[0].Message, "nesting") {
		t.Fatalf("want one nesting diagnostic for prefix operators, got %v", ds)
	}
}

func TestChunksStopAtReservedWords(t *testing.T) {
	// A missing `}` costs one diagnostic, not the rest of the file.
	src := "enum A { X\nenum B { Y }\nworkflow W { Initial = S; event E(); state S { on E { goto S; }\n state T { }\n}\n"
	f, ds := parseOne(t, src)
	var msgs []string
	for _, d := range ds {
		msgs = append(msgs, fmt.Sprintf("%d: %s", d.Range.Start.Line, d.Message))
	}
	want := []string{
		// Indentation shows where enum A ended: at the end of its line.
		"1: expected `}` to close enum `A`: its block ends here, by its indentation, before `enum` on line 2",
		// State S's line holds the workflow's `{` too: no indentation speaks for it.
		"4: expected `}` to close state `S`, found `state`",
	}
	if diff := cmp.Diff(want, msgs); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if len(f.Decls) != 3 {
		t.Errorf("want 3 declarations, got %d", len(f.Decls))
	}
}

func TestParallelMatchesSequential(t *testing.T) {
	b, _ := os.ReadFile("../testdata/examples/jobflow/jobflow.wf")
	var files []Source
	for i := 0; i < 20; i++ {
		files = append(files, Source{Name: fmt.Sprintf("f%d.wf", i), Src: string(b) + "\nenum Broken" + fmt.Sprint(i) + " { A B }\n"})
	}
	p1, d1 := Parse(files, Options{Workers: 1})
	p8, d8 := Parse(files, Options{Workers: 8})
	if diff := cmp.Diff(d1, d8); diff != "" {
		t.Errorf("diagnostics differ between 1 and 8 workers:\n%s", diff)
	}
	for i := range p1.Files {
		if len(p1.Files[i].Decls) != len(p8.Files[i].Decls) {
			t.Errorf("file %d: %d vs %d decls", i, len(p1.Files[i].Decls), len(p8.Files[i].Decls))
		}
	}
}

// sexpr renders an expression tree with explicit parentheses.
func sexpr(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Binary:
		return "(" + sexpr(e.X) + " " + e.Op + " " + sexpr(e.Y) + ")"
	case *ast.Unary:
		return e.Op + sexpr(e.X)
	case *ast.Name:
		return e.Name
	case *ast.Paren:
		return "[" + sexpr(e.X) + "]"
	case *ast.IntLit:
		return e.Text
	case *ast.Selector:
		return sexpr(e.X) + "." + e.Sel.Name
	case *ast.Call:
		return sexpr(e.Fun) + "()"
	}
	return fmt.Sprintf("%T", e)
}

func TestExpressionPrecedence(t *testing.T) {
	tests := map[string]string{
		"a || b && c == d":      "(a || (b && (c == d)))",
		"a && b || c":           "((a && b) || c)",
		"a || b || c":           "((a || b) || c)",
		"!a && -b < 3":          "(!a && (-b < 3))",
		"!!a":                   "!!a",
		"!(a || b) && c":        "(![(a || b)] && c)",
		"x.y() != z.w":          "(x.y() != z.w)",
		"a == b && c != d || e": "(((a == b) && (c != d)) || e)",
	}
	for src, want := range tests {
		f, ds := parseOne(t, "entity E { string S; security { allow read when "+src+"; } }")
		if len(ds) != 0 {
			t.Errorf("%s: %v", src, ds)
			continue
		}
		e := f.Decls[0].(*ast.Entity).Security[0].Rules[0].When
		if got := sexpr(e); got != want {
			t.Errorf("%s = %s, want %s", src, got, want)
		}
		if r := e.Rng(); f.Text(r) != src {
			t.Errorf("%s: range covers %q", src, f.Text(r))
		}
	}
	_, ds := parseOne(t, "entity E { string S; security { allow read when a < b < c; } }")
	if len(ds) != 1 || !strings.Contains(ds[0].Message, "comparisons do not chain") {
		t.Errorf("a < b < c: %v", ds)
	}
}
