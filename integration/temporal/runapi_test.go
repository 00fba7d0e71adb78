package wfctemporal

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/temporal"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/interp"
)

// TestTicks: engine time converts to ticks rounding up, and back rounding
// up, at Speedup 1 and faster, saturating instead of overflowing.
func TestTicks(t *testing.T) {
	for _, tt := range []struct {
		d       time.Duration
		speedup int64
		want    interp.Ticks
	}{
		{0, 1, 0}, {-5, 1, 0}, {1, 1, 1}, {100, 1, 1}, {101, 1, 2}, {time.Minute - 1, 1, 600_000_000},
		{time.Second, 60, 600_000_000}, {time.Second - 1, 60, 600_000_000}, {1 << 62, 1 << 20, check.MaxTicks},
	} {
		if got := elapsedTicks(tt.d, tt.speedup); got != tt.want {
			t.Errorf("elapsedTicks(%v, %d) = %d, want %d", tt.d, tt.speedup, got, tt.want)
		}
	}
	for _, tt := range []struct {
		t       interp.Ticks
		speedup int64
		want    time.Duration
		ok      bool
	}{
		{600_000_000, 1, time.Minute, true}, {600_000_000, 60, time.Second, true}, {1, 3, 34, true},
		{check.MaxTicks, 1, 0, false},
	} {
		got, ok := tickDuration(tt.t, tt.speedup)
		if ok != tt.ok || (ok && got != tt.want) {
			t.Errorf("tickDuration(%d, %d) = %v, %v; want %v, %v", tt.t, tt.speedup, got, ok, tt.want, tt.ok)
		}
	}
}

// TestHash: the hash covers names and texts, and their boundaries.
func TestHash(t *testing.T) {
	a := Hash([]Source{{Name: "a.wf", Text: "x"}})
	for _, other := range [][]Source{
		{{Name: "a.wf", Text: "y"}}, {{Name: "b.wf", Text: "x"}}, {{Name: "a.w", Text: "fx"}},
		{{Name: "a.wf", Text: "x"}, {Name: "", Text: ""}},
	} {
		if Hash(other) == a {
			t.Errorf("%v hashes like a.wf/x", other)
		}
	}
	if Hash([]Source{{Name: "a.wf", Text: "x"}}) != a {
		t.Error("the hash is not a function of the sources")
	}
}

// TestProgramErrors: a program with errors is never run: NewProgram says
// why, and a workflow given one (or a wrong hash, or no such workflow)
// fails at once with a non-retryable wfc.Program error.
func TestProgramErrors(t *testing.T) {
	bad := []Source{{Name: "bad.wf", Text: "workflow W { Initial = Nowhere; }"}}
	if _, err := NewProgram(bad); err == nil || !strings.Contains(err.Error(), "bad.wf") {
		t.Fatalf("want the program's errors, got %v", err)
	}
	good, _ := loadProgram(t, "examples/jobflow")
	for name, in := range map[string]Input{
		"errors":      {Program: Program{Sources: bad, Hash: Hash(bad)}, Workflow: "W"},
		"hash":        {Program: Program{Sources: good.Sources, Hash: "0"}, Workflow: "JobFlow"},
		"no workflow": {Program: *good, Workflow: "Nope"},
	} {
		t.Run(name, func(t *testing.T) {
			env := newEnv()
			env.RegisterWorkflowWithOptions(RunWorkflow, workflowOptions("Run"))
			env.ExecuteWorkflow("Run", in)
			var appErr *temporal.ApplicationError
			if err := env.GetWorkflowError(); !errors.As(err, &appErr) || appErr.Type() != ProgramType || !appErr.NonRetryable() {
				t.Fatalf("want a non-retryable %s error, got %v", ProgramType, err)
			}
		})
	}
}

// TestAttemptTimeout: an attempt that outlives Input.AttemptTimeout fails.
// An attempt that runs past the engine's attempt timeout fails (one
// activity per attempt, no retries of Temporal's own): the step's
// attempts are used up, and the run ends in error saying why.
func TestAttemptTimeout(t *testing.T) {
	src := `workflow W { Autostart = true; Initial = A; event Go();
  state A { subscribe Go(); on Go { Workflow.Once("slow", retry: Backoff.Fixed(TimeSpan.FromSeconds(1)).MaxAttempts(2)) { Pay.Charge(); } goto Done; } }
  terminal Done { } }`
	p, _ := mustProgram(t, []Source{{Name: "slow.wf", Text: src}})
	env := newEnv()
	Register(env, p, Activities{Clock: env.Now, Calls: map[string]Call{"Pay.Charge": func(ctx context.Context, _ []string) error {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(2 * time.Second):
			return nil
		}
	}}})
	env.RegisterDelayedCallback(func() { env.SignalWorkflow("Go", []string{}) }, time.Minute)
	env.ExecuteWorkflow("W", Input{Program: *p, Workflow: "W", AttemptTimeout: 100 * time.Millisecond})
	var appErr *temporal.ApplicationError
	if err := env.GetWorkflowError(); !errors.As(err, &appErr) || appErr.Type() != ErrorType ||
		!strings.Contains(appErr.Message(), `step "slow" gave up after 2 attempts (Exhausted)`) {
		t.Fatalf("want the step to give up, got %v", err)
	}
}
