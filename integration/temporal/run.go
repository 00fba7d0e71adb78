package wfctemporal

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/interceptor"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/wfc-lang/wfc"
	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/codegen"
	export "github.com/wfc-lang/wfc/codegen/temporal"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/interp"
	"github.com/wfc-lang/wfc/parser"
)

// The names a run answers to on Temporal, besides its events (a signal
// named like the event, whose argument is the event's arguments as source
// text, []string) and its calls (an activity named by the call's dotted
// name). The "wfc." prefix cannot clash with an event or a call: events
// are identifiers, and calls name an entity before the dot.
const (
	// SignalStart starts a run whose workflow is not Autostart.
	SignalStart = "wfc.Start"
	// SignalTake takes a slot; its argument is the slot's name (string).
	// Slots are taken by signal, not by update, so that takes and events
	// share one order of arrival and one way of being held while a step
	// waits; whether the take was accepted is in the transcript.
	SignalTake = "wfc.Take"
	// SignalFinish tells a run started with Input.Linger that nothing
	// more will be sent: it fires its remaining deadlines and returns.
	SignalFinish = "wfc.Finish"
	// QueryState answers the state the run is in ("" before it starts).
	QueryState = "wfc.State"
	// QueryTranscript answers the transcript so far (*interp.Transcript).
	QueryTranscript = "wfc.Transcript"
	// StepActivity is the activity type of every durable step: one
	// attempt runs the step's calls. Its activity ID is the step's name.
	StepActivity = "wfc.Step"
	// ErrorType is the ApplicationError type of a run that ends in error
	// (a terminal error state, or a step that gave up); its message is the
	// run's Message and its details the transcript.
	ErrorType = "wfc.Error"
	// StoppedType is the ApplicationError type of a run stopped at a
	// limit (docs/language.md, "Running a workflow"), with the transcript.
	StoppedType = "wfc.Stopped"
	// ProgramType is the ApplicationError type of a run whose input names
	// a program the worker was not started with, or a workflow its
	// program does not have: it fails at once and runs nothing.
	ProgramType = "wfc.Program"
	// MaxEntries is the most entries a run's transcript holds on Temporal
	// (the reference interpreter's is interp.MaxEntries): a run that would
	// write more stops ("the transcript reached 10000 entries"). It bounds
	// the work of one workflow task, so that no program and no signals
	// hold a worker's task past its deadlock detector (one second) or its
	// timeout, and keeps the transcript, which the run returns, within
	// what a Temporal payload holds (2 MB by default).
	MaxEntries = 10_000
)

// Source is one file of a program.
type Source struct {
	Name string
	Text string
}

// Program is a checked program: its files, their hash, and its
// workflows. A worker is started with the programs it may run (Register,
// NewWorker): a run's input names its program by hash, and a worker runs
// only a program it was started with, whatever else the input says. To
// change a program while runs are in flight, start the workers with every
// version that still has runs (docs/temporal.md, "A program change and
// runs in flight").
type Program struct {
	Sources []Source
	// Hash is Hash(Sources): the program's identity in a run's input.
	Hash string
	// Workflows are the names of the program's workflows, in source order.
	Workflows []string
	// c is the program checked and lowered, once: every run of it shares
	// it (the model is only read while a run runs).
	c *compiled
}

