package wfctemporal

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/interp"
)

// faultSource is the fault tests' program: a payment step that retries
// every minute, a window to pay in and one to ship in.
const faultSource = `workflow Fault {
  Autostart = true;
  Initial = Placed;
  event Pay(int amount);
  event Ship();
  state Placed {
    subscribe Pay(int amount) { Finished { Within = TimeSpan.FromMinutes(10); Unfinished { goto Expired; } } }
    on Pay(int amount) {
      Workflow.Once("charge", retry: Backoff.Fixed(TimeSpan.FromMinutes(1)).MaxAttempts(4)) { Payments.Charge(amount); }
      goto Paid;
    }
  }
  state Paid {
    subscribe Ship() { Finished { Within = TimeSpan.FromMinutes(6); Unfinished { goto Late; } } }
    on Ship { goto Shipped; }
  }
  terminal Shipped { }
  terminal Late { }
  terminal Expired { }
}
`

// faultCase is one run of the fault batch: when it pays (0: never), how
// its charge fails, and whether it ships (3 minutes after it is paid).
type faultCase struct {
	payAt int // minute
	fails failSpec
	ship  bool
}

// faultCases are the batch's 20 runs: paid at minute 2 or 5, the charge
// failing 0 to 3 times or always, shipped or not. Every action lies at
// least 3 minutes from every deadline (at Speedup 40, 4.5 s), so that
// neither a dev server's late timers nor a worker's downtime of a few
// seconds can change a decision; the batch's worker is killed at minutes
// 4.5 and 9.5, before the payments of minute 5 and the shipments of
// minute 10, which are then sent while no worker runs.
func faultCases() []faultCase {
	var out []faultCase
	for _, pay := range []int{2, 5} {
		for _, f := range []failSpec{{}, {Times: 1}, {Times: 2}, {Times: 3}, {Always: true}} {
			for _, ship := range []bool{true, false} {
				out = append(out, faultCase{payAt: pay, fails: f, ship: ship})
			}
		}
	}
	return out
}

const minute = interp.Ticks(600_000_000)

// scenario is the case as the reference interpreter runs it.
func (fc faultCase) scenario(wf *check.Workflow) interp.Scenario {
	var sc interp.Scenario
	pay, ship := wf.EventNamed("Pay"), wf.EventNamed("Ship")
	sc.Actions = append(sc.Actions, interp.Action{At: interp.Ticks(fc.payAt) * minute, Kind: interp.ActSend, Event: pay,
		Args: interp.EventArgs(pay, []string{"12"})})
	if fc.ship && !fc.fails.Always {
		paid := fc.payAt + int(fc.fails.Times)
		sc.Actions = append(sc.Actions, interp.Action{At: interp.Ticks(paid+3) * minute, Kind: interp.ActSend, Event: ship})
	}
	sc.Steps = map[*check.Step]*interp.Script{wf.Steps[0]: {Fails: []interp.Failure{{Times: fc.fails.Times, Always: fc.fails.Always}}}}
	return sc
}

// shape is a transcript without its times (at, due, held, a window's end,
// a wait's length): what a run on a server decides, which must be the
// reference's, while its times are a real clock's.
func shape(tr *interp.Transcript) []string {
	var out []string
	for _, e := range tr.Entries {
		e.At, e.Due, e.Held, e.Until, e.Wait = 0, 0, false, 0, 0
		out = append(out, fmt.Sprintf("%#v", e))
	}
	return out
}

// sameShape says how got decides differently from want, or "".
func sameShape(want, got *interp.Transcript) string {
	w, g := shape(want), shape(got)
	for i := range max(len(w), len(g)) {
		if i >= len(w) || i >= len(g) || w[i] != g[i] {
			return fmt.Sprintf("they differ at entry %d:\nreference:\n%s\non the server:\n%s", i+1, want, got)
		}
	}
	return ""
}

