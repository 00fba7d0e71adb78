package interp

import (
	"math"
	"strconv"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/check/timespan"
	"github.com/wfc-lang/wfc/codegen"
)

// Durable steps (docs/language.md, "Running a workflow"). A step's record
// lasts for the whole run and its name is its identity: the attempts it
// has made, and whether it is done, gave up (and why) or was cancelled.
// Reaching a done step runs nothing (skip); reaching one that gave up
// gives up again at once, for the same reason, and its catch runs again;
// reaching a cancelled one goes on with its next attempt, at once, within
// the same budget.
//
// The machine runs one attempt at a time through its Executor. Between
// attempts the step waits on a timer of the drive loop, and an attempt
// that takes time ends on one, so the run goes on meanwhile: the fiber
// that reached the step is parked (fiber.go) until the step is done or
// has given up. Leaving the state cancels it.

// stepStatus is where a step's record stands.
type stepStatus uint8

const (
	stepNew       stepStatus = iota // never reached
	stepActive                      // an attempt runs, or it waits before the next
	stepDone                        // an attempt succeeded
	stepGaveUp                      // it gave up (cause)
	stepCancelled                   // its state was left while it was active
)

// stepPhase is what a parked step waits for.
type stepPhase uint8

const (
	attempting stepPhase = iota + 1 // an attempt's end
	retrying                        // the wait before the next attempt
)

// endHow is how a running attempt ends.
type endHow uint8

const (
	endReport   endHow = iota + 1 // as the engine reported
	endTimeout                    // its timeout passed first
	endDeadline                   // the step's deadline passed first
)

// stepRun is a step's record.
type stepRun struct {
	s      *check.Step
	sched  *codegen.Schedule
	status stepStatus
	n      int64 // attempts made
	first  Ticks // when attempt 1 started
	last   Ticks // when the last attempt started
	cause  check.Cause
	kind   *check.EnumMember
	fib    *fiber // the fiber that reached it last (parked in it while active)
	calls  []Invocation

	// While parked: what it waits for, its timer (when timed), and the
	// attempt running with its report, when the engine gave it at once
	// (known) and how it ends.
	phase stepPhase
	timed bool
	due   Ticks
	seq   uint64
	att   *Attempt
	rep   Report
	known bool
	how   endHow
}

// ends reports whether r's timer is its running attempt's end as the
// engine said (not a timeout or a deadline cutting it).
func (r *stepRun) ends() bool { return r.phase == attempting && r.known && r.how == endReport }

// flow is what the step machinery leaves the fiber that reached it to do.
type flow uint8

const (
	goOn       flow = iota + 1 // the step is done, or gave up and its catch's case is next: go on
	parkedHere                 // the step runs or waits: the fiber parks
	halted                     // the run ended or stopped
)

// stepRec is s's record, made at its first reaching; nil when s has no
// schedule (a program with errors, which is never run).
func (m *Machine) stepRec(s *check.Step) *stepRun {
	if r := m.steps[s]; r != nil {
		return r
	}
	sched := m.scheds[s.Consumer]
	if sched == nil {
		return nil
	}
	r := &stepRun{s: s, sched: sched}
	m.steps[s] = r
	return r
}

// budget is how many attempts the step may make: its `.MaxAttempts(…)`,
// none without a policy but the first, or, bounded by its `deadline:`
// alone, as many as start before the deadline (which the run checks as
// it goes: a Retry-After shorter than the policy's waits fits more in
// than the table, which counts nominal waits, shows).
func (r *stepRun) budget() int64 {
	if c := r.s.Consumer; c.Budget == check.BudgetDeadline {
		return math.MaxInt64
	}
	return r.s.Consumer.Attempts
}

// deadlineAt is when the step's deadline passes, counted from its first
// attempt's start (TimeSpan.MaxValue when that lies past it: never).
func (r *stepRun) deadlineAt() Ticks {
	if r.s.Deadline > timespan.MaxTicks-r.first {
		return timespan.MaxTicks
	}
	return r.first + r.s.Deadline
}

// reach is a fiber reaching step s: by the step's record, a skip, a
// give-up again, or its next attempt.
func (m *Machine) reach(s *check.Step, fib *fiber) flow {
	r := m.stepRec(s)
	if r == nil {
		m.stop("step " + strconv.Quote(s.Key) + " has no schedule")
		return halted
	}
	switch r.status {
	case stepDone:
		e := m.now(KSkip)
		e.Name, e.N = s.Key, r.n
		m.record(&e, s)
		return goOn
	case stepGaveUp:
		e := m.now(KSkip)
		e.Name, e.N, e.Cause, e.ErrorKind = s.Key, r.n, r.cause, kindName(r.kind)
		m.record(&e, s)
		r.fib = fib
		return m.caught(r)
	case stepActive:
		m.stop("step " + strconv.Quote(s.Key) + " is reached while it runs")
		return halted
	}
	r.fib, r.status = fib, stepActive
	r.calls = r.calls[:0]
	if s.Body != nil {
		for _, st := range s.Body.Stmts {
			if c, ok := st.(*check.Call); ok {
				r.calls = append(r.calls, m.invocation(c, fib.f))
			}
		}
	}
	return m.attempts(r)
}

