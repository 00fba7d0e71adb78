package interp_test

import (
	"strconv"
	"testing"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/codegen"
	"github.com/wfc-lang/wfc/internal/scaling"
	"github.com/wfc-lang/wfc/interp"
)

// benchEvents is the size of the scenario the figure names: the
// interpreter runs 100,000 events at 1,000,000 events/s or more on one core.
const benchEvents = 100_000

// benchProgram ping-pongs between two states: each event is accepted, runs
// a call with the event's argument and a case, and moves the run, which
// enters the other state and opens its milestone's window — the common work
// of a run, per event.
const benchProgram = `enum Kind { Ping, Pong }
workflow Bench {
  Autostart = true;
  Initial   = A;
  event Hit(Kind k, int n);
  state A {
    subscribe Hit(Kind k, int n) { Finished { Within = TimeSpan.FromHours(1); Unfinished { goto Done; } } }
    on Hit(Kind k, int n) { Log.Write(n); Ping { goto B; } default { goto B; } }
  }
  state B {
    subscribe Hit(Kind k, int n) { Finished { Within = TimeSpan.FromHours(1); Unfinished { goto Done; } } }
    on Hit(Kind k, int n) { Log.Write(n); Pong { goto A; } default { goto A; } }
  }
  terminal Done { }
}
`

// BenchmarkRun100kEvents runs a scenario of 100,000 events, one a second,
// and reports events per second (the figure: at least 1,000,000).
func BenchmarkRun100kEvents(b *testing.B) {
	res, wf, scheds, sc := benchScenario(b)
	b.ReportAllocs()
	var entries int
	cpu := scaling.CPUTime()
	for b.Loop() {
		tr, err := interp.RunWith(res, wf, sc, interp.Options{Schedules: scheds})
		if err != nil {
			b.Fatal(err)
		}
		entries = len(tr.Entries)
	}
	b.ReportMetric(float64(benchEvents)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
	// Per CPU-second of every thread (the collector's included): what one
	// core does, whatever else the machine is doing.
	b.ReportMetric(float64(benchEvents)*float64(b.N)/(scaling.CPUTime()-cpu).Seconds(), "events/cpu-s")
	b.ReportMetric(float64(entries), "entries/run")
}

// BenchmarkRun100kEventsCovered is the same with coverage's OnStmt hook,
// which `wfc test --cover` adds.
func BenchmarkRun100kEventsCovered(b *testing.B) {
	res, wf, scheds, sc := benchScenario(b)
	seen := map[check.Stmt]bool{}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := interp.RunWith(res, wf, sc, interp.Options{Schedules: scheds, OnStmt: func(s check.Stmt) { seen[s] = true }}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(benchEvents)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// benchScenario compiles benchProgram and sends its event benchEvents
// times, one a second, alternating the enum's members.
func benchScenario(b *testing.B) (*check.Result, *check.Workflow, []*codegen.Schedule, interp.Scenario) {
	res, wf := compile(b, "bench.wf", benchProgram)
	scheds := codegen.Lower(res, codegen.Options{})
	ev := wf.Events[0]
	kind := res.Program.Enums[0]
	acts := make([]interp.Action, benchEvents)
	for i := range acts {
		m := kind.Members[i%2]
		acts[i] = interp.Action{At: interp.Ticks(i+1) * 10_000_000, Kind: interp.ActSend, Event: ev,
			Args: []interp.Value{{Text: m.Ident.Name, Member: m}, {Text: strconv.Itoa(i)}}}
	}
	return res, wf, scheds, interp.Scenario{Actions: acts}
}

// heartbeatProgram is a window that goes back to its own state for ever:
// a run of it writes entries until the transcript's limit.
const heartbeatProgram = `workflow Heartbeat {
  Autostart = true;
  Initial   = Waiting;
  event Beat();
  state Waiting {
    subscribe Beat() { Finished { Within = TimeSpan.FromMinutes(5); Unfinished { goto Waiting; } } }
  }
}
`

// BenchmarkEntries runs a heartbeat to the transcript's limit, 1,000,000
// entries, keeping them (kept) or only telling an observer of each
// (discarded, what `wfc test` does when it prints no transcript), and
// reports entries per CPU-second (the figure: at least 1,000,000)
// and the bytes allocated per entry.
func BenchmarkEntries(b *testing.B) {
	res, wf := compile(b, "heartbeat.wf", heartbeatProgram)
	scheds := codegen.Lower(res, codegen.Options{})
	for _, discard := range []bool{false, true} {
		name := "kept"
		if discard {
			name = "discarded"
		}
		b.Run(name, func(b *testing.B) {
			seen := 0
			opt := interp.Options{Schedules: scheds, Discard: discard, OnEntry: func(int, *interp.Entry, interp.Subject) { seen++ }}
			b.ReportAllocs()
			cpu := scaling.CPUTime()
			for b.Loop() {
				seen = 0
				if _, err := interp.RunWith(res, wf, interp.Scenario{}, opt); err != nil {
					b.Fatal(err)
				}
			}
			if seen != interp.MaxEntries {
				b.Fatalf("%d entries, want the limit", seen)
			}
			n := float64(seen) * float64(b.N)
			b.ReportMetric(n/(scaling.CPUTime()-cpu).Seconds(), "entries/cpu-s")
			b.ReportMetric(n/b.Elapsed().Seconds(), "entries/s")
		})
	}
}
