package interp

import (
	"slices"
	"strconv"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/check/timespan"
	"github.com/wfc-lang/wfc/codegen"
)

// phase is where a milestone of the current state is.
type phase uint8

const (
	inWindow phase = iota + 1 // a window is open until due
	inWait                    // the wait after window n runs until due
	settled                   // met, or given up
)

// milestoneRun is a milestone of the state the run is in.
type milestoneRun struct {
	m      *check.Milestone
	sched  *codegen.Schedule
	n      int64 // the current (or last) window
	opened Ticks // when window n opened
	phase  phase
	due    Ticks
}

// subRun is a subscription of the state the run is in: whether its slot
// is taken in this visit, and its handler while it is parked in a step
// (busy) with the events accepted meanwhile, whose handlers wait their
// turn (queue).
type subRun struct {
	sub   *check.Subscription
	taken bool
	busy  *fiber
	queue []queued
}

// queued is an accepted event whose handler waits for the one before it.
type queued struct {
	args []Value
}

// Machine is one run of a workflow: it holds the run's state and decides
// what happens when an action arrives, an attempt reports or a deadline
// falls due. It never reads a clock of its own or sleeps: its Clock says
// the time and what happens next (Drive), its Executor performs calls and
// attempts. It is not safe for concurrent use.
//
// Handlers run as fibers (fiber.go): a handler that reaches a durable step
// parks there while the step's attempts run and wait, and the run goes on
// meanwhile; the step's record lasts for the whole run (step.go).
type Machine struct {
	wf     *check.Workflow
	clock  Clock
	exec   Executor
	scheds map[*check.Consumer]*codegen.Schedule
	tr     Transcript

	started, ended bool
	stopped        bool
	state          *check.State
	ms             []*milestoneRun // the current state's milestones, in source order
	msPool         []milestoneRun  // reused for ms: a run enters states again and again
	subs           []subRun        // the current state's subscriptions, in source order
	visit          int             // counts state entries, so a moved run's old work stops
	trackField     string          // "Entity.Field" of Tracks, made once

	// steps are the durable steps' records, for the whole run; parked are
	// the steps running or waiting between attempts, in the order they
	// parked (seq), whose timers the drive loop handles.
	steps  map[*check.Step]*stepRun
	parked []*stepRun
	seq    uint64
	fibers []*fiber // the pool of fibers no longer running

	// instantAt and instantN count the entries written at one instant
	// since the scenario last acted (MaxAtInstant).
	instantAt Ticks
	instantN  int

	// strs and vals are arenas for the entries' argument texts and the
	// calls' arguments: a run makes millions, and one allocation per
	// entry would cost more than the run.
	strs  []string
	vals  []Value
	plans map[*check.Call][]argPlan
	// inv is the call a handler is making, which its entry is about
	// (Subject) while OnEntry is told of it.
	inv Invocation

	// MaxEntries, if positive and below the package's MaxEntries, bounds
	// this run's transcript instead (a fuzz target keeps each run short).
	MaxEntries int
	// Discard keeps no entries in the transcript: OnEntry is told of each
	// (a test's judge keeps what it needs), and a run's memory does not
	// grow with entries nobody prints. Entries counts them.
	Discard bool
	// Done, if set, stops the drive loop when it is closed: Drive returns
	// ErrStopped. A run of a million entries takes seconds, and a
	// playground's Stop or a server's timeout must not wait for it.
	Done    <-chan struct{}
	n       int       // entries recorded
	scratch Entry     // the entry OnEntry is told of, when discarded
	chunks  [][]Entry // the entries, kept in chunks that never move
	// Draws, if set, are the uniform draws of jittered waits (Scenario.Draws).
	Draws []float64
	// Draw, if set (and Draws is not), draws the uniform draw in [0, 1) of
	// each jittered wait when the wait begins: an engine's own random
	// source, which records what it drew so that a replay draws the same
	// (Temporal's workflow.SideEffect). A value outside [0, 1) counts as 0.
	// Without Draws or Draw every wait is nominal.
	Draw func() float64

	// OnStmt, if set, is told of every statement that runs: a goto, a
	// call, a step, a case or default whose body runs, and a catch's case
	// whose body runs (*check.CatchCase). Coverage (wfc test --cover)
	// counts with it.
	OnStmt func(check.Stmt)
	// OnEntry, if set, is told of every entry as it is recorded: its
	// index in the transcript, the entry, and the model object it is about
	// (Subject). The judge of tests and coverage (wftest) read runs through
	// it, comparing objects, never the entries' names.
	OnEntry func(i int, e *Entry, about Subject)
}

