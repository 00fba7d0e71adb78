package interp_test

import (
	"fmt"
	"testing"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/check/timespan"
	"github.com/wfc-lang/wfc/codegen"
	"github.com/wfc-lang/wfc/interp"
)

// TestScheduleAgrees: `wfc schedule` and a run agree on every policy of a
// table — each attempt's (window's) start, when the step gives up, where
// a deadline cuts it, and, past TimeSpan's range, the attempt at which the
// run stops and when (the one rule of docs/language.md's "Limits"). Each
// consumer starts at time 0, every attempt fails, and attempts take the
// schedule's attempt duration.
func TestScheduleAgrees(t *testing.T) {
	const day = timespan.TicksPerDay
	steps := []struct {
		policy string
		took   interp.Ticks
	}{
		{`retry: Backoff.Fixed(TimeSpan.FromSeconds(10)).MaxAttempts(3)`, 4 * timespan.TicksPerSecond},
		{`retry: Backoff.Exponential(TimeSpan.FromSeconds(2)).Cap(TimeSpan.FromMinutes(5)).MaxAttempts(12)`, 0},
		{`retry: Backoff.Linear(TimeSpan.FromMinutes(1)).MaxAttempts(40)`, timespan.TicksPerSecond},
		{`retry: Backoff.Fixed(TimeSpan.FromDays(10675199)).MaxAttempts(3)`, 0},
		{`retry: Backoff.Fixed(TimeSpan.MaxValue).MaxAttempts(2)`, 0},
		{`retry: Backoff.Exponential(TimeSpan.FromDays(1)).MaxAttempts(25)`, 0},
		{`retry: Backoff.Exponential(TimeSpan.FromDays(1)).MaxAttempts(25)`, day / 2},
		{`retry: Backoff.Linear(TimeSpan.FromDays(1000)).MaxAttempts(400)`, 3 * day},
		{`retry: Backoff.Fixed(TimeSpan.FromSeconds(10)).MaxAttempts(3), deadline: TimeSpan.FromSeconds(25)`, 4 * timespan.TicksPerSecond},
		{`retry: Backoff.Exponential(TimeSpan.FromSeconds(10)), deadline: TimeSpan.FromSeconds(45)`, 0},
		{`retry: Backoff.Fixed(TimeSpan.FromSeconds(5)).MaxAttempts(10), deadline: TimeSpan.FromSeconds(40)`, 20 * timespan.TicksPerSecond},
		{`retry: Backoff.Fixed(TimeSpan.FromSeconds(10)).MaxAttempts(4), timeout: TimeSpan.FromSeconds(3)`, 4 * timespan.TicksPerSecond},
	}
	for _, tt := range steps {
		src := fmt.Sprintf(`workflow W { Autostart = true; Initial = A; event Go();
  state A { subscribe Go(); on Go { Workflow.Once("s", %s) { X.Y(); } } } }`, tt.policy)
		t.Run(fmt.Sprintf("%s took %s", tt.policy, timespan.Format(tt.took)), func(t *testing.T) {
			res, wf := compile(t, "agree.wf", src)
			sched := codegen.Lower(res, codegen.Options{AttemptDuration: tt.took})[0]
			sc := interp.Scenario{
				Actions: []interp.Action{{Kind: interp.ActSend, Event: wf.Events[0]}},
				Steps:   map[*check.Step]*interp.Script{wf.Steps[0]: {Fails: []interp.Failure{{Always: true}}, Took: tt.took}},
			}
			agree(t, res, wf, sc, sched, interp.KAttempt, interp.KGiveUp)
		})
	}
	windows := []string{
		`Within = TimeSpan.FromMinutes(5); Backoff = Backoff.Exponential(TimeSpan.FromMinutes(5)).MaxAttempts(3);`,
		`Within = TimeSpan.MaxValue;`,
		`Within = TimeSpan.MaxValue; Retries = 1; Backoff = TimeSpan.FromMilliseconds(0.0001);`,
		`Within = TimeSpan.FromDays(10675199); Retries = 1;`,
		`Within = TimeSpan.FromDays(1000); Backoff = Backoff.Linear(TimeSpan.FromDays(1000)).MaxAttempts(300);`,
	}
	for _, ms := range windows {
		src := fmt.Sprintf(`workflow W { Autostart = true; Initial = A; event Go();
  state A { subscribe Go() { Finished { %s Unfinished { goto Late; } } } }
  terminal Late { } }`, ms)
		t.Run(ms, func(t *testing.T) {
			res, wf := compile(t, "agree.wf", src)
			sched := codegen.Lower(res, codegen.Options{})[0]
			agree(t, res, wf, interp.Scenario{}, sched, interp.KOpen, interp.KExhausted)
		})
	}
}

// agree runs sc and compares the starts of its attempts (entries of kind
// start) and its end (an entry of kind end, or a stop) with sched.
func agree(t *testing.T, res *check.Result, wf *check.Workflow, sc interp.Scenario, sched *codegen.Schedule, start, end interp.Kind) {
	t.Helper()
	tr, err := interp.Run(res, wf, sc)
	if err != nil {
		t.Fatal(err)
	}
	var starts []interp.Ticks
	var gaveUp, stopped *interp.Entry
	for i := range tr.Entries {
		switch e := &tr.Entries[i]; e.Kind {
		case start:
			starts = append(starts, e.At)
		case end:
			if gaveUp == nil {
				gaveUp = e
			}
		case interp.KStopped:
			stopped = e
		}
	}
	var want []interp.Ticks
	for _, r := range sched.Rows {
		step := sched.Duration + r.Wait
		for k := r.From; k <= r.To; k++ {
			want = append(want, r.Starts+interp.Ticks(k-r.From)*step)
		}
	}
	if st := sched.Stop; st != nil && st.Ends && start == interp.KOpen {
		// A window that cannot end is not opened: the run stops first.
		// (An attempt that cannot end has started on the engine.)
		want = want[:len(want)-1]
	}
	if fmt.Sprint(starts) != fmt.Sprint(want) {
		t.Fatalf("the run starts attempts at %v, the table at %v\n%s", starts, want, tr)
	}
	if st := sched.Stop; st != nil {
		if stopped == nil || stopped.At != st.At || gaveUp != nil {
			t.Fatalf("the table stops at %s (attempt %d), the run:\n%s", timespan.Format(st.At), st.Attempt, tr)
		}
		return
	}
	if stopped != nil || gaveUp == nil || gaveUp.At != sched.GivesUp {
		t.Fatalf("the table gives up at %s, the run:\n%s", timespan.Format(sched.GivesUp), tr)
	}
	if wantCause := check.CauseDeadline; sched.DeadlineCut > 0 || sched.Budget == check.BudgetDeadline {
		if gaveUp.Cause != wantCause {
			t.Errorf("the table's deadline cuts it, the run gives up for %s", gaveUp.Cause)
		}
	}
}