// runResult waits for a run and returns its transcript, from its result
// or from the error it ended with.
func runResult(ctx context.Context, c client.Client, id string) (*interp.Transcript, error) {
	var tr interp.Transcript
	err := c.GetWorkflow(ctx, id, "").Get(ctx, &tr)
	if err == nil {
		return &tr, nil
	}
	var appErr *temporal.ApplicationError
	if errors.As(err, &appErr) && (appErr.Type() == ErrorType || appErr.Type() == StoppedType) && appErr.HasDetails() {
		if err := appErr.Details(&tr); err != nil {
			return nil, err
		}
		return &tr, nil
	}
	return nil, err
}

// sendActions sends a scenario's actions as signals, each at its time from
// t0 at speedup (a program's minute is 60/speedup seconds).
func sendActions(ctx context.Context, c client.Client, id string, acts []interp.Action, t0 time.Time, speedup int64) error {
	for _, a := range acts {
		time.Sleep(time.Until(t0.Add(time.Duration(a.At) * 100 / time.Duration(speedup))))
		var err error
		switch a.Kind {
		case interp.ActStart:
			err = c.SignalWorkflow(ctx, id, "", SignalStart, nil)
		case interp.ActTake:
			err = c.SignalWorkflow(ctx, id, "", SignalTake, a.Slot.Name)
		case interp.ActSend:
			err = c.SignalWorkflow(ctx, id, "", a.Event.Decl.Name.Name, texts(a.Args))
		}
		if err != nil {
			return fmt.Errorf("%s: sending %s: %w", id, a.Event.Decl.Name.Name, err)
		}
	}
	return nil
}

// faultBatch runs the fault cases (copies of each, with its own IDs) on
// queue at speedup, all at once, and compares each run's decisions with
// the reference's; it replays every history. It returns, when every run
// ended, how the runs differ from the reference (the caller judges), and
// whether an attempt of a step timed out (it was lost with a worker).
func faultBatch(t *testing.T, c client.Client, p *Program, cc *compiled, queue, prefix string, copies int, speedup int64, t0 time.Time) (diffs []string, timedOut bool) {
	ctx := context.Background()
	wf := cc.res.Program.WorkflowNamed("Fault")
	cases := faultCases()
	var mu sync.Mutex
	differ := func(format string, args ...any) {
		mu.Lock()
		diffs = append(diffs, fmt.Sprintf(format, args...))
		mu.Unlock()
	}
	var wg sync.WaitGroup
	for k := range copies {
		for i, fc := range cases {
			id := fmt.Sprintf("%s-%d-%d", prefix, k, i)
			sc := fc.scenario(wf)
			want, err := interp.Run(cc.res, wf, sc)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: queue}, "Fault",
				Input{Program: p.Hash, Workflow: "Fault", Speedup: speedup, AttemptTimeout: 5 * time.Second}); err != nil {
				t.Fatal(err)
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := sendActions(ctx, c, id, sc.Actions, t0, speedup); err != nil {
					t.Error(err)
				}
				got, err := runResult(ctx, c, id)
				if err != nil {
					t.Errorf("%s: %v", id, err)
					return
				}
				if diff := sameShape(want, got); diff != "" {
					differ("%s (paid at %d, %+v, ship %v): %s", id, fc.payAt, fc.fails, fc.ship, diff)
				}
				h, err := fetchHistory(c, id)
				if err != nil {
					t.Errorf("%s: %v", id, err)
					return
				}
				if id == prefix+"-0-16" && strings.HasPrefix(prefix, "killed") { // paid at 5 after 3 failures, shipped
					recordHistory(t, "killed", h)
				}
				if attemptTimedOut(h) {
					mu.Lock()
					timedOut = true
					mu.Unlock()
				}
				replay(t, p, h)
			}()
		}
	}
	wg.Wait()
	return diffs, timedOut
}

// attemptTimedOut reports whether an activity of the history timed out,
// or was retried after a timeout: an attempt lost with its worker.
func attemptTimedOut(h *historypb.History) bool {
	for _, e := range h.Events {
		if e.GetEventType() == enumspb.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT ||
			e.GetActivityTaskStartedEventAttributes().GetLastFailure().GetTimeoutFailureInfo() != nil {
			return true
		}
	}
	return false
}