// Subject is the model object an entry is about, by the entry's kind:
//
//	start                             *check.Workflow
//	enter, end, waiting, stopped      *check.State (entered, ended in, waiting in; the state the run is in, nil before it starts)
//	track                             *check.EnumMember
//	accept, take                      *check.Subscription
//	reject                            *check.Event sent, *check.Slot taken, nil for a start
//	open, pass, met, exhausted,
//	outcome, and a window's wait      *check.Milestone
//	attempt, fail, timeout, done,
//	give-up, skip, a step's cancel,
//	and a step's wait                 *check.Step
//	a queued handler's cancel         *check.Subscription
//	call                              *Invocation: the model's Call with the
//	                                  arguments the run passed (an enum
//	                                  member by pointer), valid while
//	                                  OnEntry is told of it
type Subject = any

// NewMachine prepares a run of wf, one of res's workflows, on an engine's
// clock and executor; res must have no errors. scheds are the program's
// lowered schedules (codegen.Lower with zero Options); nil lowers them
// here. Drive runs it.
func NewMachine(res *check.Result, wf *check.Workflow, scheds []*codegen.Schedule, clock Clock, exec Executor) *Machine {
	if scheds == nil {
		scheds = codegen.Lower(res, codegen.Options{})
	}
	m := &Machine{wf: wf, clock: clock, exec: exec, scheds: make(map[*check.Consumer]*codegen.Schedule, len(scheds)),
		steps: map[*check.Step]*stepRun{}}
	if f := wf.Tracked; f != nil {
		m.trackField = f.Entity.Decl.Name.Name + "." + f.Decl.Name.Name
	}
	for _, s := range scheds {
		m.scheds[s.Consumer] = s
	}
	m.tr.Version, m.tr.Workflow = 3, wf.Decl.Name.Name
	return m
}

// Transcript is what the run has done so far (no entries with Discard).
func (m *Machine) Transcript() *Transcript {
	if have := len(m.tr.Entries); have < m.n && !m.Discard {
		m.tr.Entries = slices.Grow(m.tr.Entries, m.n-have)
		for k := have / chunkEntries; k < len(m.chunks); k++ {
			from := 0
			if k == have/chunkEntries {
				from = have % chunkEntries
			}
			m.tr.Entries = append(m.tr.Entries, m.chunks[k][from:]...)
		}
	}
	return &m.tr
}

// State is the state the run is in (nil before it starts).
func (m *Machine) State() *check.State { return m.state }

// Ended reports whether the run has ended (or was stopped).
func (m *Machine) Ended() bool { return m.ended }

// Started reports whether the run has started (an Autostart workflow's at
// once, another's at its Start action).
func (m *Machine) Started() bool { return m.started }

// NextDeadline is when the run's next deadline falls due (a window, a
// wait between attempts, an attempt's end or timeout, a step's deadline),
// if it has one.
func (m *Machine) NextDeadline() (Ticks, bool) { return m.nextDeadline() }

