package wftest

import (
	"fmt"
	"github.com/wfc-lang/wfc/diag"
	"slices"
	"strings"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/check/timespan"
	"github.com/wfc-lang/wfc/interp"
)

// The judge reads a run entry by entry, as the interpreter records it
// (interp.Options.OnEntry), and keeps only what the expectations need:
// each expectation's state, the run's last end, and the few entries
// around the entry a failure is about. So a run's memory does not grow
// with the entries nobody prints (a million-entry run is judged in a few
// kilobytes), and the judge can tell the interpreter when nothing the test
// says can change any more (settled): the run then stops.

// context is how many entries a failure shows on each side of its entry.
const context = 3

// judge is the expectations of one test, judged as the run goes.
type judge struct {
	t     *check.Test
	xs    []*expectation
	n     int // entries seen
	ended bool
	end   interp.Entry // the last end, waiting or stopped entry
	endAt int          // its index, -1 before it
	endIn *check.State // the state it is about
	// recent holds the last context+2 entries, recent[i%len] entry i.
	recent  [context + 2]interp.Entry
	entered bool // the run entered a state: it started
}

// expectation is one expectation's state.
type expectation struct {
	x *check.Expect
	// got and gotAt: the last state entered (at or before At), the
	// attempts' starts, a matching call seen; near the calls of that name.
	got    *check.State
	gotIdx int
	starts []interp.Ticks
	first  int
	gaveUp *interp.Entry
	gaveAt int
	past   bool // the run has passed At
	before bool // it did so at its first entry: no entry is at or before At
	called bool
	near   []string
	want   []wantArg // an expected call's arguments
	// differs: an attempt started other than expected (ExpectAttempts).
	differs bool
	// done: what the expectation is about has happened (or cannot any
	// more): it is decided before the run's end.
	done bool
	// w is the window of entries around its focus.
	w window
}

// window is a failure's entries around its focus entry k.
type window struct {
	k     int
	first int
	lines []interp.Entry
	after int // entries after k still to take
}

func newJudge(t *check.Test) *judge {
	j := &judge{t: t, endAt: -1}
	for _, x := range t.Expects {
		e := &expectation{x: x, gotIdx: -1, first: -1, gaveAt: -1, w: window{k: -1}}
		if x.Kind == check.ExpectCall {
			e.want = wantArgs(x)
		}
		j.xs = append(j.xs, e)
	}
	return j
}

// horizon is the last time the test names: its last action, the last `at:`
// of an expectation, the last attempt time it expects.
func (j *judge) horizon() interp.Ticks {
	var h interp.Ticks
	for _, a := range j.t.Actions {
		h = max(h, a.At)
	}
	for _, x := range j.t.Expects {
		if x.HasAt {
			h = max(h, x.At)
		}
		for _, a := range x.Attempts {
			h = max(h, a)
		}
	}
	return h
}

// settled reports whether nothing the test says can change any more past
// the horizon: every expectation without `at:` is decided (an expectation
// of the state without `at:` is about where the run is once it cannot
// move again, and is never decided before).
func (j *judge) settled() bool {
	for _, e := range j.xs {
		if !e.x.HasAt && !e.done {
			return false
		}
	}
	return true
}

// focus makes entry k e's focus, with the entries around it that the
// ring holds (up to the one being read, i); the window then takes the
// entries after them as they come.
func (j *judge) focus(e *expectation, k, i int) {
	e.w.k, e.w.first = k, max(0, k-context)
	e.w.after = context - (i - k)
	e.w.lines = e.w.lines[:0]
	for n := e.w.first; n <= i; n++ {
		e.w.lines = append(e.w.lines, j.recent[n%len(j.recent)])
	}
}

// entry reads entry i of the run, about the model object about.
func (j *judge) entry(i int, en *interp.Entry, about interp.Subject) {
	j.n = i + 1
	j.recent[i%len(j.recent)] = *en
	switch en.Kind {
	case interp.KEnter:
		j.entered = true
	case interp.KEnd, interp.KWaiting, interp.KStopped:
		j.end, j.endAt = *en, i
		j.endIn, _ = about.(*check.State)
		if en.Kind != interp.KWaiting {
			j.ended = true
		}
	}
	for _, e := range j.xs {
		if e.w.k >= 0 && e.w.k < i && e.w.after > 0 {
			e.w.lines = append(e.w.lines, *en)
			e.w.after--
		}
		j.read(e, i, en, about)
	}
}

