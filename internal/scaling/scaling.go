// Package scaling tests that work grows linearly with its input: it runs a
// function at a size n and at 4n and fails when the time or the bytes
// allocated grow by more than MaxRatio. Linear work grows about 4×, an
// n log n one a little more, quadratic work 16×: the ratio tells them apart
// without any absolute time, so the test holds on slow or shared machines.
package scaling

import (
	"runtime"
	"testing"
	"time"
)

// MaxRatio is the growth of allocated bytes from n to 4n above which work
// is not linear: allocations are deterministic, linear ones measure 4.0.
const MaxRatio = 6.0

// MaxTimeRatio is the same bound for time. Time is noisier, and a larger
// input also misses the caches more (linear inputs measure 4 to 6 here), so
// it sits between linear (4×) and quadratic (16×) growth, nearer the
// quadratic side: a loaded machine (go test runs packages in parallel)
// stretches the larger run more than the smaller.
const MaxTimeRatio = 10.0

// tries is how often a time ratio above MaxTimeRatio is measured again before
// the test fails: a shared machine can stall any single run.
const tries = 5

// CPUTime is the CPU time (user and system, every thread) the process has
// used so far, for benchmarks that report a rate per CPU-second: on a
// shared machine wall time measures the neighbours too.
func CPUTime() time.Duration { return cpuTime() }

// cost is what one run of f took.
type cost struct {
	time  time.Duration
	bytes uint64
}

// measure runs f(n) and f(4n) three times each, interleaved so a slow
// spell of a shared machine hits both, and keeps each one's least CPU time
// (the least disturbed run) and the bytes allocated by its first run. CPU
// time, not wall time: a process that waits for a core while other work
// runs is not charged for the wait.
func measure(f func(n int), n int) (small, big cost) {
	for i := 0; i < 3; i++ {
		for k, c := range []*cost{&small, &big} {
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			start := cpuTime()
			f(n << (2 * k))
			d := cpuTime() - start
			runtime.ReadMemStats(&after)
			if i == 0 || d < c.time {
				c.time = d
			}
			if i == 0 {
				c.bytes = after.TotalAlloc - before.TotalAlloc
			}
		}
	}
	return small, big
}

// Linear fails t when f(4n) takes more than MaxTimeRatio times as long as
// f(n), or allocates more than MaxRatio times as many bytes. Choose n so that f(n) takes several milliseconds, so
// neither the timer's resolution nor a single stall decides.
func Linear(t testing.TB, name string, f func(n int), n int) {
	t.Helper()
	var small, big cost
	for try := 0; try < tries; try++ {
		small, big = measure(f, n)
		if ratio(float64(big.time), float64(small.time)) <= MaxTimeRatio {
			break
		}
	}
	tr := ratio(float64(big.time), float64(small.time))
	br := ratio(float64(big.bytes), float64(small.bytes))
	t.Logf("%s: n=%d %v %d B; 4n %v %d B; ratios time %.1f, bytes %.1f", name, n, small.time, small.bytes, big.time, big.bytes, tr, br)
	if tr > MaxTimeRatio {
		t.Errorf("%s: time grows %.1f× from n=%d to 4n (%v → %v): not linear", name, tr, n, small.time, big.time)
	}
	if br > MaxRatio {
		t.Errorf("%s: allocations grow %.1f× from n=%d to 4n (%d → %d bytes): not linear", name, br, n, small.bytes, big.bytes)
	}
}

func ratio(big, small float64) float64 {
	if small <= 0 {
		small = 1
	}
	return big / small
}