// record appends an entry about subject at the current time, or stops the
// run at MaxEntries, or at MaxAtInstant entries at one instant.
// It takes a pointer so that an entry is copied once, into the transcript.
func (m *Machine) record(e *Entry, about Subject) {
	if m.stopped {
		return
	}
	if m.full() {
		m.stop("the transcript reached " + strconv.Itoa(m.limit()) + " entries")
		return
	}
	if e.At != m.instantAt || m.instantN == 0 {
		m.instantAt, m.instantN = e.At, 0
	}
	if m.instantN++; m.instantN > MaxAtInstant {
		m.stop("the run wrote " + strconv.Itoa(MaxAtInstant) + " entries at " + timespan.Format(e.At) +
			" without time passing or the scenario acting: deadlines or retries chain at one instant")
		return
	}
	if !e.Held {
		e.Due = e.At
	}
	if e.State == "" && m.state != nil {
		e.State = m.state.Decl.Name.Name
	}
	m.add(e, about)
}

// acted restarts the count of entries at one instant: the scenario (or
// an engine) acted.
func (m *Machine) acted() { m.instantN = 0 }

// add appends an entry to the transcript (unless Discard) and tells
// OnEntry.
func (m *Machine) add(e *Entry, about Subject) {
	i := m.n
	m.n++
	if m.Discard {
		if m.OnEntry != nil {
			m.scratch = *e
			m.OnEntry(i, &m.scratch, about)
		}
		return
	}
	// Entries go into chunks that never move (a growing slice of a
	// million entries was copied and scanned again and again); the
	// transcript's slice is made once, when asked for (Transcript).
	if len(m.chunks) == 0 || len(m.chunks[len(m.chunks)-1]) == chunkEntries {
		m.chunks = append(m.chunks, make([]Entry, 0, chunkEntries))
	}
	c := &m.chunks[len(m.chunks)-1]
	*c = append(*c, *e)
	if m.OnEntry != nil {
		m.OnEntry(i, &(*c)[len(*c)-1], about)
	}
}

// chunkEntries is how many entries a chunk of the transcript holds.
const chunkEntries = 4096

// Entries is how many entries the run has recorded (kept or not).
func (m *Machine) Entries() int { return m.n }

// full reports whether the transcript has room for its last entry only
// (the one that says the run stopped).
func (m *Machine) full() bool { return m.n >= m.limit()-1 }

// at is an entry at the clock's time about something that fell due at
// due: held when it is handled late (an engine delivered it late).
func (m *Machine) at(due Ticks) Entry {
	now := m.clock.Now()
	return Entry{At: now, Due: due, Held: due < now}
}

// now is an entry at the clock's time.
func (m *Machine) now(k Kind) Entry {
	return Entry{At: m.clock.Now(), Kind: k}
}

// stop ends the run at a limit, with msg saying which.
func (m *Machine) stop(msg string) {
	if m.stopped {
		return
	}
	now := m.clock.Now()
	m.add(&Entry{At: now, Due: now, Kind: KStopped, Message: msg, State: m.stateName()}, m.state)
	m.stopped, m.ended = true, true
}

func (m *Machine) stateName() string {
	if m.state == nil {
		return ""
	}
	return m.state.Decl.Name.Name
}

// start starts the run: it records the start and enters Initial. A second
// start is rejected.
func (m *Machine) start(due Ticks) {
	if m.started {
		e := m.at(due)
		e.Kind, e.Reason, e.Name = KReject, Started, "Start"
		if m.ended {
			e.Reason = Ended
		}
		m.record(&e, nil)
		return
	}
	m.started = true
	e := m.at(due)
	e.Kind, e.State = KStart, m.wf.Decl.Name.Name
	m.record(&e, m.wf)
	if m.wf.Initial == nil {
		m.stop("the workflow has no Initial state")
		return
	}
	m.enter(m.wf.Initial)
}

// finish closes a transcript whose scenario is over: a run still waiting
// records where.
func (m *Machine) finish() {
	if !m.ended && m.started {
		e := m.now(KWaiting)
		m.record(&e, m.state)
	}
}

