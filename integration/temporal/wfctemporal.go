// Package wfctemporal runs wfc's exported policies on Temporal: the SDK
// RetryPolicy of a durable step, the NextRetryDelay workaround for Linear
// policies (WF401), and the windows of a milestone, which Temporal has no
// policy for and workflow code must run.
//
// It also runs whole programs: RunWorkflow is a workflow that drives the
// reference interpreter's Machine (interp) with Temporal's clock,
// timers, signals and activities (run.go), so that a run on Temporal
// writes the same transcript as `wfc test`. The loop that drives it is the
// Machine's own (interp.Machine.Drive), the one the virtual clock uses:
// this package supplies only the engine, an interp.Clock (workflow time, a
// timer for the next deadline, the signals queued as they arrive) and an
// interp.Executor (a call is an activity, a durable step an activity under
// its exported RetryPolicy).
//
// It reads the model as the interpreter does: the run holds the checker's
// objects. The names a run meets from outside, in its input and its
// signals (the workflow to run, a taken slot, an event's arguments in
// source form), are looked up once, as they arrive, by the model's own
// lookups (check.Program.WorkflowNamed, check.Workflow.SlotNamed,
// interp.EventArgs); an activity is named by its call's dotted name and a
// step's activity ID is its name, which is what Temporal shows.
//
// It lives in its own module so that users of the compiler never download
// Temporal's SDK. Its tests are the proof that Temporal's engine, in the
// SDK's time-skipping test environment, starts every attempt exactly when
// `wfc schedule` says. See docs/temporal.md.
package wfctemporal

import (
	"errors"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	export "github.com/wfc-lang/wfc/codegen/temporal"
)

// RetryPolicy is the SDK form of a step's exported policy; nil for a
// milestone, which has none.
func RetryPolicy(e *export.Entry) *temporal.RetryPolicy {
	p := e.RetryPolicy
	if p == nil {
		return nil
	}
	return &temporal.RetryPolicy{
		InitialInterval:        p.InitialInterval,
		BackoffCoefficient:     p.BackoffCoefficient,
		MaximumInterval:        p.MaximumInterval,
		MaximumAttempts:        p.MaximumAttempts,
		NonRetryableErrorTypes: p.NonRetryableErrorTypes,
	}
}

// NextRetryDelay wraps an activity's failure of attempt a (from
// activity.GetInfo(ctx).Attempt) so that Temporal waits what the policy
// says before the next attempt: the workaround for a Linear policy, which
// RetryPolicy cannot express (WF401). Use it where the entry's
// NextRetryDelay is set; it is right for any shape. A nil err stays nil,
// and a non-retryable error is returned unchanged.
func NextRetryDelay(err error, w export.Waits, a int32) error {
	if err == nil {
		return nil
	}
	var appErr *temporal.ApplicationError
	if errors.As(err, &appErr) && appErr.NonRetryable() {
		return err
	}
	return temporal.NewApplicationErrorWithOptions(err.Error(), "wfc.Retry", temporal.ApplicationErrorOptions{
		NextRetryDelay: w.NextRetryDelay(a),
		Cause:          err,
	})
}

// Await waits at most timeout for a milestone's event and reports whether
// it came.
type Await func(ctx workflow.Context, timeout time.Duration) (bool, error)

// AwaitSignal is an Await for a signal of that name: it takes one signal
// from the channel, or gives up when the timer fires.
func AwaitSignal(name string) Await {
	return func(ctx workflow.Context, timeout time.Duration) (bool, error) {
		tctx, cancel := workflow.WithCancel(ctx)
		defer cancel()
		timer := workflow.NewTimer(tctx, timeout)
		got := false
		var err error
		sel := workflow.NewSelector(ctx)
		sel.AddReceive(workflow.GetSignalChannel(ctx, name), func(c workflow.ReceiveChannel, _ bool) {
			c.Receive(ctx, nil)
			got = true
		})
		sel.AddFuture(timer, func(f workflow.Future) { err = f.Get(ctx, nil) })
		sel.Select(ctx)
		return got, err
	}
}

// RunWindows runs a milestone's windows exactly as its schedule table
// says: window 1 opens at once; when window k passes without the event,
// the policy's wait before attempt k+1 follows, then window k+1 opens. It
// returns the window in which the event came, or 0 when every window
// passed (the milestone's give-up time; its Unfinished handler runs next).
func RunWindows(ctx workflow.Context, e *export.Entry, await Await) (int64, error) {
	if e.Step {
		return 0, errors.New("wfctemporal.RunWindows: a durable step has no windows; use RetryPolicy")
	}
	within, ok := export.Duration(e.Window)
	if !ok {
		return 0, errors.New("wfctemporal.RunWindows: the window is longer than time.Duration holds (WF404)")
	}
	for k := int64(1); k <= e.Attempts; k++ {
		if k > 1 {
			wait, ok := export.Duration(e.Waits.Before(k))
			if !ok {
				return 0, errors.New("wfctemporal.RunWindows: a wait is longer than time.Duration holds (WF404)")
			}
			if err := workflow.Sleep(ctx, wait); err != nil {
				return 0, err
			}
		}
		came, err := await(ctx, within)
		if err != nil {
			return 0, err
		}
		if came {
			return k, nil
		}
	}
	return 0, nil
}
