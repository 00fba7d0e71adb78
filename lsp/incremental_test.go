package lsp

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/wfc-lang/wfc/codegen"
	"github.com/wfc-lang/wfc/internal/corpus"
	"github.com/wfc-lang/wfc/parser"
)

func schedSummary(ss []*codegen.Schedule) []string {
	var out []string
	for _, s := range ss {
		c := s.Consumer
		out = append(out, fmt.Sprintf("%s %s:%v %d %d %d %v %s", codegen.Place(c), c.FileName(), c.Pos, s.Attempts, s.GivesUp, s.GivesUpLatest, s.Rows, c.Src.Text(c.Policy.Expr.Rng())))
	}
	return out
}

// TestRecheckMatchesFullCheck: after random edits inside workflows of a
// multi-file workspace, the incremental analysis gives exactly what a
// fresh analysis gives — diagnostics with their fixes and related
// locations, and every schedule — or declines.
func TestRecheckMatchesFullCheck(t *testing.T) {
	gen := corpus.Generate(1600, 4)
	files := make([]parser.Source, len(gen))
	for i, f := range gen {
		files[i] = parser.Source{Name: f.Name, Src: f.Src}
	}
	// Some diagnostics to carry: a lint with a fix, an unknown state.
	files[1].Src = strings.Replace(files[1].Src, ".Cap(TimeSpan.FromHours(1))", ".Cap(TimeSpan.FromHours(1)).Jitter(0)", 2)
	files[2].Src = strings.Replace(files[2].Src, "goto Escalated;", "goto Escalatd;", 1)
	edits := []struct{ from, to string }{
		{"MaxAttempts(3)", "MaxAttempts(4)"},
		{"MaxAttempts(4)", "MaxAttempts(3)"},
		{"goto Running;", "goto Runing;"},
		{"goto Runing;", "goto Running;"},
		{"Within  = TimeSpan.FromMinutes(5);", "Within  = TimeSpan.FromMinutes(5);\n"},
		{".Cap(TimeSpan.FromHours(1))", ".Cap(TimeSpan.FromHours(1)).Jitter(0)"},
		{".Jitter(0)", ""},
		{"Autostart = true;", "Autostart = 1;"},
		{"Autostart = 1;", "Autostart = true;"},
		{"state Queued {", "state Queued {\n\n"},
		{"Initial   = Queued;", "Initial   = Queued; // wfc:ignore WF310"},
	}
	pc := newParseCache()
	analyze(context.Background(), pc, files)
	rng := rand.New(rand.NewSource(2))
	took := 0
	compare := func(i int, from, to, name string) {
		t.Helper()
		got := analyze(context.Background(), pc, files)
		want := analyze(context.Background(), newParseCache(), files)
		if got.incremental {
			took++
		}
		if d := cmp.Diff(want.diags, got.diags); d != "" {
			t.Fatalf("edit %d (%q→%q in %s, incremental %v): diagnostics differ (-full +incremental):\n%s", i, from, to, name, got.incremental, d)
		}
		if d := cmp.Diff(schedSummary(want.schedules), schedSummary(got.schedules)); d != "" {
			t.Fatalf("edit %d (%q→%q, incremental %v): schedules differ:\n%s", i, from, to, got.incremental, d)
		}
	}
	for i := 0; i < 120; i++ {
		f := rng.Intn(len(files))
		e := edits[rng.Intn(len(edits))]
		n := strings.Count(files[f].Src, e.from)
		if n == 0 {
			continue
		}
		k := rng.Intn(n)
		idx := -1
		for j := 0; j <= k; j++ {
			idx += 1 + strings.Index(files[f].Src[idx+1:], e.from)
		}
		files[f].Src = files[f].Src[:idx] + e.to + files[f].Src[idx+len(e.from):]
		compare(i, e.from, e.to, files[f].Name)
		if rng.Intn(2) == 0 {
			// Undo it at once: a second keystroke in the same workflow.
			files[f].Src = files[f].Src[:idx] + e.from + files[f].Src[idx+len(e.to):]
			compare(i, e.to, e.from, files[f].Name)
		}
	}
	if took < 30 {
		t.Errorf("the incremental check was taken %d times", took)
	}
	t.Logf("re-checked incrementally %d times", took)
}