// enter moves the run into s: what the state it leaves still had going
// is cancelled (cancel.go's leave), its milestones open their first
// windows; a terminal state ends the run.
func (m *Machine) enter(s *check.State) {
	if m.state != nil && (len(m.parked) > 0 || m.queued()) {
		m.leave("left state " + m.state.Decl.Name.Name)
	}
	m.visit++
	m.state = s
	m.ms = m.ms[:0]
	m.msPool = m.msPool[:0]
	m.subs = m.subs[:0]
	for _, sub := range s.Subscriptions {
		m.subs = append(m.subs, subRun{sub: sub})
	}
	e := m.now(KEnter)
	e.State = s.Decl.Name.Name
	m.record(&e, s)
	if m.wf.Tracked != nil && s.Member != nil {
		e := m.now(KTrack)
		e.Field, e.Member = m.trackField, s.Member.Ident.Name
		m.record(&e, s.Member)
	}
	switch s.Kind {
	case ast.Terminal:
		e := m.now(KEnd)
		m.record(&e, s)
		m.ended = true
		return
	case ast.TerminalError:
		e := m.now(KEnd)
		e.Error, e.Message = true, s.Message
		m.record(&e, s)
		m.ended = true
		return
	}
	now := m.clock.Now()
	for _, sub := range s.Subscriptions {
		for _, ms := range sub.Milestones {
			if ms.Consumer == nil || m.scheds[ms.Consumer] == nil {
				continue
			}
			m.msPool = append(m.msPool, milestoneRun{m: ms, sched: m.scheds[ms.Consumer], n: 1})
		}
	}
	// Pointers into the pool once it has stopped growing.
	for i := range m.msPool {
		m.ms = append(m.ms, &m.msPool[i])
	}
	visit := m.visit
	for _, r := range m.ms {
		if m.visit != visit || m.ended {
			return
		}
		m.open(r, now)
	}
}

// queued reports whether a handler waits in a queue of the current state.
func (m *Machine) queued() bool {
	for i := range m.subs {
		if len(m.subs[i].queue) > 0 {
			return true
		}
	}
	return false
}

// leave cancels what the state the run leaves still had going: its steps
// parked in an attempt or a wait (their handlers never go on), and the
// handlers queued behind them; each is a cancel entry saying why.
func (m *Machine) leave(why string) {
	for _, r := range m.parked {
		m.cancel(r, why)
	}
	m.parked = m.parked[:0]
	for i := range m.subs {
		sr := &m.subs[i]
		for _, q := range sr.queue {
			e := m.now(KCancel)
			e.Name, e.Args, e.Message = sr.sub.Event.Decl.Name.Name, m.texts(q.args), why
			m.record(&e, sr.sub)
		}
		sr.queue, sr.busy = nil, nil
	}
}

func (m *Machine) msEntry(r *milestoneRun, k Kind, due Ticks) Entry {
	e := m.at(due)
	e.Kind, e.Name, e.Milestone, e.N, e.Of = k, r.m.Subscription.Slot(), r.m.Kind, r.n, r.sched.Attempts
	return e
}

// open opens window r.n at time at, or stops the run when the window
// would end past TimeSpan.MaxValue (docs/language.md, "Limits").
func (m *Machine) open(r *milestoneRun, at Ticks) {
	if r.sched.Window > timespan.MaxTicks-at {
		m.stop("window " + strconv.FormatInt(r.n, 10) + " of " + r.m.Subscription.Slot() + "." + r.m.Kind.String() +
			" would end after TimeSpan.MaxValue")
		return
	}
	r.phase, r.due, r.opened = inWindow, at+r.sched.Window, at
	e := m.msEntry(r, KOpen, at)
	e.Until = r.due
	m.record(&e, r.m)
}

// nextDeadline is when the earliest deadline of the run falls due, if
// there is one (none once the run has ended): a milestone's window or
// wait, or a parked step's timer.
func (m *Machine) nextDeadline() (Ticks, bool) {
	if r, s := m.nextDue(); r != nil {
		return r.due, true
	} else if s != nil {
		return s.due, true
	}
	return 0, false
}

