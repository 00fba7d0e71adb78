package wftest_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wfc-lang/wfc"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/parser"
	"github.com/wfc-lang/wfc/wftest"
)

// load checks the .wf files of dir (tests included) as one program.
func load(t testing.TB, dir string) *wfc.Result {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.wf"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no .wf files in %s: %v", dir, err)
	}
	var srcs []parser.Source
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, parser.Source{Name: filepath.ToSlash(n), Src: string(b)})
	}
	r := wfc.Run(context.Background(), srcs, wfc.Options{})
	for _, d := range r.Diagnostics {
		if d.Severity == diag.Error {
			t.Fatalf("%s:%d:%d: %s %s", d.File, d.Range.Start.Line, d.Range.Start.Column, d.Code, d.Message)
		}
	}
	return r
}

// TestExamples runs the tests of testdata/examples: each must pass.
func TestExamples(t *testing.T) {
	dirs, _ := filepath.Glob("../testdata/examples/*")
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			r := load(t, dir)
			if len(r.Checked.Program.Tests) == 0 {
				t.Fatalf("%s has no tests", dir)
			}
			cov := wftest.NewCoverage(r.Checked, r.Schedules)
			for _, tc := range r.Checked.Program.Tests {
				res := wftest.Run(r.Checked, tc, wftest.Options{Schedules: r.Schedules, Cover: cov})
				if testing.Verbose() {
					t.Logf("%s:\n%s", tc.Name, res.Transcript)
				}
				if res.Err != nil {
					t.Errorf("%s: %v", tc.Name, res.Err)
				}
				for _, f := range res.Failures {
					t.Errorf("%s: %s:%d: %s\n%s", tc.Name, f.File, f.Range.Start.Line, f.Message, wftest.Around(res.Transcript, f.Entry, 3))
				}
			}
			if testing.Verbose() {
				t.Log("\n" + cov.Text())
			}
			if !strings.Contains(cov.Text(), "coverage: ") {
				t.Errorf("no coverage lines")
			}
		})
	}
}

// TestRunRules runs the tests of testdata/runs: one folder per rule of
// docs/language.md's "Running a workflow", each a program with its tests
// (`wfc test testdata/runs/NAME`); every test must pass.
func TestRunRules(t *testing.T) {
	dirs, _ := filepath.Glob("../testdata/runs/*")
	if len(dirs) < 2 {
		t.Fatalf("only %d rules in testdata/runs", len(dirs))
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			r := load(t, dir)
			if len(r.Checked.Program.Tests) == 0 {
				t.Fatalf("%s has no tests", dir)
			}
			for _, tc := range r.Checked.Program.Tests {
				res := wftest.Run(r.Checked, tc, wftest.Options{Schedules: r.Schedules})
				if res.Err != nil {
					t.Errorf("%s: %v", tc.Name, res.Err)
				}
				for _, f := range res.Failures {
					t.Errorf("%s: %s:%d: %s\n%s", tc.Name, f.File, f.Range.Start.Line, f.Message, wftest.Around(res.Transcript, f.Entry, 3))
				}
			}
		})
	}
}
