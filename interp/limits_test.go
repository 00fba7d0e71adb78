package interp_test

import (
	"runtime"
	"strings"
	"testing"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/interp"
)

// A run never hangs and never grows without bound: a loop that makes no
// progress in time stops at MaxEntries, a wait past TimeSpan's range stops
// the run, a step with billions of failing attempts stops, and a scenario
// with too many actions is refused before it runs.
func TestLimits(t *testing.T) {
	tests := []struct {
		name, src string
		stopped   string // the KStopped message, or "" for a refused scenario
		actions   int
	}{
		{
			name: "a loop of one-tick windows",
			src: `workflow W { Autostart = true; Initial = A; event X();
  state A { subscribe X() { Finished { Within = TimeSpan.FromMilliseconds(0.0001); Unfinished { goto A; } } } } }`,
			stopped: "the transcript reached 1000000 entries",
		},
		{
			name: "a wait past TimeSpan.MaxValue",
			src: `workflow W { Autostart = true; Initial = A; event X();
  state A { subscribe X() { Finished { Within = TimeSpan.FromMinutes(1);
    Backoff = Backoff.Fixed(TimeSpan.FromDays(10000000)).MaxAttempts(5); Unfinished { goto A; } } } } }`,
			stopped: "window 3 of X.Finished would open after TimeSpan.MaxValue",
		},
		{
			name: "a step that fails two billion times",
			src: `workflow W { Autostart = true; Initial = A; event X();
  state A { subscribe X(); on X { Workflow.Once("s", retry: Backoff.Fixed(TimeSpan.FromMilliseconds(1)).MaxAttempts(2000000000)) { } } } }`,
			stopped: "the transcript reached 1000000 entries",
			actions: 1,
		},
		{
			name: "a step retried two billion times without waiting",
			src: `workflow W { Autostart = true; Initial = A; event X();
  state A { subscribe X(); on X { Workflow.Once("s", retry: Backoff.Fixed(TimeSpan.Zero).MaxAttempts(2000000000)) { } } } }`,
			stopped: "the run wrote 10000 entries at 0s without time passing or the scenario acting: deadlines or retries chain at one instant",
			actions: 1,
		},
		{
			name: "a cycle of zero-length windows",
			src: `workflow W { Autostart = true; Initial = A; event X();
  state A { subscribe X() { Finished { Within = TimeSpan.Zero; Unfinished { goto B; } } } }
  state B { subscribe X() { Finished { Within = TimeSpan.Zero; Unfinished { goto A; } } } } }`,
			stopped: "the run wrote 10000 entries at 0s without time passing or the scenario acting: deadlines or retries chain at one instant",
		},
		{
			name:    "too many actions",
			src:     `workflow W { Autostart = true; Initial = A; event X(); state A { subscribe X(); } }`,
			actions: interp.MaxActions + 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if testing.Short() && tt.stopped != "" && strings.Contains(tt.stopped, "entries") {
				t.Skip("fills a transcript of a million entries")
			}
			res, wf := compile(t, "limits.wf", tt.src)
			sc := interp.Scenario{Steps: map[*check.Step]*interp.Script{}}
			for _, s := range wf.Steps {
				sc.Steps[s] = &interp.Script{Fails: []interp.Failure{{Always: true}}}
			}
			for i := 0; i < tt.actions; i++ {
				sc.Actions = append(sc.Actions, interp.Action{Kind: interp.ActSend, Event: wf.Events[0]})
			}
			tr, err := interp.Run(res, wf, sc)
			if tt.stopped == "" {
				if err == nil || !strings.Contains(err.Error(), "at most 1000000") {
					t.Fatalf("err = %v, want the scenario refused", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			end, ok := tr.End()
			if !ok || end.Kind != interp.KStopped || end.Message != tt.stopped {
				t.Fatalf("last entry = %+v, want stopped %q", end, tt.stopped)
			}
			if len(tr.Entries) > interp.MaxEntries {
				t.Errorf("%d entries, more than MaxEntries", len(tr.Entries))
			}
		})
	}
}

// A program with errors is never run.
func TestErrorsAreNotRun(t *testing.T) {
	res, wf := compileAny(`workflow W { Initial = Nowhere; state A { } }`)
	if _, err := interp.Run(res, wf, interp.Scenario{}); err != interp.ErrHasErrors {
		t.Fatalf("err = %v, want ErrHasErrors", err)
	}
}

// TestDiscardedRunsDoNotGrow: a run that keeps no transcript allocates
// about as much for 1,000,000 entries as for 100,000 (bytes, not time: a
// count the machine's load does not change).
func TestDiscardedRunsDoNotGrow(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a million entries")
	}
	res, wf := compile(t, "heartbeat.wf", heartbeatProgram)
	alloc := func(n int) uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		seen := 0
		_, err := interp.RunWith(res, wf, interp.Scenario{}, interp.Options{MaxEntries: n, Discard: true,
			OnEntry: func(int, *interp.Entry, interp.Subject) { seen++ }})
		runtime.ReadMemStats(&after)
		if err != nil || seen != n {
			t.Fatalf("%d entries (%v), want %d", seen, err, n)
		}
		return after.TotalAlloc - before.TotalAlloc
	}
	small, large := alloc(100_000), alloc(interp.MaxEntries)
	t.Logf("100,000 entries: %d bytes; 1,000,000: %d bytes", small, large)
	if large > 2*small+64<<10 {
		t.Errorf("1,000,000 discarded entries allocate %d bytes, 100,000 allocate %d: memory grows with entries", large, small)
	}
}

