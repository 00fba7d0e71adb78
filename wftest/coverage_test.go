package wftest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/wfc-lang/wfc"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/parser"
	"github.com/wfc-lang/wfc/wftest"
)

// TestItemKindNames: every kind of item has its name, in text and JSON;
// a value that is no kind says so by number.
func TestItemKindNames(t *testing.T) {
	for k, want := range map[wftest.ItemKind]string{
		wftest.CovState: "state", wftest.CovTransition: "transition", wftest.CovCase: "case",
		wftest.CovMetWindow: "met-in-window", wftest.CovMetWait: "met-in-wait", wftest.CovExhausted: "exhausted",
		wftest.CovStepDone: "step-done", wftest.CovStepGaveUp: "step-gave-up", wftest.CovStepCancelled: "step-cancelled",
		wftest.CovCatch: "catch", 0: "ItemKind(0)", wftest.CovCatch + 1: "ItemKind(11)", 200: "ItemKind(200)",
	} {
		if got := k.String(); got != want {
			t.Errorf("ItemKind(%d).String() = %q, want %q", int(k), got, want)
		}
		if b, _ := k.MarshalText(); string(b) != want {
			t.Errorf("ItemKind(%d).MarshalText() = %q, want %q", int(k), b, want)
		}
	}
}

// coverageOf checks src and lists its coverage items, without running.
func coverageOf(t *testing.T, src string) *wftest.Coverage {
	t.Helper()
	r := wfc.Run(context.Background(), []parser.Source{{Name: "c.wf", Src: src}}, wfc.Options{})
	if errs, _ := diag.Counts(r.Diagnostics); errs != 0 {
		t.Fatalf("%v", r.Diagnostics)
	}
	return wftest.NewCoverage(r.Checked, r.Schedules)
}

// TestStepCancelledItem: a step has a "cancelled" item when the run can
// leave its state while the step is active — an attempt that takes time
// (a timeout, however short) or a wait between attempts — and none
// otherwise.
func TestStepCancelledItem(t *testing.T) {
	for _, tt := range []struct {
		step      string
		cancelled bool
	}{
		{`Workflow.Once("s") { X.Y(); }`, false},
		{`Workflow.Once("s", timeout: TimeSpan.FromMilliseconds(0.0001)) { X.Y(); }`, true},
		{`Workflow.Once("s", timeout: TimeSpan.FromSeconds(30)) { X.Y(); }`, true},
		{`Workflow.Once("s", retry: Backoff.Fixed(TimeSpan.Zero).MaxAttempts(3)) { X.Y(); }`, false},
		{`Workflow.Once("s", retry: Backoff.Fixed(TimeSpan.FromSeconds(1)).MaxAttempts(3)) { X.Y(); }`, true},
	} {
		src := `workflow W { Autostart = true; Initial = A; event Go();
  state A { subscribe Go(); on Go { ` + tt.step + ` } } }
`
		cov := coverageOf(t, src)
		got := false
		for _, it := range cov.Workflows[0].Items {
			if it.Kind == wftest.CovStepCancelled {
				got = true
				if it.What != `step "s" cancelled` {
					t.Errorf("%s: item %q", tt.step, it.What)
				}
			}
		}
		if got != tt.cancelled {
			t.Errorf("%s: a cancelled item %v, want %v", tt.step, got, tt.cancelled)
		}
	}
}

