package wfctemporal

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"

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
// why, and Register refuses it, or a program whose hash is not its
// sources'.
func TestProgramErrors(t *testing.T) {
	bad := []Source{{Name: "bad.wf", Text: "workflow W { Initial = Nowhere; }"}}
	if _, err := NewProgram(bad); err == nil || !strings.Contains(err.Error(), "bad.wf") {
		t.Fatalf("want the program's errors, got %v", err)
	}
	good, _ := loadProgram(t, "examples/jobflow")
	for name, p := range map[string]*Program{
		"errors": {Sources: bad, Hash: Hash(bad), Workflows: []string{"W"}},
		"hash":   {Sources: good.Sources, Hash: "0", Workflows: good.Workflows},
	} {
		if err := Register(newEnv(), Activities{}, p); err == nil {
			t.Errorf("%s: Register accepted the program", name)
		}
	}
}

// TestAllowlist: a worker runs only the programs it was started with. A
// run whose input names another program (one that would make calls the
// worker's activities then run), or the right program with another
// workflow, fails at once with a non-retryable wfc.Program error, and
// runs nothing: no activity, no transcript.
func TestAllowlist(t *testing.T) {
	allowed, _ := mustProgram(t, []Source{{Name: "a.wf", Text: `workflow W { Autostart = true; Initial = A; event Go();
  state A { subscribe Go(); on Go { Workflow.Once("pay") { Pay.Charge(); } goto Done; } }
  terminal Done { } }`}})
	other, _ := mustProgram(t, []Source{{Name: "b.wf", Text: `workflow W { Autostart = true; Initial = A; event Go();
  state A { subscribe Go(); on Go { Workflow.Once("pay") { Pay.Charge(); Pay.Refund(); } goto Done; } }
  terminal Done { } }`}})
	for name, in := range map[string]Input{
		"another program":  {Program: other.Hash, Workflow: "W"},
		"no program":       {Workflow: "W"},
		"another workflow": {Program: allowed.Hash, Workflow: "V"},
	} {
		t.Run(name, func(t *testing.T) {
			env := newEnv()
			calls := 0
			count := func(context.Context, []string) error { calls++; return nil }
			if err := Register(env, Activities{Calls: map[string]Call{"Pay.Charge": count, "Pay.Refund": count}}, allowed); err != nil {
				t.Fatal(err)
			}
			env.RegisterDelayedCallback(func() { env.SignalWorkflow("Go", []string{}) }, time.Minute)
			env.ExecuteWorkflow("W", in)
			var appErr *temporal.ApplicationError
			err := env.GetWorkflowError()
			if !errors.As(err, &appErr) || appErr.Type() != ProgramType || !appErr.NonRetryable() || appErr.HasDetails() {
				t.Fatalf("want a non-retryable %s error with no transcript, got %v", ProgramType, err)
			}
			if calls != 0 {
				t.Errorf("%d calls ran", calls)
			}
			want := "this worker does not run program"
			if name == "another workflow" {
				want = `the input names workflow "V"`
			}
			if !strings.Contains(appErr.Message(), want) {
				t.Errorf("the error says %q, want %q", appErr.Message(), want)
			}
		})
	}
	// The program it was started with runs.
	env := newEnv()
	calls := 0
	if err := Register(env, Activities{Calls: map[string]Call{"Pay.Charge": func(context.Context, []string) error { calls++; return nil }}}, allowed, other); err != nil {
		t.Fatal(err)
	}
	env.RegisterDelayedCallback(func() { env.SignalWorkflow("Go", []string{}) }, time.Minute)
	env.ExecuteWorkflow("W", Input{Program: allowed.Hash})
	if err := env.GetWorkflowError(); err != nil || calls != 1 {
		t.Fatalf("the allowed program: %v, %d calls", err, calls)
	}
}

// TestNoInterceptor: a worker without Interceptor fails the workflow
// task, saying what to add, and runs nothing.
func TestNoInterceptor(t *testing.T) {
	p, _ := loadProgram(t, "examples/jobflow")
	env := newEnv()
	env.SetWorkerOptions(worker.Options{DeadlockDetectionTimeout: deadlockTimeout})
	if err := Register(env, Activities{}, p); err != nil {
		t.Fatal(err)
	}
	env.ExecuteWorkflow("JobFlow", Input{Program: p.Hash})
	if err := env.GetWorkflowError(); err == nil || !strings.Contains(err.Error(), "wfctemporal.Interceptor()") {
		t.Fatalf("want the workflow task failed for want of the interceptor, got %v", err)
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
	err := Register(env, Activities{Clock: env.Now, Calls: map[string]Call{"Pay.Charge": func(ctx context.Context, _ []string) error {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(2 * time.Second):
			return nil
		}
	}}}, p)
	if err != nil {
		t.Fatal(err)
	}
	env.RegisterDelayedCallback(func() { env.SignalWorkflow("Go", []string{}) }, time.Minute)
	env.ExecuteWorkflow("W", Input{Program: p.Hash, Workflow: "W", AttemptTimeout: 100 * time.Millisecond})
	var appErr *temporal.ApplicationError
	if err := env.GetWorkflowError(); !errors.As(err, &appErr) || appErr.Type() != ErrorType ||
		!strings.Contains(appErr.Message(), `step "slow" gave up after 2 attempts (Exhausted)`) {
		t.Fatalf("want the step to give up, got %v", err)
	}
}