// TestDoneStopsTheRun: a run whose Done is closed stops within a few
// hundred turns of its drive loop and returns ErrStopped, with no
// transcript; closed before the run, it runs nothing. Done is closed from
// OnEntry, at a known entry, so the test does not depend on time.
func TestDoneStopsTheRun(t *testing.T) {
	const src = `workflow W { Autostart = true; Initial = A; event X();
  state A { subscribe X(); on X { Workflow.Once("s", retry: Backoff.Fixed(TimeSpan.FromMilliseconds(1)).MaxAttempts(2000000000)) { } } } }`
	res, wf := compile(t, "stop.wf", src)
	sc := interp.Scenario{Steps: map[*check.Step]*interp.Script{wf.Steps[0]: {Fails: []interp.Failure{{Always: true}}}},
		Actions: []interp.Action{{Kind: interp.ActSend, Event: wf.Events[0]}}}
	for _, at := range []int{-1, 0, 5000} {
		done := make(chan struct{})
		if at < 0 {
			close(done)
		}
		seen := 0
		tr, err := interp.RunWith(res, wf, sc, interp.Options{Done: done,
			OnEntry: func(i int, _ *interp.Entry, _ interp.Subject) {
				seen++
				if i == at {
					close(done)
				}
			}})
		if err != interp.ErrStopped || tr != nil {
			t.Fatalf("Done closed at entry %d: %v, %v; want ErrStopped and no transcript", at, tr, err)
		}
		// A turn of this run writes a few entries (a failed attempt and
		// its wait): 256 turns are at most a few thousand entries.
		if at >= 0 && seen > at+5000 {
			t.Errorf("Done closed at entry %d: the run went on to entry %d", at, seen)
		}
		if at < 0 && seen > 0 {
			t.Errorf("Done closed before the run: it wrote %d entries", seen)
		}
	}
	// Without Done the same run goes to its limit.
	if testing.Short() {
		return
	}
	n := 0
	_, err := interp.RunWith(res, wf, sc, interp.Options{Discard: true, OnEntry: func(int, *interp.Entry, interp.Subject) { n++ }})
	if err != nil {
		t.Fatal(err)
	}
	if n < interp.MaxEntries {
		t.Errorf("without Done the run stopped at %d entries", n)
	}
}