// read advances expectation e by entry i.
func (j *judge) read(e *expectation, i int, en *interp.Entry, about interp.Subject) {
	x := e.x
	switch x.Kind {
	case check.ExpectState:
		if x.HasAt && en.At > x.At {
			if !e.past {
				e.past, e.before = true, i == 0
				if i > 0 {
					j.focus(e, i-1, i) // the last entry at or before At
				}
			}
			return
		}
		if en.Kind == interp.KEnter {
			e.got, _ = about.(*check.State)
			e.gotIdx = i
			if !x.HasAt {
				j.focus(e, i, i)
			}
		}
	case check.ExpectEnd, check.ExpectStopped:
		switch en.Kind {
		case interp.KEnd, interp.KStopped:
			e.done = true
			j.focus(e, i, i)
		case interp.KWaiting:
			j.focus(e, i, i)
		}
	case check.ExpectGaveUp:
		if en.Kind == interp.KGiveUp && about == any(x.Step) && e.gaveUp == nil {
			c := *en
			e.gaveUp, e.gaveAt, e.done = &c, i, true
			j.focus(e, i, i)
		}
		if j.ended {
			e.done = true
		}
	case check.ExpectAttempts:
		switch {
		case en.Kind == interp.KAttempt && about == any(x.Step):
			e.starts = append(e.starts, en.At)
			// The focus is the first attempt, until one starts other than
			// expected (or one more than expected starts): then that one,
			// where the failure is.
			k := len(e.starts) - 1
			differs := k >= len(x.Attempts) || x.Attempts[k] != en.At
			if e.first < 0 || differs && !e.differs {
				if e.first < 0 {
					e.first = i
				}
				e.differs = differs
				j.focus(e, i, i)
			}
		case (en.Kind == interp.KDone || en.Kind == interp.KGiveUp) && about == any(x.Step):
			e.done = true
		}
		if j.ended {
			e.done = true
		}
	case check.ExpectCall:
		if en.Kind == interp.KCall && !e.called {
			if inv, _ := about.(*interp.Invocation); inv != nil && slices.Contains(x.Calls, inv.Call) {
				if sameArgs(e.want, inv) && (!x.HasAt || en.At == x.At) {
					e.called, e.done = true, true
				} else {
					if len(e.near) < 20 {
						e.near = append(e.near, en.Name+"("+strings.Join(en.Args, ", ")+") at "+timespan.Format(en.At))
					}
					j.focus(e, i, i)
				}
			}
		}
		if j.ended {
			e.done = true
		}
	}
}

// finish judges every expectation once the run is over, and returns the
// failures in source order.
func (j *judge) finish(t *check.Test) []Failure {
	var out []Failure
	for _, e := range j.xs {
		if f, ok := j.verdict(t, e); !ok {
			out = append(out, f)
		}
	}
	return out
}

