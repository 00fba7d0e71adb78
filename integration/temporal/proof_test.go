package wfctemporal

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/workflow"

	"github.com/wfc-lang/wfc/codegen"
	export "github.com/wfc-lang/wfc/codegen/temporal"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/parser"
)

// programs reads every program under the repository's testdata: a file of
// a top-level folder alone, a deeper folder's files together.
func programs(t *testing.T) map[string][]parser.Source {
	root := "../../testdata"
	out := map[string][]parser.Source{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".wf") {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		key := rel
		if parts := strings.Split(filepath.ToSlash(rel), "/"); len(parts) > 2 {
			key = filepath.Dir(rel)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out[key] = append(out[key], parser.Source{Name: filepath.ToSlash(rel), Src: string(b)})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestExamplesRunAsTabled: every durable step and milestone in testdata
// whose policy Temporal can express (exactly, or with the Linear
// workaround) starts each attempt in Temporal's engine when its schedule
// table says, and gives up when it says.
func TestExamplesRunAsTabled(t *testing.T) {
	progs := programs(t)
	keys := make([]string, 0, len(progs))
	for k := range progs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	count := map[string]int{}
	for _, key := range keys {
		for i, e := range lowerExport(progs[key]) {
			c := e.Schedule.Consumer
			checkCodes(t, e)
			k := kindOf(e)
			if k == skip {
				count[fmt.Sprintf("skipped %v", e.Unsupported)]++
				continue
			}
			what := "milestone"
			if e.Step {
				what = "step"
			}
			if k == linear {
				what += " (Linear, NextRetryDelay)"
			}
			count[what]++
			t.Run(fmt.Sprintf("%s/%d:%s", key, i, codegen.Place(c)), func(t *testing.T) {
				prove(t, e)
			})
		}
	}
	t.Logf("consumers proved and skipped: %v", count)
	if count["step"] < 5 || count["milestone"] < 5 || count["step (Linear, NextRetryDelay)"] < 1 {
		t.Errorf("too few consumers in testdata to prove anything: %v", count)
	}
}

// TestLinearNeedsTheWorkaround: without NextRetryDelay a Linear step waits
// its first interval every time, which is why the export warns (WF401).
func TestLinearNeedsTheWorkaround(t *testing.T) {
	es := lowerExport([]parser.Source{{Name: "l.wf", Src: stepSource("Backoff.Linear(TimeSpan.FromSeconds(2)).MaxAttempts(4)")}})
	if len(es) != 1 || kindOf(es[0]) != linear {
		t.Fatalf("want one Linear step, got %+v", es)
	}
	r := runStep(t, es[0], false, 4)
	want := []time.Duration{0, 2 * time.Second, 4 * time.Second, 6 * time.Second}
	if fmt.Sprint(r.starts) != fmt.Sprint(want) {
		t.Fatalf("without the workaround: %v, want %v", r.starts, want)
	}
	compare(t, es[0].Schedule, runStep(t, es[0], true, 4), 4)
}

// TestRunWindowsEventComes: an event that comes during the third window
// ends the windows there.
func TestRunWindowsEventComes(t *testing.T) {
	es := lowerExport([]parser.Source{{Name: "m.wf", Src: milestoneSource("Within = TimeSpan.FromMinutes(5); Retries = 4; Backoff = Backoff.Exponential(TimeSpan.FromMinutes(1));")}})
	if len(es) != 1 || kindOf(es[0]) != exact {
		t.Fatalf("want one exact milestone, got %+v", es)
	}
	env := newEnv()
	var window int64
	wf := func(ctx workflow.Context) error {
		var err error
		window, err = RunWindows(ctx, es[0], AwaitSignal("done"))
		return err
	}
	// Windows open at 0, 6m, 13m (5m windows, 1m then 2m waits).
	env.RegisterDelayedCallback(func() { env.SignalWorkflow("done", nil) }, 15*time.Minute)
	env.RegisterWorkflow(wf)
	env.ExecuteWorkflow(wf)
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	if window != 3 {
		t.Fatalf("the event came in window %d, want 3", window)
	}
}

// TestRunWindowsRefusesSteps: a step has a RetryPolicy, not windows.
func TestRunWindowsRefusesSteps(t *testing.T) {
	es := lowerExport([]parser.Source{{Name: "s.wf", Src: stepSource("Backoff.Fixed(TimeSpan.FromSeconds(1)).MaxAttempts(2)")}})
	env := newEnv()
	wf := func(ctx workflow.Context) error {
		_, err := RunWindows(ctx, es[0], AwaitSignal("x"))
		return err
	}
	env.RegisterWorkflow(wf)
	env.ExecuteWorkflow(wf)
	if err := env.GetWorkflowError(); err == nil || !strings.Contains(err.Error(), "has no windows") {
		t.Fatalf("want a refusal, got %v", err)
	}
}

func stepSource(policy string) string {
	return `workflow W { Initial = A; event Go();
  state A { subscribe Go(); on Go { Workflow.Once("s", retry: ` + policy + `) { X.Y(); } goto Done; } }
  terminal Done { } }`
}

func milestoneSource(settings string) string {
	return `workflow W { Initial = A; event Go();
  state A { subscribe Go() { Finished { ` + settings + ` Unfinished { goto Done; } } } }
  terminal Done { } }`
}

// TestWarnedPoliciesDiffer: what the export warns about is real. A zero
// wait exported as 1ns runs 1ns apart (not Temporal's 1s default), and an
// interval float64 cannot hold runs as RetryPolicy.EngineWait predicts,
// not as the table says (WF405).
func TestWarnedPoliciesDiffer(t *testing.T) {
	for _, tt := range []struct {
		policy string
		code   diag.ID
	}{
		{"Backoff.Fixed(TimeSpan.Zero).MaxAttempts(3)", "WF403"},
		{"Backoff.Exponential(TimeSpan.FromMilliseconds(43200000000.0001)).MaxAttempts(4)", "WF405"},
	} {
		t.Run(tt.policy, func(t *testing.T) {
			es := lowerExport([]parser.Source{{Name: "w.wf", Src: stepSource(tt.policy)}})
			e := es[0]
			if len(e.Unsupported) != 1 || e.Unsupported[0] != tt.code {
				t.Fatalf("want %s, got %v", tt.code, e.Unsupported)
			}
			r := runStep(t, e, false, e.Attempts)
			var at time.Duration
			for a := int64(2); a <= e.Attempts; a++ {
				at += e.RetryPolicy.EngineWait(a)
				if got := r.starts[a-1]; got != at {
					t.Errorf("attempt %d started at %v, EngineWait predicts %v", a, got, at)
				}
			}
			if tableEnd, _ := export.Duration(e.Schedule.GivesUp); at == tableEnd {
				t.Errorf("the engine matched the table after all: the warning is wrong")
			}
		})
	}
}
