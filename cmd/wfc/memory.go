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
// (a program's syntax tree and checker state take 15–18 bytes per byte of
// source), and small inputs are not squeezed for memory they can spare.
const (
	memoryPerByte = 27
	memoryBase    = 256 << 20
)

// gcPercent is GOGC unless the user set it. Parsing makes about 116 bytes of
// short-lived garbage per input byte; collecting it less often than Go's
// default (100) saves a sixth of the CPU on 100 files, and the memory limit
// bounds what that costs in memory.
const gcPercent = 400

// raiseAt is the share of the limit (in percent) past which the live heap
// makes the limit step aside: the collector would otherwise run back to back
// to stay under it (thrash; 1M enum members took 24 s with the limit instead
// of 4.9 s without). The limit is then lifted and GOGC set back to Go's
// default, 100 (unless the user set GOGC): such an input uses more memory
// than memoryPerByte, as much as Go's defaults give it, and the collector
// runs as often as by default, not more.
const raiseAt = 85

// defaultGC is GOGC once the limit has stepped aside.
const defaultGC = 100

// limitMemory sets GOGC and a soft memory limit proportional to the input,
// unless the user set GOMEMLIMIT (then it leaves both alone) or GOGC (then it
// keeps that), and watches the live heap after every collection so the limit
// never thrashes. The returned function ends the watch and restores the
// previous settings (tests run the command many times in one process).
func limitMemory(l *loaded) (restore func()) { return limitMemoryFrom(l, memoryBase) }

// limitMemoryFrom is limitMemory with the least limit base (tests put small
// inputs under the limit's pressure by giving 0).
func limitMemoryFrom(l *loaded, base int64) (restore func()) {
	_, restore = startLimit(l, base, memoryPerByte)
	return restore
}

// startLimit is limitMemoryFrom with the bytes of limit per input byte,
// returning the watch it started (nil when the user's GOMEMLIMIT leaves
// the settings alone): tests choose a program the limit cannot hold and
// wait on what the watch saw.
func startLimit(l *loaded, base, perByte int64) (w *heapWatch, restore func()) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return nil, func() {}
	}
	prevGC := -2
	if os.Getenv("GOGC") == "" {
		prevGC = debug.SetGCPercent(gcPercent)
	}
	var n int64
	for _, s := range l.sources {
		n += int64(len(s.Src))
	}
	w = &heapWatch{limit: max(base, perByte*n), setGC: prevGC != -2}
	prevLimit := debug.SetMemoryLimit(w.limit)
	w.arm()
	return w, func() {
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

// stepAside reports whether the limit should step aside after a collection,
// given the live heap after the last few. The smallest counts: readings vary from one
// collection to the next (150–220 MB on the 500,000-line file; what is
// allocated during a mark counts as live), while a heap that really outgrew
// the limit stays there.
func stepAside(limit int64, recent [readings]int64) bool {
	live := int64(math.MaxInt64 / 200)
	for _, r := range recent {
		live = min(live, r)
	}
	return live*100 > limit*raiseAt
}

// heapWatch lifts the memory limit when the live heap comes near it. It
// runs after each collection, from a finalizer that re-arms itself, so no
// goroutine polls.
type heapWatch struct {
	limit   int64           // the soft memory limit set
	setGC   bool            // GOGC is ours to set
	recent  [readings]int64 // the live heap after the last collections
	n       int             // collections seen
	seen    atomic.Int64    // n, for another goroutine to read
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
		w.seen.Store(int64(w.n))
		if w.n >= readings && stepAside(w.limit, w.recent) {
			debug.SetMemoryLimit(math.MaxInt64)
			if w.setGC {
				debug.SetGCPercent(defaultGC)
			}
			return // nothing left to watch
		}
	}
	runtime.SetFinalizer(s, (*sentinel).afterGC)
}