// TestStepGaveUpItems: a step has a "gave up" item for each reason it can
// reach: Exhausted unless its deadline alone bounds its attempts,
// Deadline with a deadline, Terminal with error kinds.
func TestStepGaveUpItems(t *testing.T) {
	for _, tt := range []struct {
		step string
		want []string
	}{
		{`Workflow.Once("s") { X.Y(); }`, []string{"Exhausted"}},
		{`Workflow.Once("s", retry: Backoff.Fixed(TimeSpan.FromSeconds(1)).MaxAttempts(3)) { X.Y(); }`, []string{"Exhausted"}},
		{`Workflow.Once("s", retry: Backoff.Fixed(TimeSpan.FromSeconds(1)), deadline: TimeSpan.FromMinutes(1)) { X.Y(); }`, []string{"Deadline"}},
		{`Workflow.Once("s", retry: Backoff.Fixed(TimeSpan.FromSeconds(1)).MaxAttempts(3), deadline: TimeSpan.FromMinutes(1)) { X.Y(); }`, []string{"Exhausted", "Deadline"}},
		{`Workflow.Once("s", retry: Backoff.Fixed(TimeSpan.FromSeconds(1)).MaxAttempts(3).NonRetryable(E.Bad)) { X.Y(); }`, []string{"Exhausted", "Terminal"}},
	} {
		src := `enum E { Bad }
workflow W { Autostart = true; Initial = A; event Go();
  state A { subscribe Go(); on Go { ` + tt.step + ` } } }
`
		var got []string
		for _, it := range coverageOf(t, src).Workflows[0].Items {
			if it.Kind == wftest.CovStepGaveUp {
				got = append(got, strings.TrimSuffix(strings.TrimPrefix(it.What, `step "s" gave up (`), ")"))
			}
		}
		if strings.Join(got, " ") != strings.Join(tt.want, " ") {
			t.Errorf("%s: gave-up items %v, want %v", tt.step, got, tt.want)
		}
	}
}

// TestCoverageJSON: the coverage's JSON is a list of the workflows, each
// with its counts and every item (an empty list, never null, for a
// workflow without items), and matches docs/schema/test.schema.json.
func TestCoverageJSON(t *testing.T) {
	// Every schema is known by its $id: test.schema.json refers to the
	// transcript's.
	c := jsonschema.NewCompiler()
	files, _ := filepath.Glob("../docs/schema/*.schema.json")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if err := c.AddResource("https://github.com/wfc-lang/wfc/docs/schema/"+filepath.Base(f), doc); err != nil {
			t.Fatal(err)
		}
	}
	sch, err := c.Compile("https://github.com/wfc-lang/wfc/docs/schema/test.schema.json#/properties/coverage")
	if err != nil {
		t.Fatal(err)
	}
	cov := coverageOf(t, `workflow W { Autostart = true; Initial = A; event Go();
  state A { subscribe Go(); on Go { goto B; } }
  terminal B { } }
workflow V { Autostart = true; Initial = C; state C { } }
`)
	empty := &wftest.Coverage{Workflows: []*wftest.WorkflowCoverage{{Workflow: "Empty", File: "e.wf"}}}
	for _, tc := range []struct {
		cov  *wftest.Coverage
		want string // workflow: covered/total, …
	}{
		{cov, "W 0/3 0.0, V 0/1 0.0"},
		{empty, "Empty 0/0 100.0"},
		{&wftest.Coverage{}, ""},
	} {
		b, err := json.Marshal(tc.cov)
		if err != nil {
			t.Fatal(err)
		}
		var doc any
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(doc); err != nil {
			t.Errorf("%s does not match the schema: %v", b, err)
		}
		var ws []struct {
			Workflow string
			Percent  float64
			Covered  int
			Total    int
			Items    []json.RawMessage
		}
		if err := json.Unmarshal(b, &ws); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, w := range ws {
			got = append(got, fmt.Sprintf("%s %d/%d %.1f", w.Workflow, w.Covered, w.Total, w.Percent))
			if len(w.Items) != w.Total {
				t.Errorf("%s: %d items, total %d", w.Workflow, len(w.Items), w.Total)
			}
		}
		if strings.Join(got, ", ") != tc.want {
			t.Errorf("coverage JSON %s: %q, want %q", b, strings.Join(got, ", "), tc.want)
		}
		if !strings.Contains(string(b), `"items":[`) && len(ws) > 0 {
			t.Errorf("%s: items not a list", b)
		}
	}
}