// Hash is the hex SHA-256 of the sources, names and texts, in order.
func Hash(srcs []Source) string {
	h := sha256.New()
	var n [8]byte
	for _, s := range srcs {
		for _, part := range [...]string{s.Name, s.Text} {
			binary.BigEndian.PutUint64(n[:], uint64(len(part)))
			h.Write(n[:])
			h.Write([]byte(part))
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// NewProgram checks srcs as one program (the library pipeline, the same
// as `wfc check`) and returns it, or an error that lists the program's
// errors: a program with errors is never run.
func NewProgram(srcs []Source) (*Program, error) {
	c, err := compile(srcs)
	if err != nil {
		return nil, err
	}
	p := &Program{Sources: append([]Source(nil), srcs...), Hash: Hash(srcs), c: c}
	for _, wf := range c.res.Program.Workflows {
		p.Workflows = append(p.Workflows, wf.Decl.Name.Name)
	}
	return p, nil
}

// compiled is a checked program with its lowered schedules and their
// export, keyed by consumer.
type compiled struct {
	res    *check.Result
	scheds []*codegen.Schedule
	export map[*check.Consumer]*export.Entry
	// kinds maps an error kind's qualified name ("PaymentError.Declined",
	// the Type of the ApplicationError an activity fails with) to the
	// enum member it names: the one place where a name from outside the
	// program (an activity's error) becomes a model object.
	kinds map[string]*check.EnumMember
}

// compile checks srcs; it is deterministic (a pure function of the text),
// so the workflow runs it on every replay and gets the same program.
func compile(srcs []Source) (*compiled, error) {
	files := make([]parser.Source, len(srcs))
	for i, s := range srcs {
		files[i] = parser.Source{Name: s.Name, Src: s.Text}
	}
	r := wfc.Run(context.Background(), files, wfc.Options{Workers: 1})
	var errs []diag.Diagnostic
	for _, d := range r.Diagnostics {
		if d.Severity == diag.Error {
			errs = append(errs, d)
		}
	}
	if len(errs) > 0 || r.Checked == nil {
		var b strings.Builder
		_ = diag.WriteText(&b, errs, r.Sources, diag.TextOptions{})
		return nil, fmt.Errorf("the program has errors and is not run:\n%s", b.String())
	}
	c := &compiled{res: r.Checked, scheds: codegen.Lower(r.Checked, codegen.Options{}),
		export: map[*check.Consumer]*export.Entry{}, kinds: map[string]*check.EnumMember{}}
	for _, e := range r.Checked.Program.Enums {
		for _, m := range e.Members {
			if _, dup := c.kinds[KindName(m)]; !dup {
				c.kinds[KindName(m)] = m
			}
		}
	}
	es, _ := export.Export(c.scheds)
	for _, e := range es {
		c.export[e.Schedule.Consumer] = e
	}
	return c, nil
}

// Input is a run's input: which program (by hash) and which of its
// workflows to run, and how.
type Input struct {
	// Program is the hash of the program to run (Program.Hash), one the
	// worker was started with.
	Program string
	// Workflow is the workflow to run: the run's workflow type, which
	// names it ("" means the same).
	Workflow string
	// Speedup runs the program's time that many times faster than real
	// time: every window, wait and retry interval is divided by it, and
	// the transcript's times are elapsed time multiplied by it (0 or 1:
	// real time). The end-to-end test runs jobflow's minutes as seconds
	// with Speedup 60.
	Speedup int64 `json:",omitempty"`
	// AttemptTimeout is each activity attempt's StartToCloseTimeout (a
	// step's attempt, or a call); 0 means one minute.
	AttemptTimeout time.Duration `json:",omitempty"`
	// Linger keeps the run after its end until SignalFinish, recording
	// what is sent meanwhile as rejected, and makes a run still waiting
	// return when SignalFinish comes and no deadline is left: what a test
	// needs to compare a whole scenario with the reference interpreter.
	Linger bool `json:",omitempty"`
	// Draws, if set, are the uniform draws in [0, 1) of the run's
	// jittered waits, used as a test's `Draws(…)` gives them to the
	// reference interpreter (interp.Scenario.Draws): the wait before
	// attempt k uses draw k-2, from the first again when they run out. A
	// draw outside [0, 1) fails the run at once (ProgramType). Without
	// them each jittered wait draws its own, at random, recorded in the
	// history (workflow.SideEffect), so that a replay waits the same.
	Draws []float64 `json:",omitempty"`
	// Nominal makes every jittered wait its nominal wait, as `wfc test`
	// waits without `Draws(…)`: what a run compared with such a test
	// needs.
	Nominal bool `json:",omitempty"`
}

// Call is an external call, registered as an activity under the call's
// dotted name; args are its evaluated arguments in source form.
type Call func(ctx context.Context, args []string) error

// Activities are what a worker runs for a program's calls and steps.
type Activities struct {
	// Calls maps a call's dotted name ("Mail.Send") to its function. A
	// step's attempt runs its calls' functions in order and fails with the
	// first error (Failure gives that error an error kind and a server's
	// Retry-After); a call outside a step is one activity attempt whose
	// failure is logged and does not stop the run (a call goes on at once;
	// retries belong to durable steps).
	Calls map[string]Call
	// Attempt, if set, runs at the start of each attempt of a step, before
	// its calls; its error fails the attempt. Tests make attempts fail
	// with it.
	Attempt func(ctx context.Context, step string, attempt int32) error
	// Clock stamps a step's attempts; nil means time.Now. The SDK's
	// time-skipping test environment passes its env.Now.
	Clock func() time.Time
}

// Registry is where Register puts the workflows and activities: a
// worker.Worker, or the SDK's TestWorkflowEnvironment.
type Registry interface {
	WorkflowRegistry
	RegisterActivityWithOptions(a interface{}, options activity.RegisterOptions)
}

// WorkflowRegistry is where RegisterWorkflows puts the workflows: a
// Registry, or a worker.WorkflowReplayer.
type WorkflowRegistry interface {
	RegisterWorkflowWithOptions(w interface{}, options workflow.RegisterOptions)
}

// Register registers on r the interpreter workflow under the name of
// each workflow of programs, each call of acts under its dotted name, and
// the step activity. The worker then runs those programs and no other: a
// run whose input names another program fails at once with a
// non-retryable ProgramType error and runs nothing. Several versions of a
// program may share workflow names (a program changed while runs of it
// are in flight): each run runs the version its input names. r's options
// must hold Interceptor (NewWorker adds it). Register fails on a program
// that does not check or whose Hash is not its sources'.
func Register(r Registry, acts Activities, programs ...*Program) error {
	if err := RegisterWorkflows(r, programs...); err != nil {
		return err
	}
	for name, fn := range acts.Calls {
		r.RegisterActivityWithOptions(func(ctx context.Context, args []string) error { return fn(ctx, args) },
			activity.RegisterOptions{Name: name})
	}
	r.RegisterActivityWithOptions(acts.step, activity.RegisterOptions{Name: StepActivity})
	return nil
}

// RegisterWorkflows registers only the interpreter workflow, under the
// name of each workflow of programs, running those programs only (what a
// replayer needs: NewReplayer).
func RegisterWorkflows(r WorkflowRegistry, programs ...*Program) error {
	versions := map[string]map[string]*compiled{} // workflow name → hash → program
	var names []string
	for _, p := range programs {
		if p == nil {
			continue
		}
		if got := Hash(p.Sources); got != p.Hash {
			return fmt.Errorf("wfctemporal: the program's hash is %s, its sources' %s", p.Hash, got)
		}
		c := p.c
		if c == nil {
			var err error
			if c, err = compile(p.Sources); err != nil {
				return err
			}
		}
		for _, wf := range c.res.Program.Workflows {
			name := wf.Decl.Name.Name
			if versions[name] == nil {
				versions[name] = map[string]*compiled{}
				names = append(names, name)
			}
			versions[name][p.Hash] = c
		}
	}
	for _, name := range names {
		r.RegisterWorkflowWithOptions(interpreterWorkflow(name, versions[name]), workflow.RegisterOptions{Name: name})
	}
	return nil
}

// NewWorker is worker.New with Interceptor added to opts and the programs
// and activities registered (Register).
func NewWorker(c client.Client, queue string, opts worker.Options, acts Activities, programs ...*Program) (worker.Worker, error) {
	opts.Interceptors = append(append([]interceptor.WorkerInterceptor(nil), opts.Interceptors...), Interceptor())
	w := worker.New(c, queue, opts)
	if err := Register(w, acts, programs...); err != nil {
		return nil, err
	}
	return w, nil
}

// NewReplayer is a workflow replayer for runs of programs, with
// Interceptor: it replays their histories as a worker runs them.
func NewReplayer(programs ...*Program) (worker.WorkflowReplayer, error) {
	r, err := worker.NewWorkflowReplayerWithOptions(worker.WorkflowReplayerOptions{
		Interceptors: []interceptor.WorkerInterceptor{Interceptor()},
	})
	if err != nil {
		return nil, err
	}
	if err := RegisterWorkflows(r, programs...); err != nil {
		return nil, err
	}
	return r, nil
}

// MemoProgram is the memo field in which Start records the program's
// hash, so that runs of one version of a program can be told from those
// of another (`temporal workflow describe` shows it).
const MemoProgram = "wfc.Program"

// Start starts a run of p's workflow wf; opts are the client's options
// (ID, TaskQueue, …). The program's hash goes into the run's memo.
func Start(ctx context.Context, c client.Client, opts client.StartWorkflowOptions, p *Program, wf string, speedup int64) (client.WorkflowRun, error) {
	memo := map[string]interface{}{MemoProgram: p.Hash}
	for k, v := range opts.Memo {
		memo[k] = v
	}
	opts.Memo = memo
	return c.ExecuteWorkflow(ctx, opts, wf, Input{Program: p.Hash, Workflow: wf, Speedup: speedup})
}

// StepInput is a step activity's input.
type StepInput struct {
	Step string
	// Attempt is the attempt's number over the whole run (the step's
	// record), which the Attempt hook is told.
	Attempt int64 `json:",omitempty"`
	Calls   []Invocation
	// Start is the run's start, from which attempts are stamped.
	Start   time.Time
	Speedup int64 `json:",omitempty"`
}

// Invocation is a call a step's attempt makes.
type Invocation struct {
	Name string
	Args []string `json:",omitempty"`
}

// StepOutput is what an attempt came to, in its result or, when it
// failed, in its error's details.
type StepOutput struct {
	// Took is how long this attempt ran, in ticks of the program's time
	// (scaled by Speedup), as the activity measured it from its start to
	// its return: the time the attempt waited in the task queue for a
	// worker is the engine's, not the attempt's (docs/temporal.md).
	Took int64 `json:",omitempty"`
}

func (a Activities) step(ctx context.Context, in StepInput) (StepOutput, error) {
	info := activity.GetInfo(ctx)
	var out StepOutput
	now := time.Now
	if a.Clock != nil {
		now = a.Clock
	}
	began := now()
	var err error
	n := info.Attempt
	if in.Attempt > 0 {
		n = int32(min(in.Attempt, math.MaxInt32))
	}
	if a.Attempt != nil {
		err = a.Attempt(ctx, in.Step, n)
	}
	for _, c := range in.Calls {
		if err != nil {
			break
		}
		fn := a.Calls[c.Name]
		if fn == nil {
			err = fmt.Errorf("no function is registered for call %s", c.Name)
			break
		}
		err = fn(ctx, c.Args)
	}
	out.Took = int64(elapsedTicks(now().Sub(began), in.Speedup))
	if err == nil {
		return out, nil
	}
	// The attempt's own error says its kind (its Type) and the server's
	// delay (its NextRetryDelay): they are handed on as they are, and the
	// workflow reads them (driver.Attempt).
	opts := temporal.ApplicationErrorOptions{Details: []interface{}{out}, Cause: err}
	typ := AttemptFailedType
	var appErr *temporal.ApplicationError
	if errors.As(err, &appErr) {
		opts.NonRetryable = appErr.NonRetryable()
		opts.NextRetryDelay = appErr.NextRetryDelay()
		if appErr.Type() != "" {
			typ = appErr.Type()
		}
	}
	return out, temporal.NewApplicationErrorWithOptions(fmt.Sprintf("step %q attempt %d: %v", in.Step, n, err), typ, opts)
}

// AttemptFailedType is the ApplicationError type of a step's attempt that
// failed with an error of no kind.
const AttemptFailedType = "wfc.AttemptFailed"

// KindName is the name an error kind goes by on Temporal: its enum's name
// and its own, as in "PaymentError.Declined" (the Type of the
// ApplicationError an attempt fails with, see Failure).
func KindName(m *check.EnumMember) string {
	return m.Enum.Decl.Name.Name + "." + m.Ident.Name
}

// Failure is the error a step's call (or Activities.Attempt) returns to
// fail the attempt with an error kind and, when retryAfter is positive,
// the server's own delay before the next attempt (a Retry-After), in real
// time: the workflow runs the step's policy on them as the reference
// interpreter does (docs/language.md, "Error kinds"). kind is the kind's
// qualified name ("PaymentError.Declined"), or "" for a failure of no
// kind; a name that is no member of an enum of the program is a failure
// of no kind. It is a temporal.ApplicationError whose Type is the kind and
// whose NextRetryDelay is the delay, so a worker may build that error
// itself. Temporal has no "retry after zero": a delay of 0 is no delay.
func Failure(kind string, retryAfter time.Duration, cause error) error {
	msg := "attempt failed"
	if kind != "" {
		msg = "attempt failed: " + kind
	}
	if cause != nil {
		msg += ": " + cause.Error()
	}
	return temporal.NewApplicationErrorWithOptions(msg, kind, temporal.ApplicationErrorOptions{
		Cause: cause, NextRetryDelay: max(retryAfter, 0)})
}

// elapsedTicks converts elapsed engine time to the program's ticks,
// rounding up: a signal sent a nanosecond before a tick is stamped with
// that tick (the proof sends signals so, to order them before a timer of
// the same tick, see docs/temporal.md).
func elapsedTicks(d time.Duration, speedup int64) interp.Ticks {
	if d <= 0 {
		return 0
	}
	if speedup <= 1 {
		return interp.Ticks((d + 99) / 100)
	}
	if int64(d) > math.MaxInt64/speedup {
		return check.MaxTicks
	}
	return interp.Ticks((int64(d)*speedup + 99) / 100)
}

// tickDuration is the engine time of t ticks, rounded up; ok is false
// past time.Duration's range (WF404).
func tickDuration(t interp.Ticks, speedup int64) (time.Duration, bool) {
	d, ok := export.Duration(t)
	if !ok {
		return d, false
	}
	return scaleDown(d, speedup), true
}

func scaleDown(d time.Duration, speedup int64) time.Duration {
	if speedup <= 1 || d <= 0 {
		return d
	}
	return time.Duration((int64(d) + speedup - 1) / speedup)
}

// driver is the engine a Machine runs on inside a workflow: its Clock
// (workflow time, a timer, and the signals in the order the history has
// them) and its Executor (activities). The drive loop is the Machine's own
// (interp.Machine.Drive), the same as on the virtual clock.
type driver struct {
	ctx   workflow.Context
	in    Input
	wf    *check.Workflow
	prog  *compiled
	start time.Time // the run's time 0: workflow.Now in its first task
	// log holds the signals not yet handled, in history order
	// (Interceptor); stamped counts those already stamped.
	log *signalLog
	// pending holds, per signal name, values taken from its channel
	// ahead of their entries (takeSignal).
	pending map[string][]signalValue
	m       *interp.Machine
	// finish: SignalFinish came (Input.Linger).
	finish bool
	// timer is the one timer the run keeps, for the deadline due, and
	// timerID its number (the log's entries refer to it); cancel cancels
	// it when the deadline changes.
	timer   workflow.Future
	timerID int
	due     interp.Ticks
	cancel  workflow.CancelFunc
}

// errNoInterceptor fails a workflow task on a worker without Interceptor.
const errNoInterceptor = "wfctemporal: the worker has no wfctemporal.Interceptor() in its options' Interceptors, " +
	"without which a run cannot tell the order of its signals and timers; start it with wfctemporal.NewWorker " +
	"(a replayer: wfctemporal.NewReplayer; the SDK's test environment: SetWorkerOptions)"

// interpreterWorkflow is the interpreter workflow registered under the
// name wf, running the versions of the program (by hash) a worker was
// started with.
func interpreterWorkflow(wf string, versions map[string]*compiled) func(workflow.Context, Input) (*interp.Transcript, error) {
	return func(ctx workflow.Context, in Input) (*interp.Transcript, error) {
		log := attach(ctx)
		if log == nil {
			panic(errNoInterceptor)
		}
		prog := versions[in.Program]
		if prog == nil {
			if workflow.IsReplaying(ctx) {
				// A run in flight whose program this worker lacks: fail the
				// workflow task, which Temporal retries (on a worker that has
				// it), rather than the run.
				panic(fmt.Sprintf("wfctemporal: a run of program %s is in flight, and this worker was not started with it: "+
					"start the workers with every version of the program that still has runs", in.Program))
			}
			return nil, temporal.NewNonRetryableApplicationError(
				fmt.Sprintf("this worker does not run program %q: it was started with %s", in.Program, hashes(versions)), ProgramType, nil)
		}
		if in.Workflow != "" && in.Workflow != wf {
			return nil, temporal.NewNonRetryableApplicationError(
				fmt.Sprintf("the input names workflow %q, the run is of workflow %q", in.Workflow, wf), ProgramType, nil)
		}
		for _, u := range in.Draws {
			if !(u >= 0 && u < 1) {
				return nil, temporal.NewNonRetryableApplicationError(
					fmt.Sprintf("the input's draws must each be in [0, 1), not %v", u), ProgramType, nil)
			}
		}
		return runProgram(ctx, log, prog, prog.res.Program.WorkflowNamed(wf), in)
	}
}

func hashes(versions map[string]*compiled) string {
	var hs []string
	for h := range versions {
		hs = append(hs, strconv.Quote(h))
	}
	sort.Strings(hs)
	return strings.Join(hs, ", ")
}

// runProgram runs workflow wf of prog as docs/language.md's "Running a workflow"
// says and returns the transcript. A run that ends in error fails the
// workflow with an ApplicationError of type ErrorType and the run's
// Message; one stopped at a limit, of type StoppedType.
func runProgram(ctx workflow.Context, log *signalLog, prog *compiled, wf *check.Workflow, in Input) (*interp.Transcript, error) {
	d := &driver{ctx: ctx, in: in, wf: wf, prog: prog, start: workflow.Now(ctx), log: log, pending: map[string][]signalValue{}}
	log.watch = func() (int, bool) { return d.timerID, d.timer != nil && d.timer.IsReady() }
	d.m = interp.NewMachine(prog.res, wf, prog.scheds, d, d)
	d.m.MaxEntries = MaxEntries
	d.m.Draws = in.Draws
	if len(in.Draws) == 0 && !in.Nominal {
		d.m.Draw = func() float64 {
			var u float64
			if err := workflow.SideEffect(ctx, func(workflow.Context) interface{} { return rand.Float64() }).Get(&u); err != nil {
				return 0
			}
			return u
		}
	}
	if err := workflow.SetQueryHandler(ctx, QueryState, func() (string, error) {
		if s := d.m.State(); s != nil {
			return s.Decl.Name.Name, nil
		}
		return "", nil
	}); err != nil {
		return nil, err
	}
	if err := workflow.SetQueryHandler(ctx, QueryTranscript, func() (*interp.Transcript, error) {
		return d.m.Transcript(), nil
	}); err != nil {
		return nil, err
	}
	// Signals that come while the run's code waits for an activity are
	// stamped in the workflow task that brings them, by a goroutine of
	// their own; the drive loop stamps them too (whichever runs first).
	workflow.Go(ctx, func(ctx workflow.Context) {
		for {
			if err := workflow.Await(ctx, func() bool { return d.unstamped() }); err != nil {
				return
			}
			d.stamp()
		}
	})
	if err := d.m.Drive(); err != nil {
		return nil, err
	}
	// The run's end is its last end or stop: a lingering run records
	// rejections after it.
	tr := d.m.Transcript()
	for i := len(tr.Entries) - 1; i >= 0; i-- {
		switch e := tr.Entries[i]; {
		case e.Kind == interp.KStopped:
			return nil, temporal.NewNonRetryableApplicationError(e.Message, StoppedType, nil, tr)
		case e.Kind == interp.KEnd && e.Error:
			return nil, temporal.NewNonRetryableApplicationError(e.Message, ErrorType, nil, tr)
		case e.Kind == interp.KEnd:
			return tr, nil
		}
	}
	return tr, nil
}

// unstamped reports whether a signal in the log has no time yet.
func (d *driver) unstamped() bool {
	n := len(d.log.entries)
	return n > 0 && !d.log.entries[n-1].stamped
}

// stamp gives every signal not yet stamped the time now: that of the
// workflow task that brought it.
func (d *driver) stamp() {
	now := d.Now()
	for i := len(d.log.entries) - 1; i >= 0 && !d.log.entries[i].stamped; i-- {
		d.log.entries[i].at, d.log.entries[i].stamped = now, true
	}
}

// signalValue is a signal's argument as taken from its channel; ok is
// false for one that did not decode.
type signalValue struct {
	args []string
	slot string
	ok   bool
}

// takeSignal takes the value of the next signal named name from its
// channel. The SDK's channel drops a value that does not decode and hands
// on the next, so the values taken are counted against the channel's
// length: each dropped one belongs to an entry of the log before the
// value's, and is kept as a value that did not decode.
func (d *driver) takeSignal(name string) signalValue {
	if q := d.pending[name]; len(q) > 0 {
		d.pending[name] = q[1:]
		return q[0]
	}
	ch := workflow.GetSignalChannel(d.ctx, name)
	before := ch.Len()
	var v signalValue
	switch name {
	case SignalTake:
		v.ok = ch.ReceiveAsync(&v.slot)
	case SignalStart, SignalFinish:
		v.ok = ch.ReceiveAsync(nil)
	default:
		v.ok = ch.ReceiveAsync(&v.args)
	}
	dropped := before - ch.Len() - 1
	if !v.ok {
		dropped = before - ch.Len()
	}
	if dropped <= 0 {
		return v
	}
	q := make([]signalValue, 0, dropped)
	for range dropped - 1 {
		q = append(q, signalValue{})
	}
	if v.ok {
		q = append(q, v)
	}
	d.pending[name] = append(d.pending[name], q...)
	return signalValue{}
}

// action is what a signal asks of the run; ok is false for a signal that
// is not the run's (its value is taken and dropped).
func (d *driver) action(name string) (a interp.Action, finish, ok bool) {
	v := d.takeSignal(name)
	switch name {
	case SignalFinish:
		return a, true, true
	case SignalStart:
		return interp.Action{Kind: interp.ActStart}, false, true
	case SignalTake:
		// A slot's name is looked up once, here, by the model's lookup.
		return interp.Action{Kind: interp.ActTake, Slot: d.wf.SlotNamed(v.slot)}, false, true
	}
	ev := d.wf.EventNamed(name)
	if ev == nil {
		return a, false, false
	}
	return interp.Action{Kind: interp.ActSend, Event: ev, Args: interp.EventArgs(ev, v.args)}, false, true
}

// Next is what happens next in the run, on Temporal's clock (interp.Clock).
// Signals are taken in the order the history has them (Interceptor),
// whatever batch a workflow task brings. The deadline falls due before a
// signal when the run's timer for it fired before that signal in the
// history; when the timer was set after the signal came (the deadline
// changed since), when the signal's time is past the deadline. A signal
// handled before a deadline it came before is stamped no later than the
// deadline: while the worker was down it came in time, and its time is
// that of the task that brought it only because the worker saw it then.
// A deadline with no signal before it falls due when its timer fires, or
// when the engine's time is already past it. Once the run has ended, what
// was sent and not yet handled is handed over (the machine records it as
// rejected: nothing is dropped silently); then the run is over, or,
// lingering (Input.Linger), over once SignalFinish came and no deadline is
// left. Until then it waits for a signal or the timer.
func (d *driver) Next(due interp.Ticks, has, ended bool) (interp.Happening, interp.Action, error) {
	for {
		d.stamp()
		if len(d.log.entries) > 0 {
			e := d.log.entries[0]
			if has && !d.before(e, due) {
				d.stopTimer()
				return interp.Due, interp.Action{}, nil
			}
			d.log.entries = d.log.entries[1:]
			a, finish, ok := d.action(e.name)
			switch {
			case finish:
				d.finish = true
				continue
			case !ok:
				continue
			}
			a.At = e.at
			if has && a.At > due {
				a.At = due
			}
			return interp.Arrived, a, nil
		}
		if ended && (!d.in.Linger || d.finish) {
			return interp.Over, interp.Action{}, nil
		}
		// A deadline fires when the engine's time has reached it, compared
		// exactly: Now rounds up to ticks, and what else is sent within
		// the same tick must still come first.
		if has && (d.reached(due) || (d.timer != nil && d.due == due && d.timer.IsReady())) {
			d.stopTimer()
			return interp.Due, interp.Action{}, nil
		}
		if !has && d.finish {
			return interp.Over, interp.Action{}, nil
		}
		if !has {
			d.stopTimer()
		}
		if has && (d.timer == nil || d.due != due) {
			d.stopTimer()
			at, ok := tickDuration(due, d.in.Speedup)
			if !ok {
				return 0, interp.Action{}, temporal.NewNonRetryableApplicationError(
					"a deadline lies past what Temporal's timers hold (WF404)", StoppedType, nil)
			}
			tctx, cancel := workflow.WithCancel(d.ctx)
			d.timerID++
			d.timer, d.due, d.cancel = workflow.NewTimer(tctx, at-workflow.Now(d.ctx).Sub(d.start)), due, cancel
		}
		// Wait for something new: a signal or the timer.
		if err := workflow.Await(d.ctx, func() bool {
			return len(d.log.entries) > 0 || (d.timer != nil && d.timer.IsReady())
		}); err != nil {
			return 0, interp.Action{}, err
		}
	}
}

// before reports whether signal e comes before the deadline at due: by
// the history when the run's timer for due was set when e came, else by
// time.
func (d *driver) before(e signalEntry, due interp.Ticks) bool {
	if d.timer != nil && d.due == due && e.timer == d.timerID {
		return !e.fired
	}
	return e.at <= due
}

// reached reports whether the engine's time is at or past tick t.
func (d *driver) reached(t interp.Ticks) bool {
	at, ok := tickDuration(t, d.in.Speedup)
	return ok && workflow.Now(d.ctx).Sub(d.start) >= at
}

func (d *driver) stopTimer() {
	if d.cancel != nil {
		d.cancel()
	}
	d.timer, d.cancel = nil, nil
}

// Now is the run's time in ticks (interp.Clock).
func (d *driver) Now() interp.Ticks {
	return elapsedTicks(workflow.Now(d.ctx).Sub(d.start), d.in.Speedup)
}

func (d *driver) attemptTimeout() time.Duration {
	if d.in.AttemptTimeout > 0 {
		return d.in.AttemptTimeout
	}
	return time.Minute
}

// Call runs a call as one attempt of the activity named by its dotted
// name and waits for it; a failure is logged (interp.Executor).
func (d *driver) Call(inv interp.Invocation) {
	ctx := workflow.WithActivityOptions(d.ctx, workflow.ActivityOptions{
		StartToCloseTimeout: d.attemptTimeout(),
		RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 1},
	})
	if err := workflow.ExecuteActivity(ctx, inv.Name, texts(inv.Args)).Get(ctx, nil); err != nil {
		workflow.GetLogger(d.ctx).Warn("wfc: a call failed; the run goes on", "call", inv.Name, "error", err)
	}
}

// Attempt runs one attempt of a durable step as the step activity, with
// no retries of Temporal's own (the machine waits between attempts on
// workflow timers and keeps the attempt count), and waits for it; the
// attempt's number over the run is in its input (interp.Executor).
//
// This is the smallest form of the per-attempt executor: it waits for the
// activity inside Attempt, so signals that arrive while an attempt runs
// are handled when it ends (with their arrival time). Running attempts on
// their own and reporting them through the clock (interp.Reported) is the
// engine's next step.
func (d *driver) Attempt(a *interp.Attempt) (interp.Report, bool) {
	s := a.Step
	in := StepInput{Step: s.Key, Attempt: a.N, Start: d.start, Speedup: d.in.Speedup}
	for _, c := range a.Calls {
		in.Calls = append(in.Calls, Invocation{Name: c.Name, Args: texts(c.Args)})
	}
	start := d.Now()
	timeout := d.attemptTimeout()
	if a.Timeout > 0 {
		if t, ok := tickDuration(a.Timeout, d.in.Speedup); ok {
			timeout = t
		}
	}
	// A step's deadline stops an attempt still running when it passes:
	// the activity's ScheduleToCloseTimeout ends there.
	var toClose time.Duration
	if a.HasDeadline && a.Deadline > start {
		if t, ok := tickDuration(a.Deadline-start, d.in.Speedup); ok {
			toClose = t
		}
	}
	ctx := workflow.WithActivityOptions(d.ctx, workflow.ActivityOptions{
		ActivityID:             fmt.Sprintf("%s#%d", s.Key, a.N),
		StartToCloseTimeout:    timeout,
		ScheduleToCloseTimeout: toClose,
		RetryPolicy:            &temporal.RetryPolicy{MaximumAttempts: 1},
	})
	var out StepOutput
	err := workflow.ExecuteActivity(ctx, StepActivity, in).Get(ctx, &out)
	// The attempt took what its activity measured; one that never
	// answered (it timed out, or went down with its worker) took until now.
	rep := interp.Report{Attempt: a, Took: d.Now() - start, OK: err == nil}
	measured := err == nil
	var appErr *temporal.ApplicationError
	if errors.As(err, &appErr) {
		rep.NonRetryable = appErr.NonRetryable()
		rep.Kind = d.prog.kinds[appErr.Type()]
		if r := appErr.NextRetryDelay(); r > 0 {
			rep.RetryAfter, rep.HasRetryAfter = elapsedTicks(r, d.in.Speedup), true
		}
		measured = appErr.HasDetails() && appErr.Details(&out) == nil
	}
	if measured {
		rep.Took = interp.Ticks(out.Took)
	}
	return rep, true
}

// Cancel abandons an attempt (interp.Executor): Attempt waits for each
// attempt to end, so none is ever running when the machine cancels one.
func (d *driver) Cancel(*interp.Attempt) {}

func texts(vs []interp.Value) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.Text
	}
	return out
}
