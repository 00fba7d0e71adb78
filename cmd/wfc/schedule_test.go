package main

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wfc-lang/wfc/codegen"
)

// TestScheduleGolden renders `wfc schedule` for the shipped examples and the
// schedule cases, as text and JSON (with replayed draws), compares them with
// the goldens in testdata/schedule, and validates the JSON against its schema.
func TestScheduleGolden(t *testing.T) {
	inputs := []string{"examples/jobflow/jobflow.wf", "examples/orders", "schedule/policies.wf"}
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".wf")
		t.Run(name, func(t *testing.T) {
			l := loadCase(t, filepath.Join(testdataDir, in))
			a := analyze(l)
			if len(a.diags) != 0 {
				t.Fatalf("diagnostics: %v", codesOf(a.diags))
			}
			ss := codegen.Lower(a.result, codegen.Options{Draws: []float64{0, 0.75}})
			var text, js bytes.Buffer
			if err := codegen.WriteText(&text, ss); err != nil {
				t.Fatal(err)
			}
			if err := codegen.WriteJSON(&js, ss); err != nil {
				t.Fatal(err)
			}
			validateJSON(t, "schedule.schema.json", js.Bytes())
			golden(t, filepath.Join(testdataDir, "schedule", name+".schedule.txt"), text.Bytes())
			golden(t, filepath.Join(testdataDir, "schedule", name+".schedule.json"), js.Bytes())
		})
	}
}

// TestScheduleOutputBounded: what `wfc schedule` prints per consumer is
// bounded by --rows, whatever the budget: 40 steps of a Linear policy of
// 2147483647 attempts, 4 KB of source, once printed 13 MB of text and
// 92 MB of JSON (10,000 rows each, and 10,000 timeline attempts with
// --seed).
func TestScheduleOutputBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("workflow W { Initial = A; event Go();\n  state A { subscribe Go(); on Go {\n")
	const n = 40
	for i := range n {
		fmt.Fprintf(&b, "    Workflow.Once(\"s%d\", retry: Backoff.Linear(TimeSpan.FromSeconds(1)).MaxAttempts(2147483647)) { }\n", i)
	}
	b.WriteString("    goto Done; } }\n  terminal Done { } }\n")
	for _, tc := range []struct {
		args     []string
		perTable int // bytes
	}{
		{[]string{"schedule", "-"}, 4 << 10},
		{[]string{"schedule", "--seed", "1", "-"}, 4 << 10},
		{[]string{"schedule", "--format", "json", "-"}, 32 << 10},
		{[]string{"schedule", "--format", "json", "--seed", "1", "-"}, 32 << 10},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(tc.args, strings.NewReader(b.String()), &stdout, &stderr); code != exitOK {
			t.Fatalf("%v: exit %d\n%s", tc.args, code, stderr.String())
		}
		if got := stdout.Len(); got > n*tc.perTable {
			t.Errorf("%v: %d bytes for %d bytes of source, want at most %d a table", tc.args, got, b.Len(), tc.perTable)
		}
		if c := strings.Count(stdout.String(), "stops at 100 rows") + strings.Count(stdout.String(), `"truncated": true`); c != n {
			t.Errorf("%v: %d of %d tables say they were cut", tc.args, c, n)
		}
	}
}