// faultIDs are the runs' IDs of one batch copy, with their failures (what
// the worker's activities are told).
func faultFails(prefix string, copies int) runFails {
	fails := runFails{}
	for k := range copies {
		for i, fc := range faultCases() {
			fails[fmt.Sprintf("%s-%d-%d", prefix, k, i)] = map[string]failSpec{"charge": fc.fails}
		}
	}
	return fails
}

// killedTwice: 20 runs whose worker (a process of its own) is killed
// twice, at minutes 4.5 and 9.5 of the batch, and started again a minute
// later, decide as the reference does, and as 100 undisturbed runs of the
// same cases, at the same time, on a worker that stays up. Signals of
// minutes 5 and 10 are sent while no worker runs, and retries wait across
// a kill. The kills fall between attempts (at whole minutes) as long as
// the machine keeps up: when a kill took an attempt with it (the attempt
// timed out, a failure the reference does not script) or a worker took
// more than half a minute of the program to start, the case did not
// happen, and it reports false (adapt runs it slower).
func killedTwice(t *testing.T, s *server, speedup int64) bool {
	c := s.client
	p, cc := mustProgram(t, []Source{{Name: "fault.wf", Text: faultSource}})
	stamp := time.Now().UnixNano()
	killedQ, steadyQ := fmt.Sprintf("wfc-killed-%d", stamp), fmt.Sprintf("wfc-steady-%d", stamp)
	killed, steadyIDs := fmt.Sprintf("killed%d", stamp), fmt.Sprintf("steady%d", stamp)
	cfg := workerConfig{HostPort: s.hostPort, Queue: killedQ, Programs: [][]Source{p.Sources}, Fails: faultFails(killed, 1)}
	log := newAttemptLog()
	w := startWorkerProcess(t, cfg, 1, log)
	steady, err := NewWorker(c, steadyQ, worker.Options{}, faultFails(steadyIDs, 5).activities([]*Program{p}, nil), p)
	if err != nil {
		t.Fatal(err)
	}
	if err := steady.Start(); err != nil {
		t.Fatal(err)
	}
	defer steady.Stop()
	t0 := time.Now()
	at := func(m float64) time.Time { return t0.Add(time.Duration(m * float64(time.Minute) / float64(speedup))) }
	var wg sync.WaitGroup
	var killedDiffs, steadyDiffs []string
	var lost bool
	wg.Add(2)
	go func() { defer wg.Done(); killedDiffs, lost = faultBatch(t, c, p, cc, killedQ, killed, 1, speedup, t0) }()
	go func() { defer wg.Done(); steadyDiffs, _ = faultBatch(t, c, p, cc, steadyQ, steadyIDs, 5, speedup, t0) }()
	var downs [][2]time.Time
	for gen, m := range []float64{4.5, 9.5} {
		time.Sleep(time.Until(at(m)))
		down := time.Now()
		w.kill()
		time.Sleep(time.Until(at(m + 1)))
		w = startWorkerProcess(t, cfg, gen+2, log)
		downs = append(downs, [2]time.Time{down, time.Now()})
	}
	wg.Wait()
	// The undisturbed batch decides as the reference does unless the
	// machine could not keep up with the batch's real-time schedule (a
	// run's first task or its timers seconds late, under load): then the
	// whole case runs again slower, and only at the slowest speed does a
	// difference fail the test.
	if len(steadyDiffs) > 0 && speedup > 10 {
		t.Logf("the undisturbed batch differs from the reference at Speedup %d (%d runs; the first: %s): again, slower",
			speedup, len(steadyDiffs), steadyDiffs[0])
		return false
	}
	for _, d := range steadyDiffs {
		t.Errorf("undisturbed: %s", d)
	}
	// The kills fell where the batch needs them: the signals of minutes 5
	// and 10 were sent while the worker was down (the sends keep to their
	// times, a kill takes milliseconds and a restart waits a minute).
	slow := lost
	for k, d := range downs {
		m := 5 + 5*float64(k)
		if d[0].After(at(m)) || d[1].After(at(m+1)) {
			t.Logf("down from %v to %v: the machine was too slow at Speedup %d", d[0].Sub(t0), d[1].Sub(t0), speedup)
			slow = true
		}
	}
	// Each of the charge's attempts was made once, by whichever worker ran
	// it; one missing went down with its worker.
	for i, fc := range faultCases() {
		id := fmt.Sprintf("%s-0-%d", killed, i)
		want := int(fc.fails.Times) + 1
		if fc.fails.Always {
			want = 4
		}
		got := log.of(id, "charge")
		seen := map[int]int{}
		for _, a := range got {
			seen[a.n]++
		}
		for n := 1; n <= want; n++ {
			switch {
			case seen[n] > 1:
				t.Errorf("%s: the workers ran attempt %d %d times: %v", id, n, seen[n], got)
			case seen[n] == 0:
				t.Logf("%s: attempt %d went down with its worker at Speedup %d", id, n, speedup)
				slow = true
			}
		}
	}
	if slow {
		return false
	}
	for _, d := range killedDiffs {
		t.Errorf("killed twice: %s", d)
	}
	return true
}