// nextDue is what falls due first. At one instant: an attempt's end (it
// is an arrival, as an engine's report is: after the scenario's actions,
// in the order the attempts started), then the milestones' deadlines in
// source order, then the parked steps' other timers (a retry's wait, a
// timeout, a deadline) in the order they were set.
func (m *Machine) nextDue() (*milestoneRun, *stepRun) {
	if m.ended {
		return nil, nil
	}
	var best *milestoneRun
	for _, r := range m.ms {
		if r.phase != settled && (best == nil || r.due < best.due) {
			best = r
		}
	}
	var bs *stepRun
	for _, s := range m.parked {
		if s.timed && (bs == nil || s.due < bs.due || s.due == bs.due && s.ends() && !bs.ends()) {
			bs = s
		}
	}
	if bs != nil && (best == nil || bs.due < best.due || bs.due == best.due && bs.ends()) {
		return nil, bs
	}
	return best, nil
}

// fire handles the earliest deadline (the clock has reached it): a window
// passes, a wait ends and the next window opens, or a parked step's timer
// fires (step.go).
func (m *Machine) fire() {
	r, s := m.nextDue()
	if s != nil {
		m.stepDue(s)
		return
	}
	if r == nil {
		return
	}
	due := r.due
	if r.phase == inWait {
		r.n++
		m.open(r, due)
		return
	}
	e := m.msEntry(r, KPass, due)
	m.record(&e, r.m)
	if r.n < r.sched.Attempts {
		w := m.windowWait(r)
		if w == 0 {
			r.n++
			m.open(r, due)
			return
		}
		if due > timespan.MaxTicks-w {
			m.stop("window " + strconv.FormatInt(r.n+1, 10) + " of " + r.m.Subscription.Slot() + "." + r.m.Kind.String() +
				" would open after TimeSpan.MaxValue")
			return
		}
		e := m.msEntry(r, KWait, due)
		e.N, e.Wait = r.n+1, w
		m.record(&e, r.m)
		r.phase, r.due = inWait, due+w
		return
	}
	r.phase = settled
	e = m.msEntry(r, KExhausted, due)
	m.record(&e, r.m)
	fib := m.newFiber(nil, nil)
	for _, kind := range [...]check.OutcomeKind{check.Exhausted, m.giveUpKind(r.m)} {
		for _, o := range r.m.Outcomes {
			if o.Kind == kind && o.Body != nil {
				fib.after = append(fib.after, segment{ms: r, o: o, due: due})
			}
		}
	}
	m.runFiber(fib)
}

// windowWait is the wait before window r.n+1: the policy's (drawn, with
// the scenario's draws).
func (m *Machine) windowWait(r *milestoneRun) Ticks {
	return m.policyWait(r.sched, r.n+1, r.opened, m.clock.Now())
}

// policyWait is the wait before attempt (or window) k of sched, whose
// previous attempt started at last and ended at now: the nominal wait,
// or the drawn one when the scenario gives draws and the policy has
// jitter; a cadence (Backoff.Every) waits what is left of its interval
// since the last start.
func (m *Machine) policyWait(sched *codegen.Schedule, k int64, last, now Ticks) Ticks {
	if sched.Shape == check.ShapeEvery {
		next := last + sched.Interval
		if sched.Interval > timespan.MaxTicks-last {
			next = timespan.MaxTicks
		}
		if next <= now {
			return 0
		}
		return next - now
	}
	switch {
	case sched.Jitter == nil || k < 2:
	case len(m.Draws) > 0:
		return sched.DrawnWait(k, m.Draws[int((k-2)%int64(len(m.Draws)))])
	case m.Draw != nil:
		u := m.Draw()
		if !(u >= 0 && u < 1) {
			u = 0
		}
		return sched.DrawnWait(k, u)
	}
	return sched.NominalWait(k)
}

func (m *Machine) giveUpKind(ms *check.Milestone) check.OutcomeKind {
	if ms.Kind == check.Assigned {
		return check.Unassigned
	}
	return check.Unfinished
}

