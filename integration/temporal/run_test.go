package wfctemporal

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"math"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/interceptor"
	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/wfc-lang/wfc"
	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/codegen"
	export "github.com/wfc-lang/wfc/codegen/temporal"
	"github.com/wfc-lang/wfc/parser"
)

// maxRun bounds the attempts a test runs: all of a budget up to it, the
// first maxRun of a larger one (.MaxAttempts(2147483647) would never end).
const maxRun = 200

// run is what the engine did: the start of each attempt (or window) and,
// when the whole budget ran, when it gave up; times from the first start.
type run struct {
	starts  []time.Duration
	givesUp time.Duration
	gaveUp  bool // the whole budget ran out
}

var quiet = log.NewStructuredLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))

// deadlockTimeout is the wall time a workflow task may take before the
// SDK's deadlock detector fails it (default one second).
const deadlockTimeout = 10 * time.Minute

// newEnv is a time-skipping test environment in which a workflow may run
// as long as time.Duration allows: the default run timeout (10 years) would
// cut long schedules short, and the activity's ScheduleToClose with them.
func newEnv() *testsuite.TestWorkflowEnvironment {
	var s testsuite.WorkflowTestSuite
	s.SetLogger(quiet)
	env := s.NewTestWorkflowEnvironment()
	env.SetWorkflowRunTimeout(math.MaxInt64)
	// The deadlock detector (TMPRL1101) fails a workflow task that holds
	// its goroutine for a second of wall time, which a loaded CI machine
	// can do to any task; these workflows never block, so give it room.
	env.SetWorkerOptions(worker.Options{DeadlockDetectionTimeout: deadlockTimeout, Interceptors: []interceptor.WorkerInterceptor{Interceptor()}})
	return env
}

// runStep runs an activity that always fails under the step's exported
// policy, recording env.Now() at each attempt. linear returns the failures
// through NextRetryDelay, the WF401 workaround.
func runStep(t *testing.T, e *export.Entry, linear bool, n int64) run {
	t.Helper()
	env := newEnv()
	var r run
	var t0 time.Time
	act := func(ctx context.Context) error {
		a := activity.GetInfo(ctx).Attempt
		now := env.Now()
		if a == 1 {
			t0 = now
		}
		r.starts = append(r.starts, now.Sub(t0))
		if int64(a) == n && e.Attempts > n {
			return temporal.NewNonRetryableApplicationError("enough", "wfc.Enough", nil)
		}
		err := errors.New("always fails")
		if linear {
			return NextRetryDelay(err, e.Waits, a)
		}
		return err
	}
	wf := func(ctx workflow.Context) error {
		ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
			StartToCloseTimeout: time.Minute,
			RetryPolicy:         RetryPolicy(e),
		})
		err := workflow.ExecuteActivity(ctx, act).Get(ctx, nil)
		var appErr *temporal.ApplicationError
		if !(errors.As(err, &appErr) && appErr.Type() == "wfc.Enough") {
			r.givesUp, r.gaveUp = workflow.Now(ctx).Sub(t0), true
		}
		return nil
	}
	env.RegisterWorkflow(wf)
	env.RegisterActivity(act)
	env.ExecuteWorkflow(wf)
	if err := env.GetWorkflowError(); err != nil {
		t.Fatalf("workflow: %v", err)
	}
	return r
}

// runMilestone runs a milestone's windows with RunWindows, for an event
// that never comes, recording the workflow's time as each window opens.
func runMilestone(t *testing.T, e *export.Entry, n int64) run {
	t.Helper()
	env := newEnv()
	var r run
	never := AwaitSignal("never")
	wf := func(ctx workflow.Context) error {
		t0 := workflow.Now(ctx)
		await := func(ctx workflow.Context, timeout time.Duration) (bool, error) {
			r.starts = append(r.starts, workflow.Now(ctx).Sub(t0))
			if int64(len(r.starts)) == n && e.Attempts > n {
				return true, nil // enough: say it came
			}
			return never(ctx, timeout)
		}
		k, err := RunWindows(ctx, e, await)
		if err != nil {
			return err
		}
		if k == 0 {
			r.givesUp, r.gaveUp = workflow.Now(ctx).Sub(t0), true
		}
		return nil
	}
	env.RegisterWorkflow(wf)
	env.ExecuteWorkflow(wf)
	if err := env.GetWorkflowError(); err != nil {
		t.Fatalf("workflow: %v", err)
	}
	return r
}

// tableStarts expands the table's rows into the start of each of the first
// n attempts, in ticks (no jitter: every wait in a row is the same).
func tableStarts(s *codegen.Schedule, n int64) []check.Ticks {
	var out []check.Ticks
	for _, row := range s.Rows {
		for k := row.From; k <= row.To && int64(len(out)) < n; k++ {
			out = append(out, row.Starts+(k-row.From)*(s.Duration+row.Wait))
		}
	}
	return out
}

// ticks converts an engine time to ticks; ok is false if it is not whole.
func ticks(d time.Duration) (check.Ticks, bool) {
	return check.Ticks(d / 100), d%100 == 0
}

// compare asserts the engine's run equals the table, attempt by attempt in
// ticks, for the first n attempts, and the give-up time when the whole
// budget ran and it fits in time.Duration.
func compare(t *testing.T, s *codegen.Schedule, r run, n int64) {
	t.Helper()
	want := tableStarts(s, n)
	if int64(len(r.starts)) != n {
		t.Fatalf("the engine ran %d attempts, want %d", len(r.starts), n)
	}
	for k, d := range r.starts {
		got, whole := ticks(d)
		if !whole || got != want[k] {
			t.Fatalf("attempt %d started at %v (%d ticks), the table says %s (%d ticks)",
				k+1, d, got, check.FormatTicks(want[k]), want[k])
		}
	}
	if n < s.Attempts || s.GivesUp > export.MaxDurationTicks {
		return
	}
	if !r.gaveUp {
		t.Fatalf("the engine did not give up after %d attempts", s.Attempts)
	}
	if got, whole := ticks(r.givesUp); !whole || got != s.GivesUp {
		t.Fatalf("gave up at %v, the table says %s", r.givesUp, check.FormatTicks(s.GivesUp))
	}
}

// lowerExport runs the library pipeline on sources (whatever their
// errors, every valid consumer is lowered) and exports the schedules.
func lowerExport(srcs []parser.Source) []*export.Entry {
	r := wfc.Run(context.Background(), srcs, wfc.Options{Workers: 1})
	es, _ := export.Export(r.Schedules)
	return es
}

// kind says how an entry can run on Temporal: exactly by its policy or
// windows, with the Linear workaround, or not exactly (it is skipped). It
// is decided by the oracle (oracle_test.go) from the policy, not by the
// export's warnings, which checkCodes compares with it.
type kind int

const (
	skip kind = iota
	exact
	linear
)

func kindOf(e *export.Entry) kind {
	if beyondOracle(e.Schedule.Consumer) != "" {
		return skip
	}
	switch codes := policyOf(e.Schedule).wantCodes(); {
	case len(codes) == 0:
		return exact
	case len(codes) == 1 && codes[0] == export.CodeLinear:
		return linear
	}
	return skip
}

// prove runs one entry on the engine and compares it with the oracle, the
// attempt count taken from the policy, and with its table.
func prove(t *testing.T, e *export.Entry) {
	t.Helper()
	p := policyOf(e.Schedule)
	n := oracleRun(p)
	var r run
	if e.Step {
		r = runStep(t, e, kindOf(e) == linear, n)
	} else {
		r = runMilestone(t, e, n)
	}
	compareOracle(t, p, r, n)
	compare(t, e.Schedule, r, n)
}