// attempts makes r's attempts from now, one after the other while none
// takes time or waits, until the step parks, is done, or gives up.
func (m *Machine) attempts(r *stepRun) flow {
	for {
		f, again := m.attempt(r)
		if !again {
			return f
		}
	}
}

// attempt starts r's next attempt now. again: it ended at once and the
// next one starts at once too.
func (m *Machine) attempt(r *stepRun) (flow, bool) {
	now := m.clock.Now()
	if r.n >= r.budget() {
		return m.giveUp(r, check.CauseExhausted, nil), false
	}
	if r.n > 0 && r.s.HasDeadline && now > r.deadlineAt() {
		return m.giveUp(r, check.CauseDeadline, nil), false
	}
	r.n++
	if r.n == 1 {
		r.first = now
	}
	r.last = now
	name := r.s.Key
	e := m.now(KAttempt)
	e.Name, e.N = name, r.n
	if b := r.budget(); b != math.MaxInt64 {
		e.Of = b
	}
	m.record(&e, r.s)
	for i := range r.calls {
		c := &r.calls[i]
		e := m.now(KCall)
		e.Name, e.Args = c.Name, m.texts(c.Args)
		m.record(&e, c)
	}
	if m.ended {
		return halted, false
	}
	a := &Attempt{Step: r.s, N: r.n, Calls: r.calls, Start: now, Timeout: r.s.Timeout, Schedule: r.sched}
	if r.s.HasDeadline {
		a.Deadline, a.HasDeadline = r.deadlineAt(), true
	}
	r.att = a
	rep, known := m.exec.Attempt(a)
	if !known {
		// The engine reports when the attempt ends; the machine's own
		// timers cut it short at its timeout or the step's deadline.
		r.known, r.how = false, 0
		due, how := timespan.MaxTicks, endHow(0)
		if r.s.Timeout > 0 && r.s.Timeout <= timespan.MaxTicks-now {
			due, how = now+r.s.Timeout, endTimeout
		}
		if r.s.HasDeadline && r.deadlineAt() < due {
			due, how = r.deadlineAt(), endDeadline
		}
		r.how = how
		m.park(r, attempting, due, how != 0)
		return parkedHere, false
	}
	rep.Attempt = a
	r.rep, r.known = rep, true
	if rep.Took > timespan.MaxTicks-now {
		m.stop("attempt " + strconv.FormatInt(r.n, 10) + " of step " + strconv.Quote(name) +
			" would end after TimeSpan.MaxValue")
		return halted, false
	}
	end, how := now+rep.Took, endReport
	if r.s.Timeout > 0 && rep.Took > r.s.Timeout {
		end, how = now+r.s.Timeout, endTimeout
	}
	if r.s.HasDeadline && end > r.deadlineAt() {
		end, how = r.deadlineAt(), endDeadline
	}
	r.how = how
	if end == now {
		return m.attemptEnded(r, how)
	}
	m.park(r, attempting, end, true)
	return parkedHere, false
}

// attemptEnded ends r's running attempt as how says: done, failed (then
// retried, or given up), timed out (a retryable failure), or stopped by
// the deadline (given up).
func (m *Machine) attemptEnded(r *stepRun, how endHow) (flow, bool) {
	name := r.s.Key
	switch how {
	case endDeadline:
		m.exec.Cancel(r.att)
		return m.giveUp(r, check.CauseDeadline, nil), false
	case endTimeout:
		m.exec.Cancel(r.att)
		e := m.now(KTimeout)
		e.Name, e.N, e.Wait = name, r.n, r.s.Timeout
		m.record(&e, r.s)
		return m.retry(r, Report{})
	}
	rep := r.rep
	if rep.OK {
		e := m.now(KDone)
		e.Name, e.N = name, r.n
		m.record(&e, r.s)
		r.status = stepDone
		return goOn, false
	}
	e := m.now(KFail)
	e.Name, e.N, e.ErrorKind = name, r.n, kindName(rep.Kind)
	if rep.HasRetryAfter {
		e.RetryAfter, e.Wait = true, rep.RetryAfter
	}
	m.record(&e, r.s)
	if rep.NonRetryable || r.s.Consumer.Policy.Terminal(rep.Kind) {
		return m.giveUp(r, check.CauseTerminal, rep.Kind), false
	}
	return m.retry(r, rep)
}

