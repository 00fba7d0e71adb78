package wfctemporal

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/wfc-lang/wfc/interp"
	"github.com/wfc-lang/wfc/interp/interptest"
	"github.com/wfc-lang/wfc/wftest"
)

// testPrograms reads the programs that hold tests written in the language
// (*_test.wf): each folder of testdata/examples with its test files, and
// each golden program of wftest/testdata (one language feature
// each).
func testPrograms(t *testing.T) map[string][]Source {
	t.Helper()
	out := map[string][]Source{}
	add := func(key, path string) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		out[key] = append(out[key], Source{Name: filepath.ToSlash(path), Text: string(b)})
	}
	dirs, _ := filepath.Glob("../../testdata/examples/*")
	for _, dir := range dirs {
		files, _ := filepath.Glob(filepath.Join(dir, "*.wf"))
		for _, f := range files {
			add(filepath.Base(dir), f)
		}
	}
	files, _ := filepath.Glob("../../wftest/testdata/*.wf")
	for _, f := range files {
		add("wftest/"+filepath.Base(f), f)
	}
	return out
}

// TestLanguageTestsOnTemporal: every test written in the language under
// testdata (and the wftest package's per-feature programs) gives the same
// transcript in the reference interpreter and on Temporal.
func TestLanguageTestsOnTemporal(t *testing.T) {
	progs := testPrograms(t)
	keys := make([]string, 0, len(progs))
	for k := range progs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	ran := 0
	for _, key := range keys {
		p, err := NewProgram(progs[key])
		if err != nil {
			if strings.HasPrefix(key, "wftest/") {
				continue // a golden program of diagnostics, never run
			}
			t.Fatalf("%s: %v", key, err)
		}
		c, _ := compile(progs[key])
		if why := runsExactly(c); why != "" {
			t.Logf("%s skipped: %s", key, why)
			continue
		}
		for _, tst := range c.res.Program.Tests {
			if tst.Workflow == nil {
				continue
			}
			sc := wftest.Scenario(tst)
			t.Run(key+"/"+tst.Name, func(t *testing.T) { same(t, p, c, tst.Workflow, sc) })
			ran++
		}
	}
	t.Logf("%d tests written in the language ran on both engines", ran)
	if ran < 10 {
		t.Errorf("only %d tests ran", ran)
	}
}

// TestDecisionsOnTemporal: each decision of docs/language.md's "Running a
// workflow", as interp's golden runs show it (testdata/runs), comes
// out the same on Temporal.
func TestDecisionsOnTemporal(t *testing.T) {
	files, _ := filepath.Glob("../../interp/testdata/runs/*.wf")
	if len(files) < 15 {
		t.Fatalf("only %d programs in interp/testdata/runs", len(files))
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".wf"), func(t *testing.T) {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			p, c := mustProgram(t, []Source{{Name: filepath.Base(f), Text: string(b)}})
			if why := runsExactly(c); why != "" {
				t.Skip(why)
			}
			wf := c.res.Program.Workflows[0]
			sc, err := interptest.Scenario(c.res, wf, string(b))
			if err != nil {
				t.Fatal(err)
			}
			// The scenario is read as TestRuns reads it: the reference's
			// transcript is the golden one.
			golden, err := os.ReadFile(strings.TrimSuffix(f, ".wf") + ".golden")
			if err != nil {
				t.Fatal(err)
			}
			if tr, _ := interp.Run(c.res, wf, sc); tr.String() != string(golden) {
				t.Fatalf("the scenario was misread: the reference's transcript is\n%s\nthe golden one\n%s", tr, golden)
			}
			same(t, p, c, wf, sc)
		})
	}
}