// verdict is expectation e's outcome: the run's messages are the ones
// the judge of whole transcripts wrote.
func (j *judge) verdict(t *check.Test, e *expectation) (Failure, bool) {
	x := e.x
	f := Failure{Expect: x, File: t.Decl.File.Name, Range: x.Decl.Range, Entry: j.n - 1}
	at := func() string {
		if x.HasAt {
			return " at " + timespan.Format(x.At)
		}
		return ""
	}
	switch x.Kind {
	case check.ExpectState:
		want := x.State.Decl.Name.Name
		if e.got == x.State {
			return f, true
		}
		switch {
		case e.gotIdx < 0:
			f.Message = fmt.Sprintf("expected state %s%s; the run had not started%s", want, at(), startHint(t))
		default:
			f.Message = fmt.Sprintf("expected state %s%s; the run was in %s", want, at(), e.got.Decl.Name.Name)
		}
	case check.ExpectEnd:
		want := x.State.Decl.Name.Name
		k, end := j.endAt, j.end
		if k >= 0 && end.Kind == interp.KEnd && j.endIn == x.State && (!x.HasAt || end.At == x.At) {
			return f, true
		}
		switch {
		case k < 0 && !j.entered:
			f.Message = fmt.Sprintf("expected the run to end in %s%s; the run never started%s", want, at(), startHint(t))
		case k < 0:
			f.Message = fmt.Sprintf("expected the run to end in %s%s; the transcript has no end", want, at())
		case end.Kind == interp.KWaiting:
			f.Message = fmt.Sprintf("expected the run to end in %s%s; it was still waiting in %s at %s", want, at(), end.State, timespan.Format(end.At))
		case end.Kind == interp.KStopped:
			f.Message = fmt.Sprintf("expected the run to end in %s%s; it was stopped: %s", want, at(), end.Message)
		default:
			f.Message = fmt.Sprintf("expected the run to end in %s%s; it ended in %s at %s", want, at(), end.State, timespan.Format(end.At))
			if end.Error && end.State != "" && !strings.Contains(end.Message, end.State) {
				f.Message += " (" + end.Message + ")"
			}
		}
	case check.ExpectGaveUp:
		if g := e.gaveUp; g != nil {
			if !x.HasAt || g.At == x.At {
				return f, true
			}
			f.Message = fmt.Sprintf("expected step %q to give up%s; it gave up at %s", x.Step.Key, at(), timespan.Format(g.At))
		} else {
			f.Message = fmt.Sprintf("expected step %q to give up%s; it did not%s", x.Step.Key, at(), j.howEnded())
		}
	case check.ExpectAttempts:
		if slices.Equal(e.starts, x.Attempts) {
			return f, true
		}
		f.Message = fmt.Sprintf("expected step %q's attempts at %s; they were at %s%s", x.Step.Key, ticksList(x.Attempts), ticksList(e.starts), j.stoppedWhy())
	case check.ExpectCall:
		if e.called {
			return f, true
		}
		want := x.Call + "(" + strings.Join(argTexts(x.Args), ", ") + ")"
		if len(e.near) == 0 {
			f.Message = fmt.Sprintf("expected the call %s%s; the run made no call to %s", want, at(), x.Call)
		} else {
			f.Message = fmt.Sprintf("expected the call %s%s; the run called %s", want, at(), strings.Join(e.near, ", "))
		}
	case check.ExpectStopped:
		if j.endAt >= 0 && j.end.Kind == interp.KStopped && (!x.HasAt || j.end.At == x.At) {
			return f, true
		}
		if j.endAt >= 0 && j.end.Kind == interp.KStopped {
			f.Message = fmt.Sprintf("expected the run to be stopped at a limit%s; it was stopped at %s: %s", at(), timespan.Format(j.end.At), j.end.Message)
		} else {
			f.Message = fmt.Sprintf("expected the run to be stopped at a limit%s; it was not%s", at(), j.howEnded())
		}
	}
	j.context(&f, e)
	return f, false
}

// context gives failure f its entry and the entries around it: those of
// the expectation's window, or the run's last ones, each line escaped
// (diag.Escape) as Around escapes them.
func (j *judge) context(f *Failure, e *expectation) {
	w := e.w
	if w.k < 0 {
		// The run's last entries.
		w = window{k: j.n - 1, first: max(0, j.n-1-context)}
		for k := w.first; k < j.n; k++ {
			w.lines = append(w.lines, j.recent[k%len(j.recent)])
		}
	}
	f.Entry = w.k
	if e.before {
		f.Entry = -1 // no entry is at or before the time it asks about
	}
	var b strings.Builder
	if w.first > 0 {
		fmt.Fprintf(&b, "      … %d earlier entries\n", w.first)
	}
	for i, en := range w.lines {
		mark := "  "
		if w.first+i == w.k {
			mark = "> "
		}
		b.WriteString("    " + mark + diag.Escape(en.String()) + "\n") // names and arguments came from the program
	}
	if rest := j.n - (w.first + len(w.lines)); rest > 0 {
		fmt.Fprintf(&b, "      … %d later entries\n", rest)
	}
	f.Context = b.String()
}

// howEnded says how the run ended, after "it did not": "; the run was
// stopped at 3h: …", "; the run ended in Paid at 31s", "; the run was
// still waiting in A at 5m" ("" for a run that never started).
func (j *judge) howEnded() string {
	if j.endAt < 0 {
		return ""
	}
	e := j.end
	switch e.Kind {
	case interp.KStopped:
		return fmt.Sprintf("; the run was stopped at %s: %s", timespan.Format(e.At), e.Message)
	case interp.KWaiting:
		return fmt.Sprintf("; the run was still waiting in %s at %s", e.State, timespan.Format(e.At))
	}
	if e.Error {
		return fmt.Sprintf("; the run ended in %s at %s (%s)", e.State, timespan.Format(e.At), e.Message)
	}
	return fmt.Sprintf("; the run ended in %s at %s", e.State, timespan.Format(e.At))
}

// stoppedWhy is howEnded for a run stopped at a limit, else "".
func (j *judge) stoppedWhy() string {
	if j.endAt >= 0 && j.end.Kind == interp.KStopped {
		return j.howEnded()
	}
	return ""
}
