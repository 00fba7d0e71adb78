package wfctemporal

import (
	"go.temporal.io/sdk/interceptor"
	"go.temporal.io/sdk/workflow"

	"github.com/wfc-lang/wfc/interp"
)

// Why an interceptor: the order in which a run's signals and its timer
// happened is the order of its history, and the Go SDK loses it. A
// workflow task brings every event recorded since the last one (while the
// worker is down, a batch of signals and a fired timer), the SDK applies
// them all (each signal into its channel, the fired timer's future made
// ready) and only then runs the workflow's code, which sees every channel
// and the timer ready at once, in no order. A Ship sent inside a window
// while the worker was down, with the window's timer fired after it, was
// then handled after the timer: the run ended Late.
//
// The one piece of workflow code the SDK runs as it applies each event is
// the inbound interceptor's HandleSignal. Interceptor's HandleSignal writes
// down every signal's name as it is applied, in history order, with
// whether the run's timer had fired before it (its future is ready at that
// moment only when TimerFired came earlier); the driver then takes the
// signals in that order, each from its own channel (the SDK keeps each
// channel's order), and fires the timer exactly where the history has it.
// Replay applies the same events in the same order, so the log is the same.

// Interceptor is the worker interceptor the interpreter workflow needs:
// it records the order of a run's signals as the history has it (see
// NewWorker, which adds it). A worker, test environment or replayer that
// runs the interpreter workflow must have it in its options'
// Interceptors; without it the workflow fails its workflow task, saying
// so, and Temporal retries the task (on a worker that has it).
func Interceptor() interceptor.WorkerInterceptor { return &orderInterceptor{} }

type orderInterceptor struct {
	interceptor.WorkerInterceptorBase
}

func (*orderInterceptor) InterceptWorkflow(ctx workflow.Context, next interceptor.WorkflowInboundInterceptor) interceptor.WorkflowInboundInterceptor {
	return &orderInbound{WorkflowInboundInterceptorBase: interceptor.WorkflowInboundInterceptorBase{Next: next}, log: &signalLog{}}
}

// orderInbound is one workflow execution's interceptor: it lives as long
// as the execution does in the worker's cache, and is made anew for a
// replay.
type orderInbound struct {
	interceptor.WorkflowInboundInterceptorBase
	log *signalLog
}

type logKey struct{}

func (i *orderInbound) ExecuteWorkflow(ctx workflow.Context, in *interceptor.ExecuteWorkflowInput) (interface{}, error) {
	i.log.started = true
	return i.Next.ExecuteWorkflow(workflow.WithValue(ctx, logKey{}, i.log), in)
}

func (i *orderInbound) HandleSignal(ctx workflow.Context, in *interceptor.HandleSignalInput) error {
	if err := i.Next.HandleSignal(ctx, in); err != nil {
		return err // not in the channel: not in the log either
	}
	i.log.add(in.SignalName)
	return nil
}

// signalLog is the run's signals in history order, those not yet taken.
type signalLog struct {
	// started: the workflow function has begun; attached: it is the
	// interpreter workflow, which reads the log. Another workflow on the
	// same worker never attaches, and its signals are not kept once it
	// has started.
	started, attached bool
	entries           []signalEntry
	// watch says which timer the run has now (a number that changes with
	// each new timer) and whether it has fired; set by the driver.
	watch func() (timer int, fired bool)
}

// signalEntry is a signal as the history placed it.
type signalEntry struct {
	name string
	// timer is the run's timer when the signal was applied, and fired
	// whether that timer had fired before it.
	timer int
	fired bool
	// at is when the workflow's code first saw it (stamped): the time of
	// the workflow task that brought it.
	at      interp.Ticks
	stamped bool
}

func (l *signalLog) add(name string) {
	if l.started && !l.attached {
		return
	}
	e := signalEntry{name: name}
	if l.watch != nil {
		e.timer, e.fired = l.watch()
	}
	l.entries = append(l.entries, e)
}

// attach returns the run's log, or nil when the worker has no Interceptor.
func attach(ctx workflow.Context) *signalLog {
	l, _ := ctx.Value(logKey{}).(*signalLog)
	if l != nil {
		l.attached = true
	}
	return l
}
