package wftest_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wfc-lang/wfc"
	"github.com/wfc-lang/wfc/diag"
	goldenfile "github.com/wfc-lang/wfc/internal/golden"
	"github.com/wfc-lang/wfc/parser"
	"github.com/wfc-lang/wfc/wftest"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestGolden runs the tests of each testdata/NAME.wf (a small program per
// language feature, with its tests) and compares what they did — each
// test's transcript, its verdict, the failed expectations, the coverage —
// with testdata/NAME.golden (-update rewrites them). A change in the
// interpreter, the runner or the coverage shows here as a readable diff.
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.wf")
	if len(files) == 0 {
		t.Fatal("no golden inputs")
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".wf"), func(t *testing.T) {
			got := render(t, f)
			goldenfile.Check(t, strings.TrimSuffix(f, ".wf")+".golden", got, *update, "wftest")
		})
	}
}

// render checks one file as a program and renders its tests' runs.
func render(t *testing.T, file string) string {
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Base(file)
	r := wfc.Run(context.Background(), []parser.Source{{Name: name, Src: string(src)}}, wfc.Options{})
	for _, d := range r.Diagnostics {
		if d.Severity == diag.Error {
			t.Fatalf("%s:%d:%d: %s %s", name, d.Range.Start.Line, d.Range.Start.Column, d.Code, d.Message)
		}
	}
	var b strings.Builder
	cov := wftest.NewCoverage(r.Checked, r.Schedules)
	for _, tc := range r.Checked.Program.Tests {
		res := wftest.Run(r.Checked, tc, wftest.Options{Schedules: r.Schedules, Cover: cov})
		verdict := "PASS"
		if !res.Passed() {
			verdict = "FAIL"
		}
		fmt.Fprintf(&b, "=== %s: %s\n", verdict, tc.Name)
		if res.Err != nil {
			fmt.Fprintf(&b, "error: %v\n", res.Err)
		}
		if res.Transcript != nil {
			b.WriteString(res.Transcript.String())
		}
		for _, f := range res.Failures {
			fmt.Fprintf(&b, "%s:%d:%d: %s: %s (entry %d)\n", f.File, f.Range.Start.Line, f.Range.Start.Column, f.Expect.Kind, f.Message, f.Entry+1)
		}
		b.WriteString("\n")
	}
	b.WriteString(cov.Text())
	return b.String()
}
