package interp

import (
	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/codegen"
)

// Clock is a run's time and what reaches the run from outside, as one
// engine has them. The drive loop (Machine.Drive) asks it what happens
// next and nothing else: Run's virtual clock jumps to it, and
// integration/temporal's waits for it on Temporal's timers and signals.
type Clock interface {
	// Now is the run's time, in ticks from its start.
	Now() Ticks
	// Next waits for what happens next and says what it is. Something
	// arrives (Arrived, with the action; or Reported, with an attempt's
	// report in Action.Report) when it is due at or before due, or at any
	// time when the run has no deadline (has is false); else the deadline
	// falls due (Due) once the time reaches due; Over when nothing more
	// will happen: no deadline is left, nothing more will arrive and no
	// attempt the engine runs is still to report. Once the run has ended
	// (ended), a clock may be over at once or go on delivering what
	// arrives, which the run rejects. Now, after Next, is when it
	// happened (or later, when the engine delivers late).
	Next(due Ticks, has, ended bool) (Happening, Action, error)
}

// Happening is what Clock.Next found.
type Happening uint8

const (
	Arrived  Happening = iota + 1 // an action arrived
	Due                           // the deadline fell due
	Over                          // nothing more will happen
	Reported                      // an attempt the engine ran reports (Action.Report)
)

// Executor performs a run's external effects: its calls and its durable
// steps' attempts. Run's virtual executor fails the attempts the scenario
// says and succeeds the rest, taking the time it says; integration/temporal
// runs them as activities.
//
// The machine asks for one attempt at a time and keeps everything else
// itself: the step's record (attempts made over the whole run, done or
// gave up), the waits between attempts (timers of the drive loop, so that
// events, slots and deadlines are handled while a step waits), the
// attempt's timeout and the step's deadline (timers too), its error kinds
// and Retry-After. An engine only runs an attempt and says how it went.
type Executor interface {
	// Call performs an external call made outside a durable step.
	Call(inv Invocation)
	// Attempt starts attempt a at Now: it performs a.Calls. An engine
	// that knows at once how the attempt goes (the virtual one) returns
	// its Report and true; the machine ends the attempt Report.Took later,
	// on the run's clock (cut short by the step's timeout or deadline). An
	// engine whose attempts run on their own (Temporal's activities)
	// returns false and hands the report to the run later, through its
	// Clock (Next returns Reported), stamped with when it came.
	Attempt(a *Attempt) (Report, bool)
	// Cancel abandons attempt a, which has not ended: its step timed out,
	// passed its deadline, or was cancelled (its state was left). A report
	// of it that comes later is dropped.
	Cancel(a *Attempt)
}

// Invocation is an external call: the call statement, its dotted name and
// its evaluated arguments.
type Invocation struct {
	Call *check.Call
	Name string
	Args []Value
}

// Attempt is one attempt of a durable step, as the machine asks an engine
// to run it.
type Attempt struct {
	Step *check.Step
	// N is the attempt's number, counted over the whole run (the step's
	// record: a step cancelled and reached again goes on counting).
	N int64
	// Calls are the step's body's calls, evaluated.
	Calls []Invocation
	// Start is when it starts, in ticks from the run's start.
	Start Ticks
	// Timeout, if positive, is the attempt's limit (the step's
	// `timeout:`); Deadline, when HasDeadline, is when the step's
	// `deadline:` passes, in ticks from the run's start. The machine
	// enforces both on its own clock; an engine may also hand them on
	// (Temporal's StartToClose and ScheduleToClose timeouts).
	Timeout     Ticks
	Deadline    Ticks
	HasDeadline bool
	// Schedule is the step's lowered schedule.
	Schedule *codegen.Schedule
}

// Report is how an attempt went.
type Report struct {
	// Attempt is the attempt reported on.
	Attempt *Attempt
	// Took is how long it ran: it ends at Attempt.Start + Took.
	Took Ticks
	// OK: it succeeded. Otherwise it failed: of Kind (nil: of no kind),
	// terminally whatever the policy says when NonRetryable (an engine's
	// own non-retryable error), and, when HasRetryAfter, with the
	// server's delay before the next attempt (RetryAfter), which replaces
	// the policy's wait.
	OK            bool
	Kind          *check.EnumMember
	NonRetryable  bool
	RetryAfter    Ticks
	HasRetryAfter bool
}

// Drive runs the machine to its end: the one drive loop of every engine.
// An Autostart workflow starts at time 0; then, as the clock says, what
// arrives is done (an action at one instant before the deadlines of that
// instant, in the order it arrived), what an engine reports is taken, and
// what falls due fires, until the clock is over. What arrives after the
// end is rejected; once the transcript is full it is not recorded. Drive
// returns the clock's error, if any, or ErrStopped once Done is closed;
// the transcript says how the run ended.
func (m *Machine) Drive() error {
	if m.isDone() {
		return ErrStopped
	}
	if m.wf.Autostart {
		m.start(0)
	}
	for turn := 1; !m.ended || !m.full(); turn++ {
		if turn%doneEvery == 0 && m.isDone() {
			return ErrStopped
		}
		due, has := m.nextDeadline()
		h, a, err := m.clock.Next(due, has, m.ended)
		if err != nil {
			return err
		}
		switch h {
		case Arrived:
			m.do(a)
		case Reported:
			if a.Report != nil {
				m.reported(a.Report)
			}
		case Due:
			m.fire()
		default:
			m.finish()
			return nil
		}
	}
	return nil
}

// doneEvery is how many turns of the drive loop go between two looks at
// Machine.Done: a turn is microseconds, so a stop is heard within a
// millisecond or so, and a run that nobody stops pays nothing.
const doneEvery = 256

// isDone reports whether Done is closed.
func (m *Machine) isDone() bool {
	if m.Done == nil {
		return false
	}
	select {
	case <-m.Done:
		return true
	default:
		return false
	}
}

// do does one action: the only place a scenario's or an engine's action
// reaches the machine.
func (m *Machine) do(a Action) {
	m.acted()
	switch a.Kind {
	case ActStart:
		m.start(a.At)
	case ActSend:
		m.send(a.Event, a.Args, a.At)
	case ActTake:
		m.take(a.Slot, a.At)
	case ActReport:
		if a.Report != nil {
			m.reported(a.Report)
		}
	}
}
