package wfc_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/wfc-lang/wfc"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/parser"
)

// overAnHour yields WF312 (a warning) on line 7 and nothing else.
const overAnHour = `workflow W {
  Initial = A;
  event Go();
  state A {
    subscribe Go();
    on Go {
      Workflow.Once("a", retry: Backoff.Exponential(TimeSpan.FromSeconds(2)).MaxAttempts(13)) { X.Y(); }
      goto Done;
    }
  }
  terminal Done { }
}
`

func run(t *testing.T, opt wfc.Options, files ...parser.Source) *wfc.Result {
	t.Helper()
	r := wfc.Run(context.Background(), files, opt)
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	return r
}

func summary(ds []diag.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%s:%d:%d %s %s", d.File, d.Range.Start.Line, d.Range.Start.Column, d.Severity, d.Code))
	}
	return out
}

func TestRun(t *testing.T) {
	r := run(t, wfc.Options{},
		parser.Source{Name: "b.wf", Src: "enum E { A, A }\n"},
		parser.Source{Name: "a.wf", Src: overAnHour})
	want := []string{"b.wf:1:13 error WF101", "a.wf:7:33 warning WF312"}
	if diff := cmp.Diff(want, summary(r.Diagnostics)); diff != "" {
		t.Errorf("diagnostics (files in the order given, -want +got):\n%s", diff)
	}
	if r.Program == nil || len(r.Program.Files) != 2 {
		t.Errorf("program: %+v", r.Program)
	}
	if len(r.Schedules) != 1 || r.Schedules[0].Attempts != 13 {
		t.Errorf("want one schedule of 13 attempts, got %d", len(r.Schedules))
	}
	if r.Sources["a.wf"] != overAnHour {
		t.Errorf("sources not kept")
	}
}

func TestSettings(t *testing.T) {
	src := "enum Dup { X, X }\n" + overAnHour
	other := "workflow V" + overAnHour[len("workflow W"):] // the same, declaring V
	files := []parser.Source{{Name: "a.wf", Src: src}, {Name: "b.wf", Src: other}}
	for _, tt := range []struct {
		name     string
		settings func(string) diag.Settings
		want     []string
	}{
		{"none", nil, []string{"a.wf:1:15 error WF101", "a.wf:8:33 warning WF312", "b.wf:7:33 warning WF312"}},
		{"disable in one file", func(f string) diag.Settings {
			if f == "a.wf" {
				return diag.Settings{Disable: map[diag.ID]bool{"WF312": true}}
			}
			return diag.Settings{}
		}, []string{"a.wf:1:15 error WF101", "b.wf:7:33 warning WF312"}},
		{"promote", func(string) diag.Settings {
			return diag.Settings{Error: map[diag.ID]bool{"WF312": true}}
		}, []string{"a.wf:1:15 error WF101", "a.wf:8:33 error WF312", "b.wf:7:33 error WF312"}},
		{"an error cannot be disabled", func(string) diag.Settings {
			return diag.Settings{Disable: map[diag.ID]bool{"WF101": true, "WF312": true}}
		}, []string{"a.wf:1:15 error WF101"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, wfc.Options{Settings: tt.settings}, files...)
			if diff := cmp.Diff(tt.want, summary(r.Diagnostics)); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}

// TestSettingsAfterSuppression: an ignore comment silences a warning before
// settings see it, so promoting the code does not make it an error, and the
// ignore is not stale.
func TestSettingsAfterSuppression(t *testing.T) {
	src := "// wfc:ignore WF312 the job is idempotent and slow is fine\n"
	lines := overAnHour
	i := len("workflow W {\n  Initial = A;\n  event Go();\n  state A {\n    subscribe Go();\n    on Go {\n")
	src = lines[:i] + src + lines[i:]
	r := run(t, wfc.Options{Settings: func(string) diag.Settings {
		return diag.Settings{Error: map[diag.ID]bool{"WF312": true, "WF317": true}}
	}}, parser.Source{Name: "a.wf", Src: src})
	if len(r.Diagnostics) != 0 {
		t.Errorf("want nothing, got %v", summary(r.Diagnostics))
	}
}

func TestCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := wfc.Run(ctx, []parser.Source{{Name: "a.wf", Src: overAnHour}}, wfc.Options{})
	if r.Err == nil || r.Program != nil {
		t.Errorf("a cancelled run must say so and stop: %+v", r)
	}
}

// programs returns many different programs: the wrong and right example of
// every catalogued code and every golden case.
func programs(t *testing.T) [][]parser.Source {
	var out [][]parser.Source
	for _, c := range diag.Codes {
		out = append(out, []parser.Source{{Name: string(c.Code) + "-wrong.wf", Src: c.Wrong}})
		out = append(out, []parser.Source{{Name: string(c.Code) + "-right.wf", Src: c.Right}})
	}
	paths, _ := filepath.Glob("testdata/cases/*.wf")
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, []parser.Source{{Name: filepath.Base(p), Src: string(b)}})
	}
	if len(out) < 100 {
		t.Fatalf("only %d programs", len(out))
	}
	return out
}

// TestConcurrent runs the whole pipeline on different programs from many
// goroutines at once (under -race in CI) and checks each result equals the
// one of a run alone. Every goroutine runs every program, each starting at
// a different one, and the concurrent runs come first, so whatever a call
// touches is touched by several at once.
func TestConcurrent(t *testing.T) {
	const goroutines = 8
	progs := programs(t)
	got := make([][][]diag.Diagnostic, goroutines)
	var wg sync.WaitGroup
	for g := range goroutines {
		got[g] = make([][]diag.Diagnostic, len(progs))
		wg.Go(func() {
			for k := range progs {
				i := (k + g*len(progs)/goroutines) % len(progs)
				got[g][i] = wfc.Run(context.Background(), progs[i], wfc.Options{Workers: 2}).Diagnostics
			}
		})
	}
	wg.Wait()
	for i, p := range progs {
		want := run(t, wfc.Options{}, p...).Diagnostics
		for g := range goroutines {
			if diff := cmp.Diff(want, got[g][i]); diff != "" {
				t.Fatalf("%s: concurrent run differs (-alone +concurrent):\n%s", p[0].Name, diff)
			}
		}
	}
}
