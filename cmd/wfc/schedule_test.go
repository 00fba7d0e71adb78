package main

import (
	"bytes"
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