// meet settles the current state's milestones of kind k on sub, at due.
func (m *Machine) meet(sub *check.Subscription, k check.MilestoneKind, due Ticks) {
	for _, r := range m.ms {
		if r.m.Subscription != sub || r.m.Kind != k || r.phase == settled {
			continue
		}
		e := m.msEntry(r, KMet, due)
		e.InWait = r.phase == inWait
		m.record(&e, r.m)
		r.phase = settled
	}
}

// send delivers event ev with args, which fell due at due. The first
// subscription of the state that waits for it takes it; its handler runs
// at once, or, while the handler of that subscription is parked in a
// step, after it (queued).
func (m *Machine) send(ev *check.Event, args []Value, due Ticks) {
	e := m.at(due)
	e.Name = ev.Decl.Name.Name
	if r := m.refuse(); r != 0 {
		e.Kind, e.Reason = KReject, r
		m.record(&e, ev)
		return
	}
	var sr *subRun
	for i := range m.subs {
		if m.subs[i].sub.Event == ev {
			sr = &m.subs[i]
			break
		}
	}
	if sr == nil {
		e.Kind, e.Reason = KReject, NotSubscribed
		m.record(&e, ev)
		return
	}
	h := sr.sub.Handler
	run := h != nil && h.Body != nil
	e.Kind, e.Args = KAccept, m.texts(args)
	e.Queued = run && sr.busy != nil
	m.record(&e, sr.sub)
	visit := m.visit
	m.meet(sr.sub, check.Finished, due)
	if !run || m.visit != visit || m.ended {
		return
	}
	if sr.busy != nil {
		sr.queue = append(sr.queue, queued{args: args})
		return
	}
	m.handle(sr, args)
}

// take takes the current state's subscription of slot, which fell due at
// due.
func (m *Machine) take(slot *check.Slot, due Ticks) {
	if slot == nil {
		slot = &check.Slot{} // no slot of the workflow: every state rejects it
	}
	e := m.at(due)
	e.Name = slot.Name
	if r := m.refuse(); r != 0 {
		e.Kind, e.Reason = KReject, r
		m.record(&e, slot)
		return
	}
	sub := slot.In(m.state)
	var sr *subRun
	for i := range m.subs {
		if m.subs[i].sub == sub {
			sr = &m.subs[i]
		}
	}
	switch {
	case sr == nil:
		e.Kind, e.Reason = KReject, NoSlot
	case sr.taken:
		e.Kind, e.Reason = KReject, Taken
	default:
		e.Kind = KTake
		sr.taken = true
	}
	if e.Kind == KReject {
		m.record(&e, slot)
		return
	}
	m.record(&e, sub)
	m.meet(sub, check.Assigned, due)
}

func (m *Machine) refuse() Reason {
	switch {
	case !m.started:
		return NotStarted
	case m.ended:
		return Ended
	}
	return 0
}

// arenaChunk is how many strings or values an arena allocates at once.
const arenaChunk = 1024

// texts are the values' texts, cut from the machine's arena.
func (m *Machine) texts(vs []Value) []string {
	if len(vs) == 0 {
		return nil
	}
	if len(vs) > cap(m.strs)-len(m.strs) {
		m.strs = make([]string, 0, max(arenaChunk, len(vs)))
	}
	n := len(m.strs)
	for _, v := range vs {
		m.strs = append(m.strs, v.Text)
	}
	return m.strs[n:len(m.strs):len(m.strs)]
}

// values cuts n values from the machine's arena.
func (m *Machine) values(n int) []Value {
	if n > cap(m.vals)-len(m.vals) {
		m.vals = make([]Value, 0, max(arenaChunk, n))
	}
	k := len(m.vals)
	m.vals = m.vals[:k+n]
	return m.vals[k : k+n : k+n]
}

// limit is the most entries this run's transcript may hold.
func (m *Machine) limit() int {
	if m.MaxEntries > 0 && m.MaxEntries < MaxEntries {
		return m.MaxEntries
	}
	return MaxEntries
}
