package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/check/vocab"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/format"
	"github.com/wfc-lang/wfc/parser"
)

// explain runs `wfc explain arg` and returns what it printed.
func explain(t *testing.T, arg string) string {
	t.Helper()
	var out bytes.Buffer
	cmd := newExplainCmd(&out)
	cmd.SetArgs([]string{arg})
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	if err := cmd.Execute(); err != nil {
		t.Fatalf("wfc explain %s: %v", arg, err)
	}
	return out.String()
}

// TestExplainEveryWord: every word of the language — keyword, statement,
// named argument, setting, factory, member, unit, milestone, outcome,
// attribute, security operation, test item (vocab.All, which the parser's
// TestKeywordsExplained and the checker's list of test items keep whole) —
// has an entry, found by how it is written in full and, where that is
// unambiguous, bare; its example is laid out as `wfc fmt` lays it out.
func TestExplainEveryWord(t *testing.T) {
	names := map[string]int{}
	for _, w := range vocab.All() {
		names[w.Name]++
	}
	for _, w := range vocab.All() {
		for _, arg := range []string{w.Qualified, w.Name} {
			if arg == w.Name && names[w.Name] > 1 {
				continue
			}
			if got := explain(t, arg); !strings.HasPrefix(got, w.Signature+"\n") || !strings.Contains(got, w.Sentence()) {
				t.Errorf("wfc explain %s:\n%s", arg, got)
			}
		}
		lx := parser.Lex("example.wf", w.Example)
		if got, err := format.Layout(w.Example, &lx); err != nil || got != w.Example+"\n" {
			t.Errorf("%s: the example is not laid out as wfc fmt would (%v):\n%s\nwant\n%s", w.Qualified, err, w.Example, got)
		}
	}
	for _, arg := range []string{"Workflow.Once", "retry", "retry:", "goto", "subscribe", "Expect.End", "Send", "test"} {
		if got := explain(t, arg); strings.Contains(got, "unknown") {
			t.Errorf("wfc explain %s: %s", arg, got)
		}
	}
}

// TestExplainExamples: the examples `wfc explain CODE` prints are laid
// out as `wfc fmt` lays them out, and the corrected ones declare no event
// that nothing subscribes (an example shows the mistake and nothing else).
func TestExplainExamples(t *testing.T) {
	for _, c := range diag.Codes {
		for _, ex := range []string{c.Wrong, c.Right} {
			shown := layoutExample(ex)
			if shown != ex && !strings.Contains(explain(t, string(c.Code)), indentLines(shown)) {
				t.Errorf("%s: the example is not shown laid out", c.Code)
			}
		}
		prog, ds := parser.Parse([]parser.Source{{Name: "right.wf", Src: c.Right}}, parser.Options{Workers: 1})
		if len(ds) > 0 {
			t.Errorf("%s: the corrected example does not parse: %s", c.Code, ds[0].Message)
			continue
		}
		declared, subscribed := map[string]bool{}, map[string]bool{}
		ast.Inspect(prog, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Event:
				declared[n.Name.Name] = true
			case *ast.Subscribe:
				subscribed[n.Event.Name] = true
			}
			return true
		})
		for e := range declared {
			if !subscribed[e] {
				t.Errorf("%s: the corrected example declares event %s, which nothing subscribes", c.Code, e)
			}
		}
	}
}

func indentLines(s string) string {
	return "    " + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n    ")
}

// TestExplainSuggests: a word that is not the language's gets the nearest
// one, and the words of other retry libraries say how the budget is
// counted here rather than the nearest spelling (`MaxRetries` is not
// `Retries`).
func TestExplainSuggests(t *testing.T) {
	for arg, want := range map[string]string{
		"MaxRetries":         "`.MaxRetries(n)` is `Backoff.MaxAttempts(n+1)`",
		"Backoff.maxRetries": "`.MaxRetries(n)` is `Backoff.MaxAttempts(n+1)`",
		"MaximumAttempts":    "`Backoff.MaxAttempts(n)`",
		"MaxAttemps":         "did you mean .MaxAttempts?",
		"Exhasted":           "did you mean Exhausted?",
	} {
		var out bytes.Buffer
		cmd := newExplainCmd(&out)
		cmd.SetArgs([]string{arg})
		cmd.SetOut(&out)
		cmd.SetErr(&out)
		err := cmd.Execute()
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("wfc explain %s: %v, want it to say %q", arg, err, want)
		}
	}
}
