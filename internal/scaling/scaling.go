// Package scaling proves that work grows linearly with its input by
// counting it. Linear runs a function at a size n and at Factor·n (8n) and
// compares what each run did: the bytes and the objects it allocated, and
// the counters of work that the code under test keeps (bytes scanned,
// names compared, bytes moved). Linear work grows about 8×, an n log n one
// a little more, quadratic work 64×: MaxRatio tells them apart. Counts do
// not depend on the machine's speed or load, so the verdict is the same on
// a quiet laptop and a loaded two-core runner.
//
// Why 8 and not 4: allocated bytes depend on capacities, which grow in
// steps (a map or a small slice doubles), so linear work can allocate up to
// twice or half its share at either size. From n to 4n that spans 2× to
// 8× for linear work and 8× to 32× for quadratic: they overlap. From n to
// 8n it spans 4× to 16× against 32× to 128×, and MaxRatio sits between.
//
// Time is measured too, as a second opinion, only when WFC_TIMING is set
// (`WFC_TIMING=1 go test -run … ./...`; .ci/run does it in a step of its
// own, with retries): a time ratio depends on the caches, the collector and
// the neighbours, so it never decides a default run. Speed itself is
// measured by benchmarks (b.SetBytes, b.ReportAllocs).
package scaling

import (
	"fmt"
	"os"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// Factor is how much larger the second run's input is.
const Factor = 8

// MaxRatio is the growth of a count from n to Factor·n above which work is
// not linear: counters of linear work measure 8 (n log n about 10), and
// allocations 4 to 16 (see the package comment); quadratic work 64, and at
// least 32.
const MaxRatio = 22.0

// Slack is what a count may grow beyond MaxRatio times its value at n
// without failing: the allocations of the test binary's other goroutines
// (the testing package's, a finished test's server winding down) are few
// but not nil. Counters kept by the code under test get no slack.
var slack = struct{ bytes, objects int64 }{bytes: 16 << 10, objects: 64}

// EnvTiming is the environment variable that asks Linear to measure time
// as well: set to anything but "" or "0".
const EnvTiming = "WFC_TIMING"

// Timing reports whether time ratios are measured (EnvTiming is set).
func Timing() bool {
	v := os.Getenv(EnvTiming)
	return v != "" && v != "0"
}

// MaxTimeRatio is MaxRatio for CPU time, checked only under EnvTiming. Time
// is noisier, and a larger input also misses the caches more and makes the
// collector work more (linear inputs measure 8 to 12 on a quiet machine),
// so it sits between linear (8×) and quadratic (64×) growth.
const MaxTimeRatio = 20.0

// tries is how often a time ratio above MaxTimeRatio is measured again before
// the test fails: a shared machine can stall any single run.
const tries = 5

// CPUTime is the CPU time (user and system, every thread) the process has
// used so far, for benchmarks that report a rate per CPU-second: on a
// shared machine wall time measures the neighbours too.
func CPUTime() time.Duration { return cpuTime() }

// A Counter is a count of work that only grows, kept by the code under
// test: a package variable its scanning loops add to (see Count). Linear
// reads it before and after each run.
type Counter struct {
	Name string
	Read func() int64
}

// Count is the Counter of c, an atomic counter the code under test adds to.
func Count(name string, c *atomic.Int64) Counter {
	return Counter{Name: name, Read: c.Load}
}

// measure is one count taken at n and at Factor·n.
type measure struct {
	name       string
	small, big int64
	slack      int64
}

// run is f(k)'s counts: the bytes and objects allocated, then each counter.
func run(f func(n int), k int, counters []Counter) []int64 {
	runtime.GC()
	var before, after runtime.MemStats
	c0 := make([]int64, len(counters))
	out := make([]int64, 2+len(counters))
	runtime.ReadMemStats(&before)
	for i, c := range counters {
		c0[i] = c.Read()
	}
	f(k)
	for i, c := range counters {
		out[2+i] = c.Read() - c0[i]
	}
	runtime.ReadMemStats(&after)
	out[0] = int64(after.TotalAlloc - before.TotalAlloc)
	out[1] = int64(after.Mallocs - before.Mallocs)
	return out
}

// Linear fails t when, from f(n) to f(Factor·n), the bytes allocated, the
// objects allocated or any of the counters grow more than MaxRatio times
// (plus a little slack for the allocations of other goroutines), or when a
// counter counts nothing at n (the code under test does not keep it, so
// it proves nothing). Choose n so that f(n) does enough work that a
// constant start-up cost does not hide the growth (thousands of items),
// and no more: a quadratic f(Factor·n) must still end quickly, so that the test
// fails rather than times out.
//
// f runs once at n first, so that one-time set-up (tables built on first
// use) is not charged to either size. A count that grew too much is taken
// again, keeping the least of each: another goroutine can only add to a
// count.
//
// Under EnvTiming, Linear also fails when f(Factor·n) takes more than
// MaxTimeRatio times the CPU time of f(n), measured up to tries times.
func Linear(t testing.TB, name string, f func(n int), n int, counters ...Counter) {
	t.Helper()
	grows(t, name, f, n, MaxTimeRatio, counters)
}

// MaxNLogNTimeRatio is MaxTimeRatio for work that is n log n by design (a
// sorted set asked once per item): from n to Factor·n its counts grow
// about 10× and its CPU time, with the caches missed more, 17× to 26×
// on the project's machine; quadratic work still grows 64×.
const MaxNLogNTimeRatio = 36.0

// NLogN is Linear for work that is n log n by design: the counts are held
// to MaxRatio as Linear's (n log n grows about 10× from n to 8n), and,
// under EnvTiming, the CPU time to MaxNLogNTimeRatio.
func NLogN(t testing.TB, name string, f func(n int), n int, counters ...Counter) {
	t.Helper()
	grows(t, name, f, n, MaxNLogNTimeRatio, counters)
}

func grows(t testing.TB, name string, f func(n int), n int, maxTime float64, counters []Counter) {
	t.Helper()
	f(n)
	small, big := run(f, n, counters), run(f, Factor*n, counters)
	ms := measures(small, big, counters)
	if failing(ms) {
		small2, big2 := run(f, n, counters), run(f, Factor*n, counters)
		for j := range small {
			small[j], big[j] = min(small[j], small2[j]), min(big[j], big2[j])
		}
		ms = measures(small, big, counters)
	}
	var report string
	for _, m := range ms {
		report += fmt.Sprintf("; %s %d → %d (%.2f×)", m.name, m.small, m.big, ratio(float64(m.big), float64(m.small)))
	}
	t.Logf("%s, n=%d to %dn%s", name, n, Factor, report)
	for _, m := range ms[2:] {
		if m.small <= 0 {
			t.Errorf("%s: %s counted nothing at n=%d: the code under test does not keep this counter", name, m.name, n)
		}
	}
	for _, m := range ms {
		if m.tooMuch() {
			t.Errorf("%s: %s grow %.1f× from n=%d to %dn (%d → %d): not linear", name, m.name, ratio(float64(m.big), float64(m.small)), n, Factor, m.small, m.big)
		}
	}
	if Timing() {
		linearTime(t, name, f, n, maxTime)
	}
}

// measures pairs the counts at n and Factor·n: the bytes and the objects
// allocated, then each counter.
func measures(small, big []int64, counters []Counter) []measure {
	ms := []measure{
		{"bytes allocated", small[0], big[0], slack.bytes},
		{"objects allocated", small[1], big[1], slack.objects},
	}
	for i, c := range counters {
		ms = append(ms, measure{c.Name, small[2+i], big[2+i], 0})
	}
	return ms
}

func (m measure) tooMuch() bool {
	return float64(m.big) > MaxRatio*float64(m.small)+float64(m.slack)
}

func failing(ms []measure) bool {
	for _, m := range ms {
		if m.tooMuch() {
			return true
		}
	}
	return false
}

// linearTime is Linear's time check (EnvTiming only): f(n) and
// f(Factor·n) three times each, interleaved so a slow spell of a shared machine hits both,
// keeping each one's least CPU time (the least disturbed run), measured
// again up to tries times while the ratio is above MaxTimeRatio. CPU time,
// not wall time: a process that waits for a core is not charged for the
// wait.
func linearTime(t testing.TB, name string, f func(n int), n int, maxTime float64) {
	t.Helper()
	var small, big time.Duration
	sizes := [2]int{n, Factor * n}
	for try := 0; try < tries; try++ {
		small, big = 0, 0
		for i := 0; i < 3; i++ {
			for k, d := range []*time.Duration{&small, &big} {
				runtime.GC()
				start := cpuTime()
				f(sizes[k])
				if took := cpuTime() - start; i == 0 || took < *d {
					*d = took
				}
			}
		}
		if ratio(float64(big), float64(small)) <= maxTime {
			break
		}
	}
	tr := ratio(float64(big), float64(small))
	t.Logf("%s: CPU time n=%d %v, %dn %v (%.1f×)", name, n, small, Factor, big, tr)
	if tr > maxTime {
		t.Errorf("%s: CPU time grows %.1f× from n=%d to %dn (%v → %v): not linear", name, tr, n, Factor, small, big)
	}
}

func ratio(big, small float64) float64 {
	if small <= 0 {
		small = 1
	}
	return big / small
}
