package main

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/internal/scaling"
	"github.com/wfc-lang/wfc/parser"
)

// linearSteps is a workflow of n durable steps, each with a Linear policy
// of 10,000 attempts: a table of 10,000 distinct waits apiece. Its 10ms
// interval keeps every wait under an hour and their sum under 30 days, so
// the program is clean (no WF312, no WF318).
func linearSteps(n int) *loaded {
	var b strings.Builder
	b.WriteString("workflow W { Initial = A; event Go();\n  state A { subscribe Go(); on Go {\n")
	for i := range n {
		fmt.Fprintf(&b, "    Workflow.Once(\"s%d\", retry: Backoff.Linear(TimeSpan.FromMilliseconds(10)).MaxAttempts(10000)) { X.Y(); }\n", i)
	}
	b.WriteString("    goto Done; } }\n  terminal Done { } }\n")
	src := b.String()
	return &loaded{sources: []parser.Source{{Name: "s.wf", Src: src}}, bytes: diag.Sources{"s.wf": src}, order: []string{"s.wf"}}
}

// TestCheckLinearTablesScale: `wfc check` lowers tables only for their
// totals and lints, so a step of 10,000 distinct waits costs it what a
// short one does. 160 such steps once allocated 250 MB (1.5 MB a step);
// now they must stay under 64 KB a step, and 640 cost 8 times 80 (bytes
// and objects allocated, counted, not timed).
func TestCheckLinearTablesScale(t *testing.T) {
	if testing.Short() {
		t.Skip("measures programs of hundreds of steps")
	}
	const n = 80
	ls := map[int]*loaded{n: linearSteps(n), scaling.Factor * n: linearSteps(scaling.Factor * n)}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	a := analyzeSummary(ls[n])
	runtime.ReadMemStats(&after)
	if len(a.diags) != 0 || len(a.schedules) != n {
		t.Fatalf("%d diagnostics, %d tables", len(a.diags), len(a.schedules))
	}
	if per := (after.TotalAlloc - before.TotalAlloc) / n; per > 64<<10 {
		t.Errorf("check allocates %d bytes per step of 10,000 attempts, want at most 64 KB", per)
	}
	scaling.Linear(t, "check of long Linear tables", func(k int) { analyzeSummary(ls[k]) }, n)
}

// negativeWindows is n milestones whose window is negative (WF305) and
// whose policy is Linear of 10,000 attempts: tables kept for their lints.
func negativeWindows(n int) *loaded {
	var b strings.Builder
	b.WriteString("workflow W { Initial = A; event Go();\n  state A { subscribe Go(); on Go { goto B0; } }\n")
	for i := range n {
		fmt.Fprintf(&b, "  state B%d { subscribe Go() { Finished { Within = TimeSpan.FromMinutes(-1); Backoff = Backoff.Linear(TimeSpan.FromSeconds(1)).MaxAttempts(10000); Unfinished { goto Done; } } } }\n", i)
	}
	b.WriteString("  terminal Done { } }\n")
	src := b.String()
	return &loaded{sources: []parser.Source{{Name: "n.wf", Src: src}}, bytes: diag.Sources{"n.wf": src}, order: []string{"n.wf"}}
}

// TestCheckLintOnlyTablesAreCut: the tables lowered for lints alone (a
// consumer with an error in its window) are cut as the others are; 640 of
// them once cost `wfc check` 630 MB.
func TestCheckLintOnlyTablesAreCut(t *testing.T) {
	const n = 160
	l := negativeWindows(n)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	a := analyzeSummary(l)
	runtime.ReadMemStats(&after)
	if errs, _ := diag.Counts(a.diags); errs != n {
		t.Fatalf("%d errors, want %d WF305", errs, n)
	}
	if per := (after.TotalAlloc - before.TotalAlloc) / n; per > 64<<10 {
		t.Errorf("check allocates %d bytes per lint-only table of 10,000 attempts, want at most 64 KB", per)
	}
}
