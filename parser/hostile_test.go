package parser

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/internal/scaling"
)

// codes lists the codes of ds in order.
func codes(ds []diag.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, string(d.Code))
	}
	return out
}

// One root cause, one diagnostic: a syntax error that only follows from a
// lexical one is not reported.
func TestLexicalErrorsDoNotCascade(t *testing.T) {
	for name, src := range map[string]string{
		"unterminated string": "workflow W {\n  Initial = A;\n  state A { Message = \"abc\n  }\n}\n",
		"malformed number":    "enum E { A }\nworkflow W { Initial = A; state A { subscribe Go() { Finished { Within = TimeSpan.FromMinutes(1); Backoff = Backoff.Fixed(TimeSpan.FromMinutes(1)).Jitter(1e-400); } } } }\n",
	} {
		_, ds := parseOne(t, src)
		n := 0
		for _, d := range ds {
			if d.Code == "WF001" {
				t.Errorf("%s: %s", name, d.Message)
			}
			if d.Code != "WF001" {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s: want one lexical diagnostic, got %v", name, codes(ds))
		}
	}
}

// A long token quoted in a message is cut at a character, never inside one.
func TestDescribeCutsAtCharacter(t *testing.T) {
	str := `"` + strings.Repeat("a", 35) + `ééééé"`
	_, ds := parseOne(t, "enum E { A } "+str+"\n")
	if len(ds) != 1 {
		t.Fatalf("want one diagnostic, got %v", ds)
	}
	if !utf8.ValidString(ds[0].Message) || !strings.Contains(ds[0].Message, strings.Repeat("a", 35)+"…") {
		t.Errorf("message %q", ds[0].Message)
	}
}

// Hostile inputs stay linear: parsing 8N costs about 8 times parsing N,
// never 64 times. Counted, not timed: the openers the bracket trackers
// push and unlink, the tokens the bracket searches of recovery and reports
// look at (each from where it is, never from the file's start), and the
// allocations.
func TestHostileInputsAreLinear(t *testing.T) {
	tracked := scaling.Count("openers pushed and unlinked", &tracked)
	searched := scaling.Count("tokens and brackets searched", &scanned)
	for _, tt := range []struct {
		name     string
		gen      func(n int) string
		counters []scaling.Counter
	}{
		{"brackets then closers", func(n int) string {
			return "enum E { A }\n" + strings.Repeat("[", n) + strings.Repeat(")", n)
		}, []scaling.Counter{tracked}},
		{"closers left of their openers", func(n int) string {
			// Every `}` starts a line left of its `{` with no outer `{`
			// level with it: the search for a lost `}` must not rescan
			// the open braces for each.
			return "workflow W {\n  state A {\n    " + strings.Repeat("{", n) + strings.Repeat("\n }", n)
		}, []scaling.Counter{tracked, searched}},
		{"unterminated strings", func(n int) string {
			return "workflow W {\n" + strings.Repeat("\"x\n}\n", n)
		}, nil},
	} {
		const n = 1000
		src := map[int]string{n: tt.gen(n), scaling.Factor * n: tt.gen(scaling.Factor * n)}
		scaling.Linear(t, tt.name, func(k int) {
			Parse([]Source{{Name: "f.wf", Src: src[k]}}, Options{})
		}, n, tt.counters...)
	}
}