// retry follows a retryable failure of r's attempt: the next attempt
// after the policy's wait (or the failure's Retry-After), unless the
// budget is spent or the wait would end past the deadline (the step gives
// up) or past TimeSpan.MaxValue (the run stops).
func (m *Machine) retry(r *stepRun, rep Report) (flow, bool) {
	if r.n >= r.budget() {
		return m.giveUp(r, check.CauseExhausted, nil), false
	}
	now := m.clock.Now()
	// A Retry-After replaces the policy's wait, which is then not drawn.
	w := rep.RetryAfter
	if !rep.HasRetryAfter {
		w = m.policyWait(r.sched, r.n+1, r.last, now)
	}
	if w > timespan.MaxTicks-now {
		m.stop("attempt " + strconv.FormatInt(r.n+1, 10) + " of step " + strconv.Quote(r.s.Key) +
			" would start after TimeSpan.MaxValue")
		return halted, false
	}
	next := now + w
	if r.s.HasDeadline && next > r.deadlineAt() {
		return m.giveUp(r, check.CauseDeadline, nil), false
	}
	e := m.now(KWait)
	e.Name, e.N, e.Wait, e.RetryAfter = r.s.Key, r.n+1, w, rep.HasRetryAfter
	m.record(&e, r.s)
	if m.ended {
		return halted, false
	}
	if w == 0 {
		return 0, true
	}
	m.park(r, retrying, next, true)
	return parkedHere, false
}

// giveUp records that r gave up, and why; its catch decides what follows.
func (m *Machine) giveUp(r *stepRun, cause check.Cause, kind *check.EnumMember) flow {
	r.status, r.cause, r.kind = stepGaveUp, cause, kind
	e := m.now(KGiveUp)
	e.Name, e.N, e.Cause, e.ErrorKind = r.s.Key, r.n, cause, kindName(kind)
	m.record(&e, r.s)
	return m.caught(r)
}

// caught runs the case of r's catch that takes its give-up next in its
// fiber; without one the run ends in error, the message naming the cause.
func (m *Machine) caught(r *stepRun) flow {
	fib := r.fib
	if m.ended {
		return halted
	}
	cc := r.s.Catch.For(r.cause, r.kind)
	if cc == nil || fib == nil {
		m.leave("the run ended")
		e := m.now(KEnd)
		e.Error = true
		e.Message = "step " + strconv.Quote(r.s.Key) + " gave up after " + Attempts(r.n) + " (" +
			Entry{Cause: r.cause, ErrorKind: kindName(r.kind)}.causeText() + ")"
		m.record(&e, m.state)
		m.ended = true
		return halted
	}
	m.told(cc)
	m.push(fib, cc.Body)
	return goOn
}

// park makes r wait: for its attempt's end or the next attempt, on a
// timer at due when timed (an attempt whose engine reports by itself may
// have none).
func (m *Machine) park(r *stepRun, ph stepPhase, due Ticks, timed bool) {
	m.seq++
	r.phase, r.due, r.timed, r.seq = ph, due, timed, m.seq
	m.parked = append(m.parked, r)
}

// unpark takes r off the parked steps.
func (m *Machine) unpark(r *stepRun) {
	for i, p := range m.parked {
		if p == r {
			m.parked = append(m.parked[:i], m.parked[i+1:]...)
			return
		}
	}
}

// stepDue handles r's timer: its next attempt starts, or its running
// attempt ends (as reported, or cut by its timeout or deadline).
func (m *Machine) stepDue(r *stepRun) {
	m.unpark(r)
	var f flow
	var again bool
	if r.phase == retrying {
		f, again = m.attempt(r)
	} else {
		f, again = m.attemptEnded(r, r.how)
	}
	if again {
		f = m.attempts(r)
	}
	m.after(r, f)
}

// reported takes an engine's report of an attempt that ran on its own;
// a report of an attempt no longer running (cancelled, timed out) is
// dropped.
func (m *Machine) reported(rep *Report) {
	var r *stepRun
	for _, p := range m.parked {
		if p.phase == attempting && !p.known && p.att == rep.Attempt {
			r = p
		}
	}
	if r == nil {
		return
	}
	m.unpark(r)
	r.rep, r.known = *rep, true
	f, again := m.attemptEnded(r, endReport)
	if again {
		f = m.attempts(r)
	}
	m.after(r, f)
}

// after lets the fiber parked in r go on when the step is over (done, or
// gave up and its catch's case is next in the fiber).
func (m *Machine) after(r *stepRun, f flow) {
	if f == goOn && r.fib != nil {
		m.resume(r.fib)
	}
}

// cancel cancels r, parked when the run leaves its state (or ends): no
// further attempt starts, a running attempt is abandoned, and the fiber
// parked in it never goes on.
func (m *Machine) cancel(r *stepRun, why string) {
	if r.phase == attempting {
		m.exec.Cancel(r.att)
	}
	r.status, r.fib, r.timed = stepCancelled, nil, false
	e := m.now(KCancel)
	e.Name, e.N, e.Cause, e.Message = r.s.Key, r.n, check.CauseCancelled, why
	m.record(&e, r.s)
}

// kindName is an error kind as the transcript writes it, `Enum.Member`.
func kindName(k *check.EnumMember) string {
	if k == nil {
		return ""
	}
	return k.Enum.Decl.Name.Name + "." + k.Ident.Name
}
