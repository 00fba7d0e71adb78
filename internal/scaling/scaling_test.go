package scaling

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
)

// recorder is a testing.TB that keeps what Linear reports.
type recorder struct {
	testing.TB
	errors []string
}

func (r *recorder) Helper()             {}
func (r *recorder) Logf(string, ...any) {}
func (r *recorder) Errorf(f string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(f, args...))
}
func (r *recorder) failedWith(word string) bool {
	for _, e := range r.errors {
		if strings.Contains(e, word) {
			return true
		}
	}
	return false
}

var sink [][]byte

// TestLinear: linear work passes, and quadratic work fails on whichever
// count grows: the bytes, the objects, or a counter.
func TestLinear(t *testing.T) {
	t.Setenv(EnvTiming, "")
	var steps atomic.Int64
	tests := []struct {
		name     string
		f        func(n int)
		n        int
		counters []Counter
		fails    string // a word of the failure, "" for none
	}{
		{"linear: bytes, objects and steps", func(n int) {
			sink = nil
			for range n {
				sink = append(sink, make([]byte, 64))
				steps.Add(3)
			}
		}, 2000, []Counter{Count("steps", &steps)}, ""},
		{"n log n steps", func(n int) {
			for k := n; k > 0; k /= 2 {
				steps.Add(int64(n))
			}
		}, 4096, []Counter{Count("steps", &steps)}, ""},
		{"quadratic bytes", func(n int) {
			sink = nil
			for range n {
				sink = append(sink, make([]byte, n))
			}
		}, 500, nil, "bytes allocated"},
		{"quadratic objects", func(n int) {
			sink = nil
			for range n * n / 8 {
				sink = append(sink, make([]byte, 8))
			}
			sink = nil
		}, 300, nil, "objects allocated"},
		{"quadratic steps", func(n int) {
			for range n {
				steps.Add(int64(n))
			}
		}, 1000, []Counter{Count("steps", &steps)}, "steps grow"},
		{"a counter that counts nothing", func(n int) {}, 1000, []Counter{Count("steps", &steps)}, "counted nothing"},
	}
	for _, tt := range tests {
		r := &recorder{}
		Linear(r, tt.name, tt.f, tt.n, tt.counters...)
		switch {
		case tt.fails == "" && len(r.errors) > 0:
			t.Errorf("%s: failed: %v", tt.name, r.errors)
		case tt.fails != "" && !r.failedWith(tt.fails):
			t.Errorf("%s: want a failure on %q, got %v", tt.name, tt.fails, r.errors)
		}
	}
	sink = nil
}

// TestTimingIsOptIn: without WFC_TIMING no time is measured (a function
// that only burns time passes); with it, a quadratic time fails. That last
// verdict rests on time, so it is checked only in a run under WFC_TIMING.
func TestTimingIsOptIn(t *testing.T) {
	envs := []string{"", "0"}
	if Timing() {
		envs = append(envs, "1")
	}
	burn := func(n int) {
		x := 0
		for i := range n * n {
			x ^= i
		}
		sinkInt = x
	}
	var steps atomic.Int64
	count := func(n int) { steps.Add(int64(n)); burn(n) }
	for _, env := range envs {
		t.Setenv(EnvTiming, env)
		for name, check := range map[string]func(testing.TB, string, func(int), int, ...Counter){"Linear": Linear, "NLogN": NLogN} {
			r := &recorder{}
			check(r, "quadratic time", count, 1500, Count("steps", &steps))
			if got, want := r.failedWith("CPU time"), env == "1"; got != want {
				t.Errorf("%s: %s=%q: failed on time %v, want %v (%v)", name, EnvTiming, env, got, want, r.errors)
			}
		}
	}
}

var sinkInt int
