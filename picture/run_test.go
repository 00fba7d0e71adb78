package picture

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/wfc-lang/wfc/codegen"
	"github.com/wfc-lang/wfc/graph"
	"github.com/wfc-lang/wfc/internal/golden"
	"github.com/wfc-lang/wfc/wftest"
)

// runInputs are the programs whose tests' run timelines and whose state
// graphs are kept as golden files.
var runInputs = []struct{ name, path string }{
	{"jobflow", "../testdata/examples/jobflow"},
	{"orders", "../testdata/examples/orders"},
	{"hostile", "testdata"},
}

// TestRunGolden draws the run timeline of every test of the examples (as
// `wfc test --svg` does) and compares it with its golden file.
func TestRunGolden(t *testing.T) {
	for _, in := range runInputs {
		res := load(t, in.path)
		scheds := codegen.Lower(res, codegen.Options{})
		var all strings.Builder
		for _, tc := range res.Program.Tests {
			r := wftest.Run(res, tc, wftest.Options{Schedules: scheds})
			if r.Transcript == nil {
				t.Fatalf("%s: no transcript", tc.Name)
			}
			js, err := r.Transcript.JSON()
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			if err := Run(&b, js, RunOptions{Options: Options{Standalone: true}, States: StatesOf(tc.Workflow)}); err != nil {
				t.Fatal(err)
			}
			checkSafe(t, b.String())
			all.WriteString("<!-- " + strings.ReplaceAll(tc.Name, "-", "‐") + " -->\n" + b.String())
		}
		golden.Check(t, filepath.Join("testdata", in.name+".run.svg.txt"), all.String(), *update, "picture")
	}
}

// TestGraphGolden draws each workflow's state graph.
func TestGraphGolden(t *testing.T) {
	for _, in := range runInputs {
		res := load(t, in.path)
		v := graph.Build(graph.Input{Program: res.Program, Schedules: codegen.Lower(res, codegen.Options{})})
		var all strings.Builder
		for _, w := range v.Workflows {
			if err := Graph(&all, w, GraphOptions{Options: Options{Standalone: true}}); err != nil {
				t.Fatal(err)
			}
		}
		checkSafe(t, all.String())
		golden.Check(t, filepath.Join("testdata", in.name+".graph.svg"), all.String(), *update, "picture")
	}
}

// TestGraphNamesEveryState: every state of the examples is drawn, named,
// and the current state is marked.
func TestGraphNamesEveryState(t *testing.T) {
	res := load(t, "../testdata/examples/orders")
	v := graph.Build(graph.Input{Program: res.Program})
	for _, w := range v.Workflows {
		var b strings.Builder
		if err := Graph(&b, w, GraphOptions{Current: "Paid"}); err != nil {
			t.Fatal(err)
		}
		var names []string
		current := 0
		for _, e := range elements(t, b.String()) {
			if e.name == "g" && e.attr["class"] == "state" {
				names = append(names, e.attr["data-state"])
			}
			if strings.Contains(e.attr["class"], "current") {
				current++
			}
		}
		want := []string{"Placed", "Paid", "Picking", "Shipped", "Delivered", "Cancelled", "Failed"}
		if strings.Join(names, " ") != strings.Join(want, " ") {
			t.Errorf("states drawn %v, want %v", names, want)
		}
		if current != 1 {
			t.Errorf("%d states marked current, want 1", current)
		}
	}
}

// TestHostileRunAndGraph: a test's name and arguments holding markup are
// text in the run timeline; the state graph of the hostile program too.
func TestHostileRunAndGraph(t *testing.T) {
	res := load(t, "testdata")
	tc := res.Program.Tests[0]
	r := wftest.Run(res, tc, wftest.Options{})
	js, _ := r.Transcript.JSON()
	var b strings.Builder
	if err := Run(&b, js, RunOptions{States: StatesOf(tc.Workflow)}); err != nil {
		t.Fatal(err)
	}
	checkSafe(t, b.String())
	chars := charData(t, b.String())
	for _, want := range []string{`"<img src=x onerror=alert(1)> javascript:alert(1) \u202e"`, `<script>alert(1)</script>`} {
		if !strings.Contains(chars, want) {
			t.Errorf("the run timeline's text lacks %q", want)
		}
	}
}

// TestRunUnknownKinds: a transcript of a newer engine, with kinds this
// renderer does not know and hostile texts in every field, is drawn: each
// entry a mark, the unknown ones as ticks of class "other".
func TestRunUnknownKinds(t *testing.T) {
	js := `{"version":1,"workflow":"W<script>","entries":[
	 {"at":0,"due":0,"kind":"start","state":"W"},
	 {"at":0,"due":0,"kind":"enter","state":"A\u202e"},
	 {"at":10000000,"due":10000000,"kind":"timeout","state":"A\u202e","name":"</svg>"},
	 {"at":20000000,"due":20000000,"kind":"budget\"><script>","state":"A\u202e","message":"javascript:alert(1)"},
	 {"at":30000000,"due":30000000,"kind":"end","state":"A\u202e","error":true,"message":"<b>"}]}`
	var b strings.Builder
	if err := Run(&b, []byte(js), RunOptions{}); err != nil {
		t.Fatal(err)
	}
	checkSafe(t, b.String())
	others := 0
	for _, e := range elements(t, b.String()) {
		if e.name == "g" && strings.Contains(e.attr["class"], "kind-other") {
			others++
		}
		if e.name == "g" && e.attr["class"] == "entry kind-timeout" {
			others++
		}
	}
	if others != 2 {
		t.Errorf("%d marks for the two unknown kinds, want 2", others)
	}
	if err := Run(&b, []byte(`{"entries": 3}`), RunOptions{}); err == nil {
		t.Error("a document that is not a transcript was drawn")
	}
}
