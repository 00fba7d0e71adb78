package interp_test

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/wfc-lang/wfc"
	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/diag"
	goldenfile "github.com/wfc-lang/wfc/internal/golden"
	"github.com/wfc-lang/wfc/interp"
	"github.com/wfc-lang/wfc/interp/interptest"
	"github.com/wfc-lang/wfc/parser"
)

var update = flag.Bool("update", false, "rewrite the golden transcripts")

// TestRuns runs each program of testdata/runs against the scenario its
// `// at T send E(args)`, `// at T take Slot`, `// at T start` and
// `// fail step N|always` comments describe, and compares the transcript
// with NAME.golden (-update rewrites them). Each file is one decision of
// docs/language.md's "Running a workflow".
func TestRuns(t *testing.T) {
	files, _ := filepath.Glob("testdata/runs/*.wf")
	if len(files) == 0 {
		t.Fatal("no programs in testdata/runs")
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".wf")
		t.Run(name, func(t *testing.T) {
			res, wf, sc := load(t, f)
			tr, err := interp.Run(res, wf, sc)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, strings.TrimSuffix(f, ".wf")+".golden", tr.String())
			// The run is a pure function of the program and the scenario.
			again, _ := interp.Run(res, wf, sc)
			if d := cmp.Diff(tr, again); d != "" {
				t.Errorf("a second run differs (-first +second):\n%s", d)
			}
			validate(t, tr)
		})
	}
}

func golden(t *testing.T, path, got string) {
	t.Helper()
	goldenfile.Check(t, path, got, *update, "interp")
}

// load checks a program (it must have no errors) and reads its scenario.
func load(t testing.TB, path string) (*check.Result, *check.Workflow, interp.Scenario) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	res, wf := compile(t, path, string(src))
	sc, err := interptest.Scenario(res, wf, string(src))
	if err != nil {
		t.Fatal(err)
	}
	return res, wf, sc
}

func compile(t testing.TB, name, src string) (*check.Result, *check.Workflow) {
	t.Helper()
	r := wfc.Run(context.Background(), []parser.Source{{Name: name, Src: src}}, wfc.Options{})
	for _, d := range r.Diagnostics {
		if d.Severity == diag.Error {
			t.Fatalf("%s: %v", name, d)
		}
	}
	return r.Checked, r.Checked.Program.Workflows[0]
}

// validate checks the JSON transcript against its schema.
func validate(t *testing.T, tr *interp.Transcript) {
	t.Helper()
	c := jsonschema.NewCompiler()
	sch, err := c.Compile("../docs/schema/transcript.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	b, err := tr.JSON()
	if err != nil {
		t.Fatal(err)
	}
	var doc any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(doc); err != nil {
		t.Errorf("the JSON transcript does not match docs/schema/transcript.schema.json: %v", err)
	}
	var back interp.Transcript
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(*tr, back); d != "" {
		t.Errorf("JSON does not round-trip (-run +decoded):\n%s", d)
	}
}

// compileAny checks a program that may have errors.
func compileAny(src string) (*check.Result, *check.Workflow) {
	r := wfc.Run(context.Background(), []parser.Source{{Name: "p.wf", Src: src}}, wfc.Options{})
	return r.Checked, r.Checked.Program.Workflows[0]
}
