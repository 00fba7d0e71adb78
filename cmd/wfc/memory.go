package main

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// The collector's settings are process state, so they live here, in the
// command, never in a library. The measurements behind them are in
// docs/limits.md.

// The soft memory limit is memoryPerByte bytes per input byte, and at least
// memoryBase: peak RSS (which the limit does not all cover: the binary, the
// runtime's own structures) stays within 30 bytes per input byte on large inputs
// (a program's syntax tree and checker state take about 18 bytes per byte of
// source), and small inputs are not squeezed for memory they can spare.
const (
	memoryPerByte = 24
	memoryBase    = 256 << 20
)

// gcPercent is GOGC unless the user set it. Parsing makes about 300 bytes of
// short-lived garbage per input byte; collecting it less often than Go's
// default (100) saves a quarter of the CPU on 100 files, and the memory limit
// bounds what that costs in memory.
const gcPercent = 400

// raiseAt is the share of the limit (in percent) past which the live heap
// makes the limit step aside: the collector would otherwise run back to back
// to stay under it (thrash; 1M enum members took 24 s with the limit instead
// of 4.9 s without). The limit is then raised to twice the live heap, what
// Go's default GOGC=100 would allow: such an input uses more memory than
// memoryPerByte, but the collector never runs far more often than by default.
const raiseAt = 85

// limitMemory sets GOGC and a soft memory limit proportional to the input,
// unless the user set GOMEMLIMIT (then it leaves both alone) or GOGC (then it
// keeps that), and watches the live heap after every collection so the limit
// never thrashes. The returned function ends the watch and restores the
// previous settings (tests run the command many times in one process).
func limitMemory(l *loaded) (restore func()) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	prevGC := -2
	if os.Getenv("GOGC") == "" {
		prevGC = debug.SetGCPercent(gcPercent)
	}
	var n int64
	for _, s := range l.sources {
		n += int64(len(s.Src))
	}
	w := &heapWatch{limit: max(memoryBase, memoryPerByte*n)}
	prevLimit := debug.SetMemoryLimit(w.limit)
	w.arm()
	return func() {
		w.stopped.Store(true)
		debug.SetMemoryLimit(prevLimit)
		if prevGC != -2 {
			debug.SetGCPercent(prevGC)
		}
	}
}

// readings is how many collections in a row must find the live heap past
// raiseAt before the limit steps aside.
const readings = 3

// nextLimit returns the memory limit to use after a collection, given the
// live heap after the last few. The smallest counts: on a loaded machine a
// slow concurrent mark counts everything allocated meanwhile as live, so a
// reading can be far too high, while a heap that really outgrew the limit
// stays there.
func nextLimit(limit int64, recent [readings]int64) int64 {
	live := int64(math.MaxInt64 / 200)
	for _, r := range recent {
		live = min(live, r)
	}
	if live*100 > limit*raiseAt {
		return 2 * live
	}
	return limit
}

// heapWatch raises the memory limit when the live heap comes near it. It
// runs after each collection, from a finalizer that re-arms itself, so no
// goroutine polls.
type heapWatch struct {
	limit   int64           // touched only by the finalizer goroutine after arm
	recent  [readings]int64 // the live heap after the last collections
	n       int             // collections seen
	stopped atomic.Bool
	sample  [1]metrics.Sample
}

// sentinel is garbage the collector finds every cycle; its finalizer is the
// hook.
type sentinel struct{ w *heapWatch }

func (w *heapWatch) arm() {
	w.sample[0].Name = "/gc/heap/live:bytes"
	runtime.SetFinalizer(&sentinel{w}, (*sentinel).afterGC)
}

func (s *sentinel) afterGC() {
	w := s.w
	if w.stopped.Load() {
		return
	}
	metrics.Read(w.sample[:])
	if w.sample[0].Value.Kind() == metrics.KindUint64 {
		w.recent[w.n%readings] = int64(min(w.sample[0].Value.Uint64(), math.MaxInt64))
		w.n++
		if next := nextLimit(w.limit, w.recent); w.n >= readings && next != w.limit {
			w.limit = next
			debug.SetMemoryLimit(next)
		}
	}
	runtime.SetFinalizer(s, (*sentinel).afterGC)
}