// retrySource's charge waits a minute between attempts.
const retrySource = `workflow Retry {
  Autostart = true;
  Initial = A;
  event Go();
  state A {
    subscribe Go();
    on Go { Workflow.Once("charge", retry: Backoff.Fixed(TimeSpan.FromMinutes(1)).MaxAttempts(5)) { Payments.Charge(); } goto Done; }
  }
  terminal Done { }
}
`

// killMidRetry: a step's worker is killed while the step waits to retry
// (after its second attempt failed), and a new worker process starts once
// the wait is over. The third attempt runs on the new worker, as the third
// (the attempt count is the run's, not the worker's): with Fail(times: 3)
// the fourth attempt succeeds, as the reference has it, and no attempt
// runs twice. When the machine was too slow to kill the worker inside the
// wait, it reports false (the caller slows the run down).
func killMidRetry(t *testing.T, s *server, speedup int64) bool {
	ctx := context.Background()
	p, cc := mustProgram(t, []Source{{Name: "retry.wf", Text: retrySource}})
	queue := fmt.Sprintf("wfc-midretry-%d", time.Now().UnixNano())
	id := "midretry-" + queue
	cfg := workerConfig{HostPort: s.hostPort, Queue: queue, Programs: [][]Source{p.Sources},
		Fails: runFails{id: {"charge": {Times: 3}}}}
	log := newAttemptLog()
	w := startWorkerProcess(t, cfg, 1, log)
	if _, err := s.client.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: queue}, "Retry",
		Input{Program: p.Hash, Speedup: speedup, AttemptTimeout: 5 * time.Second}); err != nil {
		t.Fatal(err)
	}
	if err := s.client.SignalWorkflow(ctx, id, "", "Go", []string{}); err != nil {
		t.Fatal(err)
	}
	// Kill it once the server has the second attempt's failure: in the
	// wait before the third.
	eventually(t, time.Minute, "the second attempt failing", func() bool { return failedAttempts(t, s.client, id) >= 2 })
	w.kill()
	if a, ok := log.find(id, "charge", 3); ok {
		t.Logf("attempt 3 ran on worker %d before the kill: too slow at Speedup %d", a.gen, speedup)
		_, _ = runResult(ctx, s.client, id) // let the old run end before the next try
		return false
	}
	time.Sleep(time.Minute / time.Duration(speedup)) // the wait passes with no worker
	startWorkerProcess(t, cfg, 2, log)
	got, err := runResult(ctx, s.client, id)
	if err != nil {
		t.Fatal(err)
	}
	wf := cc.res.Program.WorkflowNamed("Retry")
	want, err := interp.Run(cc.res, wf, interp.Scenario{
		Actions: []interp.Action{{Kind: interp.ActSend, Event: wf.EventNamed("Go")}},
		Steps:   map[*check.Step]*interp.Script{wf.Steps[0]: {Fails: []interp.Failure{{Times: 3}}}}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := sameShape(want, got); diff != "" {
		t.Fatal(diff)
	}
	var ran []string
	for _, a := range log.of(id, "charge") {
		ran = append(ran, fmt.Sprintf("%d on worker %d", a.n, a.gen))
	}
	if strings.Join(ran, ", ") != "1 on worker 1, 2 on worker 1, 3 on worker 2, 4 on worker 2" {
		t.Errorf("the attempts ran %q, want 1 and 2 on the first worker, 3 and 4 on the second", ran)
	}
	h := history(t, s.client, id)
	replay(t, p, h)
	recordHistory(t, "midretry", h)
	return true
}

// failedAttempts is how many of a run's step attempts the server has seen
// fail: the activity's attempt now pending, less one, while Temporal
// retries it, or the failed activities of its history.
func failedAttempts(t *testing.T, c client.Client, id string) int {
	n := 0
	d, err := c.DescribeWorkflowExecution(context.Background(), id, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range d.GetPendingActivities() {
		if a.GetLastFailure() != nil {
			n = max(n, int(a.GetAttempt())-1)
		}
	}
	failed := 0
	for _, e := range history(t, c, id).Events {
		if e.GetEventType() == enumspb.EVENT_TYPE_ACTIVITY_TASK_FAILED {
			failed++
		}
	}
	return max(n, failed)
}

// programChanged: a program changes while a run of it is in flight. A
// worker started with the new version only refuses a new run of the old
// one (wfc.Program) and fails the workflow task of the run in flight
// (retried, not lost); once a worker with both versions runs, the run in
// flight finishes with its own version and new runs of either version
// run theirs. Every history replays against both versions.
func programChanged(t *testing.T, s *server) {
	ctx := context.Background()
	c := s.client
	v1, _ := mustProgram(t, []Source{{Name: "order.wf", Text: shipSource}})
	v2, _ := mustProgram(t, []Source{{Name: "order.wf", Text: strings.ReplaceAll(shipSource, "Waiting", "Pending")}})
	queue := fmt.Sprintf("wfc-changed-%d", time.Now().UnixNano())
	start := func(p *Program, id string) string {
		if _, err := Start(ctx, c, client.StartWorkflowOptions{ID: id + "-" + queue, TaskQueue: queue}, p, "Order", 6); err != nil {
			t.Fatal(err)
		}
		return id + "-" + queue
	}
	newWorker := func(progs ...*Program) worker.Worker {
		w, err := NewWorker(c, queue, worker.Options{}, Activities{}, progs...)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		return w
	}
	w := newWorker(v1)
	inFlight := start(v1, "old")
	eventually(t, 30*time.Second, "the run waiting", func() bool { return queryState(t, c, inFlight) == "Waiting" })
	w.Stop()

	w = newWorker(v2)
	refused := start(v1, "refused")
	if _, err := runResult(ctx, c, refused); err == nil {
		t.Fatal("a worker without the program ran a new run of it")
	} else if appErr, _ := runError(t, err); appErr.Type() != ProgramType {
		t.Fatalf("the new run of the old program ended with %v, want %s", err, ProgramType)
	}
	if err := c.SignalWorkflow(ctx, inFlight, "", "Ship", []string{}); err != nil {
		t.Fatal(err)
	}
	eventually(t, 30*time.Second, "the run in flight's workflow task failing", func() bool {
		for _, e := range history(t, c, inFlight).Events {
			if a := e.GetWorkflowTaskFailedEventAttributes(); a != nil && strings.Contains(a.GetFailure().GetMessage(), "is in flight") {
				return true
			}
		}
		return false
	})
	w.Stop()

	w = newWorker(v1, v2)
	defer w.Stop()
	fresh := start(v2, "new")
	old := start(v1, "old-again")
	for _, id := range []string{fresh, old} {
		eventually(t, 30*time.Second, "the run starting", func() bool { return queryState(t, c, id) != "" })
		if err := c.SignalWorkflow(ctx, id, "", "Ship", []string{}); err != nil {
			t.Fatal(err)
		}
	}
	for id, state := range map[string]string{inFlight: "Waiting", fresh: "Pending", old: "Waiting"} {
		tr, err := runResult(ctx, c, id)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		if got := tr.Entries[1].State; got != state {
			t.Errorf("%s entered %s first, want %s (its version's)", id, got, state)
		}
		if end, _ := tr.End(); end.State != "Shipped" {
			t.Errorf("%s ended in %s, want Shipped:\n%s", id, end.State, tr)
		}
		r, err := NewReplayer(v1, v2)
		if err != nil {
			t.Fatal(err)
		}
		if err := r.ReplayWorkflowHistory(quiet, history(t, c, id)); err != nil {
			t.Errorf("%s does not replay: %v", id, err)
		}
	}
}

// TestServerFaults runs the fault cases on one dev server, at once: a
// worker killed twice under 20 runs (and 100 undisturbed runs beside
// them), a worker killed in the middle of a retry, a signal sent while
// the worker is down, a run that loops, and a program changed while a run
// of it is in flight.
func TestServerFaults(t *testing.T) {
	s := startServer(t, "")
	t.Run("killed twice", func(t *testing.T) {
		t.Parallel()
		adaptFrom(t, 40, func(speedup int64) bool { return killedTwice(t, s, speedup) })
	})
	t.Run("killed mid-retry", func(t *testing.T) {
		t.Parallel()
		adapt(t, func(speedup int64) bool { return killMidRetry(t, s, speedup) })
	})
	t.Run("signal while the worker is down", func(t *testing.T) {
		t.Parallel()
		adapt(t, func(speedup int64) bool { return signalWhileDown(t, s.client, speedup) })
	})
	t.Run("a run that loops", func(t *testing.T) { t.Parallel(); loopOnServer(t, s.client) })
	t.Run("program changed in flight", func(t *testing.T) { t.Parallel(); programChanged(t, s) })
}

// adapt runs a case that needs the machine to act within a window of real
// time, at Speedup 300 and then, each time the machine was too slow for
// the case to happen, half as fast, down to Speedup 10 (a minute of the
// program is six seconds): the verdict never depends on the machine's
// speed.
func adapt(t *testing.T, f func(speedup int64) bool) { adaptFrom(t, 300, f) }

// adaptFrom is adapt from another speed.
func adaptFrom(t *testing.T, from int64, f func(speedup int64) bool) {
	for speedup := from; ; speedup /= 2 {
		if f(speedup) || t.Failed() {
			return
		}
		if speedup <= 10 {
			t.Fatalf("the case did not happen even at Speedup %d", speedup)
		}
	}
}

// TestServerRestart: a dev server with a database file is stopped under 20
// runs in flight and started again; every run finishes, and each decides
// as its history says (Shipped when the history has its Ship before its
// window's timer, else Late). Every history replays.
func TestServerRestart(t *testing.T) {
	s := startServer(t, "wfc-dev.db")
	c := s.client
	ctx := context.Background()
	p, _ := mustProgram(t, []Source{{Name: "order.wf", Text: shipSource}})
	queue := startWorker(t, c, Activities{}, p)
	var ids []string
	for i := range 20 {
		run, err := Start(ctx, c, client.StartWorkflowOptions{ID: fmt.Sprintf("restart-%d", i), TaskQueue: queue}, p, "Order", 60)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, run.GetID())
	}
	for _, id := range ids {
		eventually(t, 30*time.Second, "the run waiting", func() bool { return queryState(t, c, id) == "Waiting" })
	}
	s.stop()
	s.start()
	for _, id := range ids[:10] {
		eventually(t, 30*time.Second, "the server taking signals", func() bool {
			return c.SignalWorkflow(ctx, id, "", "Ship", []string{}) == nil
		})
	}
	for _, id := range ids {
		tr, err := runResult(ctx, c, id)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		h := history(t, c, id)
		want := "Late"
		for _, e := range h.Events {
			if e.GetEventType() == enumspb.EVENT_TYPE_TIMER_FIRED {
				break
			}
			if e.GetEventType() == enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED {
				want = "Shipped"
				break
			}
		}
		if end, _ := tr.End(); end.State != want {
			t.Errorf("%s ended in %s, its history says %s:\n%s", id, end.State, want, tr)
		}
		replay(t, p, h)
	}
}
