package wftest_test

import (
	"context"
	"runtime"
	"testing"

	"github.com/wfc-lang/wfc"
	"github.com/wfc-lang/wfc/parser"
	"github.com/wfc-lang/wfc/wftest"
)

// heartbeat is testdata/runs/heartbeat's workflow with two tests: one that
// names its last time (it ends there), one that asks where the run is when
// it cannot move again (a heartbeat always can: the run goes on to the
// transcript's limit).
const heartbeat = `workflow Heartbeat {
  Autostart = true;
  Initial   = Waiting;
  event Beat();
  state Waiting {
    subscribe Beat() { Finished { Within = TimeSpan.FromMinutes(5); Unfinished { goto Waiting; } } }
  }
}
test "still waiting after an hour" { Expect.State(Waiting, at: TimeSpan.FromHours(1)); }
test "runs to the limit" { Expect.State(Waiting); }
`

// BenchmarkHeartbeatTests runs both tests as `wfc test` does without -v
// (Discard): the first ends after its hour (milliseconds; it went on to
// a million entries before), the second reaches the entry limit, and the
// benchmark reports the peak of live heap bytes it saw besides the time.
func BenchmarkHeartbeatTests(b *testing.B) {
	r := wfc.Run(context.Background(), []parser.Source{{Name: "heartbeat.wf", Src: heartbeat}}, wfc.Options{})
	for _, tc := range r.Checked.Program.Tests {
		b.Run(tc.Name, func(b *testing.B) {
			b.ReportAllocs()
			entries := 0
			for b.Loop() {
				res := wftest.Run(r.Checked, tc, wftest.Options{Schedules: r.Schedules, Discard: true})
				if !res.Passed() {
					b.Fatalf("%v %v", res.Err, res.Failures)
				}
				entries = res.Entries
			}
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			b.ReportMetric(float64(entries), "entries/run")
			b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "heap-MB")
		})
	}
}
