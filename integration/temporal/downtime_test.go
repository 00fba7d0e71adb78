package wfctemporal

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"github.com/wfc-lang/wfc/interp"
)

// shipSource is the workflow: Ship within a 10-minute window, or
// the run is late.
const shipSource = `workflow Order {
  Autostart = true;
  Initial = Waiting;
  event Ship();
  state Waiting {
    subscribe Ship() {
      Finished { Within = TimeSpan.FromMinutes(10); Unfinished { goto Late; } }
    }
    on Ship { goto Shipped; }
  }
  terminal Shipped { }
  terminal Late { }
}
`

// signalWhileDown: runs wait in a 10-minute window (2 s at Speedup 300);
// their worker stops, each is sent Ship inside the window, the window's
// timer fires on the server while no worker runs, and then a worker comes
// back. The history records the signal before the timer, in one batch of
// the next workflow task; the run must handle them in that order and end
// in Shipped, as the reference does. When the machine was too slow for
// the case to happen (the window passed before the worker stopped or the
// signal came), it reports false and the caller runs it with a longer
// window (adapt): the verdict never depends on the machine's speed.
func signalWhileDown(t *testing.T, c client.Client, speedup int64) bool {
	const runs = 5
	p, _ := mustProgram(t, []Source{{Name: "order.wf", Text: shipSource}})
	queue := fmt.Sprintf("wfc-down-%d", time.Now().UnixNano())
	newWorker := func() worker.Worker {
		w, err := NewWorker(c, queue, worker.Options{}, Activities{}, p)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		return w
	}
	w := newWorker()
	ctx := context.Background()
	var ids []string
	for i := range runs {
		run, err := Start(ctx, c, client.StartWorkflowOptions{ID: fmt.Sprintf("ship-down-%d-%s", i, queue), TaskQueue: queue}, p, "Order", speedup)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, run.GetID())
	}
	for _, id := range ids {
		eventually(t, 10*time.Second, "the run starting", func() bool { return queryState(t, c, id) != "" })
		if s := queryState(t, c, id); s != "Waiting" {
			t.Logf("%s: in %s before the worker stopped", id, s)
			w.Stop()
			return false
		}
	}
	w.Stop()
	for _, id := range ids {
		for range 2 {
			if err := c.SignalWorkflow(ctx, id, "", "Ship", []string{}); err != nil {
				t.Logf("%s: %v: the window passed before the signal", id, err)
				return false
			}
		}
	}
	// Each window's timer fires on the server, with no worker to see it.
	for _, id := range ids {
		eventually(t, 20*time.Second, "the window's timer firing", func() bool {
			h, err := fetchHistory(c, id)
			if err != nil {
				return false
			}
			for _, e := range h.Events {
				if e.GetEventType() == enumspb.EVENT_TYPE_TIMER_FIRED {
					return true
				}
			}
			return false
		})
	}
	order := func(id string) string {
		h, err := fetchHistory(c, id)
		if err != nil {
			t.Fatal(err)
		}
		var order []string
		for _, e := range h.Events {
			switch e.GetEventType() {
			case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED:
				order = append(order, "signaled "+e.GetWorkflowExecutionSignaledEventAttributes().GetSignalName())
			case enumspb.EVENT_TYPE_TIMER_FIRED:
				order = append(order, "timer fired")
			}
		}
		return strings.Join(order, ", ")
	}
	for _, id := range ids {
		if o := order(id); o != "signaled Ship, signaled Ship, timer fired" {
			t.Logf("%s: the history records %q: the window passed before the signal", id, o)
			return false
		}
	}
	w = newWorker()
	defer w.Stop()
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var tr interp.Transcript
			if err := c.GetWorkflow(ctx, id, "").Get(ctx, &tr); err != nil {
				t.Errorf("%s: %v", id, err)
				return
			}
			h, err := fetchHistory(c, id)
			if err != nil {
				t.Errorf("%s: %v", id, err)
				return
			}
			// The second Ship came after the run ended, in the same batch:
			// it is recorded as rejected, not dropped.
			end, _ := tr.End()
			var got []string
			for _, e := range tr.Entries {
				if e.Name == "Ship" && (e.Kind == interp.KAccept || e.Kind == interp.KReject) {
					got = append(got, e.Kind.String()+" "+e.Reason.String())
				}
			}
			if end.State != "Shipped" || strings.Join(got, ", ") != "accept reason(0), reject ended" {
				t.Errorf("%s: the run ended in %s, and Ship was %q; the reference ends in Shipped, accepting the first and rejecting the second (ended):\n%s", id, end.State, got, &tr)
			}
			replay(t, p, h)
			if id == ids[0] {
				recordHistory(t, "down", h)
			}
		}()
	}
	wg.Wait()
	return true
}

// loopSource's windows are zero long, and their outcomes go round: the
// run never leaves time 0.
const loopSource = `workflow Loop {
  Autostart = true;
  Initial = A;
  event Go();
  state A {
    subscribe Go() { Finished { Within = TimeSpan.FromSeconds(0); Unfinished { goto B; } } }
  }
  state B {
    subscribe Go() { Finished { Within = TimeSpan.FromSeconds(0); Unfinished { goto A; } } }
  }
}
`

// loopOnServer: a run that would loop for ever at one instant, on a worker
// with the SDK's default options (its deadlock detector fails a workflow
// task that holds its goroutine a second), stops at MaxEntries with
// wfc.Stopped in its first workflow task: no task fails or times out, and
// the worker goes on running other runs.
func loopOnServer(t *testing.T, c client.Client) {
	p, _ := mustProgram(t, []Source{{Name: "loop.wf", Text: loopSource}})
	ship, _ := mustProgram(t, []Source{{Name: "order.wf", Text: shipSource}})
	queue := startWorker(t, c, Activities{}, p, ship)
	ctx := context.Background()
	run, err := Start(ctx, c, client.StartWorkflowOptions{ID: "loop-" + queue, TaskQueue: queue}, p, "Loop", 1)
	if err != nil {
		t.Fatal(err)
	}
	// Before, the run held its first task for its million entries and
	// the detector failed it, again and again: bound the wait so that a
	// regression fails instead of hanging.
	gctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	appErr, tr := runError(t, run.Get(gctx, nil))
	want := fmt.Sprintf("the transcript reached %d entries", MaxEntries)
	if appErr.Type() != StoppedType || appErr.Message() != want || len(tr.Entries) != MaxEntries {
		t.Fatalf("the run ended with %s %q and %d entries, want %s %q", appErr.Type(), appErr.Message(), len(tr.Entries), StoppedType, want)
	}
	h := history(t, c, run.GetID())
	for _, e := range h.Events {
		switch e.GetEventType() {
		case enumspb.EVENT_TYPE_WORKFLOW_TASK_FAILED, enumspb.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT:
			t.Errorf("the history holds %v", e)
		}
	}
	replay(t, p, h)
	// The worker still serves runs.
	other, err := Start(ctx, c, client.StartWorkflowOptions{ID: "after-loop-" + queue, TaskQueue: queue}, ship, "Order", 600)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.SignalWorkflow(ctx, other.GetID(), "", "Ship", []string{}); err != nil {
		t.Fatal(err)
	}
	var got interp.Transcript
	if err := other.Get(ctx, &got); err != nil {
		t.Fatal(err)
	}
}
