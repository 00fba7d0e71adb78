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
	// Next waits for what happens next and says what it is. An action
	// arrives (Arrived, with the action) when one is due at or before due,
	// or at any time when the run has no deadline (has is false); else
	// the deadline falls due (Due) once the time reaches due; Over when
	// nothing more will happen: no deadline is left and nothing more will
	// arrive. Once the run has ended (ended), a clock may be over at once
	// or go on delivering what arrives, which the run rejects. Now, after
	// Next, is when it happened (or later, when a step's attempts held it).
	Next(due Ticks, has, ended bool) (Happening, Action, error)
}

// Happening is what Clock.Next found.
type Happening uint8

const (
	Arrived Happening = iota + 1 // an action arrived
	Due                          // the deadline fell due
	Over                         // nothing more will happen
)

// Executor performs a run's external effects: its calls and its durable
// steps' attempts. Run's virtual executor fails the attempts the scenario
// says and succeeds the rest; integration/temporal's runs them as
// activities.
type Executor interface {
	// Call performs an external call made outside a durable step.
	Call(inv Invocation)
	// Step runs a durable step from Now: attempt after attempt, each
	// performing calls, waiting the step's policy (sched) between failed
	// attempts, until one succeeds or the budget is spent. It returns when
	// each attempt started and whether the last succeeded; Now is then the
	// end of the last attempt. An executor may stop early, with fewer
	// Starts than the budget and OK false, saying why in Stop; the run
	// then stops.
	Step(s *check.Step, sched *codegen.Schedule, calls []Invocation) StepResult
}

// Invocation is an external call: the call statement, its dotted name and
// its evaluated arguments.
type Invocation struct {
	Call *check.Call
	Name string
	Args []Value
}

// StepResult is what running a durable step's attempts came to.
type StepResult struct {
	Starts []Ticks // when each attempt started
	OK     bool    // the last attempt succeeded
	// Stop, when the executor stopped early, says why (the run's stopped
	// entry); "" otherwise.
	Stop string
}

// Drive runs the machine to its end: the one drive loop of every engine.
// An Autostart workflow starts at time 0; then, as the clock says, what
// arrives is done (an action at one instant before the deadlines of that
// instant, in the order it arrived) and what falls due fires, until the
// clock is over. What arrives after the end is rejected; once the
// transcript is full it is not recorded. Drive returns the clock's error,
// if any; the transcript says how the run ended.
func (m *Machine) Drive() error {
	if m.wf.Autostart {
		m.start(0)
	}
	for !m.ended || !m.full() {
		due, has := m.nextDeadline()
		h, a, err := m.clock.Next(due, has, m.ended)
		if err != nil {
			return err
		}
		switch h {
		case Arrived:
			m.do(a)
		case Due:
			m.fire()
		default:
			m.finish()
			return nil
		}
	}
	return nil
}

// do does one action: the only place a scenario's or an engine's action
// reaches the machine.
func (m *Machine) do(a Action) {
	switch a.Kind {
	case ActStart:
		m.start(a.At)
	case ActSend:
		m.send(a.Event, a.Args, a.At)
	case ActTake:
		m.take(a.Slot, a.At)
	}
}
