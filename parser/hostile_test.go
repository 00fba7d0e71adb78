package parser

import (
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/wfc-lang/wfc/diag"
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

// Hostile inputs stay linear: parsing 4N costs less than 8× parsing N
// (quadratic would be 16×; the margin over 4× absorbs the collector's cost
// of a larger heap). The best of three runs each damps the noise of a
// shared machine.
func TestHostileInputsAreLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("timing")
	}
	for name, gen := range map[string]func(n int) string{
		"brackets then closers": func(n int) string {
			return "enum E { A }\n" + strings.Repeat("[", n) + strings.Repeat(")", n)
		},
		"closers left of their openers": func(n int) string {
			// Every `}` starts a line left of its `{` with no outer `{`
			// level with it: the search for a lost `}` must not rescan
			// the open braces for each.
			return "workflow W {\n  state A {\n    " + strings.Repeat("{", n) + strings.Repeat("\n }", n)
		},
		"unterminated strings": func(n int) string {
			return "workflow W {\n" + strings.Repeat("\"x\n}\n", n)
		},
	} {
		run := func(n int) time.Duration {
			src := gen(n)
			best := time.Duration(1 << 62)
			for range 3 {
				start := time.Now()
				Parse([]Source{{Name: "f.wf", Src: src}}, Options{})
				best = min(best, time.Since(start))
			}
			return best
		}
		// A quadratic path fails every attempt; a burst of load on a shared
		// machine rarely spoils three in a row.
		const n = 20000
		var small, large time.Duration
		for range 3 {
			runtime.GC()
			small, large = run(n), run(4*n)
			if large <= 8*small || large <= 50*time.Millisecond {
				break
			}
		}
		if large > 8*small && large > 50*time.Millisecond {
			t.Errorf("%s: %v for %d, %v for %d: grows faster than linear", name, small, n, large, 4*n)
		}
	}
}
