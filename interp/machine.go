package interp

import (
	"slices"
	"strconv"
	"strings"

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
	m     *check.Milestone
	sched *codegen.Schedule
	n     int64 // the current (or last) window
	phase phase
	due   Ticks
}

// Machine is one run of a workflow: it holds the run's state and decides
// what happens when an action arrives or a deadline falls due. It never
// reads a clock of its own or sleeps: its Clock says the time and what
// happens next (Drive), its Executor performs calls and steps. It is not
// safe for concurrent use.
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
	taken          []*check.Subscription
	visit          int    // counts state entries, so a moved run's old work stops
	trackField     string // "Entity.Field" of Tracks, made once
	// strs and vals are arenas for the entries' argument texts and the
	// calls' arguments: a run makes millions, and one allocation per
	// entry would cost more than the run.
	strs  []string
	vals  []Value
	plans map[*check.Call][]argPlan

	// MaxEntries, if positive and below the package's MaxEntries, bounds
	// this run's transcript instead (a fuzz target keeps each run short).
	MaxEntries int

	// OnStmt, if set, is told of every statement that runs: a goto, a
	// call, a step, and a case or default whose body runs. Coverage
	// (wfc test --cover) counts with it.
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
//	attempt, fail, done, give-up,
//	and a step's wait                 *check.Step
//	call                              *check.Call
type Subject = any

// NewMachine prepares a run of wf, one of res's workflows, on an engine's
// clock and executor; res must have no errors. scheds are the program's
// lowered schedules (codegen.Lower with zero Options); nil lowers them
// here. Drive runs it.
func NewMachine(res *check.Result, wf *check.Workflow, scheds []*codegen.Schedule, clock Clock, exec Executor) *Machine {
	if scheds == nil {
		scheds = codegen.Lower(res, codegen.Options{})
	}
	m := &Machine{wf: wf, clock: clock, exec: exec, scheds: make(map[*check.Consumer]*codegen.Schedule, len(scheds))}
	if f := wf.Tracked; f != nil {
		m.trackField = f.Entity.Decl.Name.Name + "." + f.Decl.Name.Name
	}
	for _, s := range scheds {
		m.scheds[s.Consumer] = s
	}
	m.tr.Version, m.tr.Workflow = 1, wf.Decl.Name.Name
	return m
}

// Transcript is what the run has done so far.
func (m *Machine) Transcript() *Transcript { return &m.tr }

// State is the state the run is in (nil before it starts).
func (m *Machine) State() *check.State { return m.state }

// Ended reports whether the run has ended (or was stopped).
func (m *Machine) Ended() bool { return m.ended }

// record appends an entry about subject at the current time, or stops the
// run at MaxEntries.
// It takes a pointer so that an entry is copied once, into the transcript.
func (m *Machine) record(e *Entry, about Subject) {
	if m.stopped {
		return
	}
	if m.full() {
		m.stop("the transcript reached " + strconv.Itoa(m.limit()) + " entries")
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

// add appends an entry to the transcript and tells OnEntry.
func (m *Machine) add(e *Entry, about Subject) {
	m.tr.Entries = append(m.tr.Entries, *e)
	if m.OnEntry != nil {
		i := len(m.tr.Entries) - 1
		m.OnEntry(i, &m.tr.Entries[i], about)
	}
}

// full reports whether the transcript has room for its last entry only
// (the one that says the run stopped).
func (m *Machine) full() bool { return len(m.tr.Entries) >= m.limit()-1 }

// at is an entry at the clock's time about something that fell due at
// due: held when it is handled late (it fell due while a step waited).
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

// enter moves the run into s: its milestones open their first windows; a
// terminal state ends the run.
func (m *Machine) enter(s *check.State) {
	m.visit++
	m.state = s
	m.ms = m.ms[:0]
	m.msPool = m.msPool[:0]
	m.taken = m.taken[:0]
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
	for _, r := range m.ms {
		m.open(r, now)
	}
}

func (m *Machine) msEntry(r *milestoneRun, k Kind, due Ticks) Entry {
	e := m.at(due)
	e.Kind, e.Name, e.Milestone, e.N, e.Of = k, r.m.Subscription.Slot(), r.m.Kind, r.n, r.sched.Attempts
	return e
}

// open opens window r.n at time at.
func (m *Machine) open(r *milestoneRun, at Ticks) {
	r.phase, r.due = inWindow, satAdd(at, r.sched.Window)
	e := m.msEntry(r, KOpen, at)
	e.Until = r.due
	m.record(&e, r.m)
}

// nextDeadline is when the earliest deadline of the current state falls
// due, if there is one (none once the run has ended).
func (m *Machine) nextDeadline() (Ticks, bool) {
	if r := m.nextRun(); r != nil {
		return r.due, true
	}
	return 0, false
}

func (m *Machine) nextRun() *milestoneRun {
	if m.ended {
		return nil
	}
	var best *milestoneRun
	for _, r := range m.ms {
		if r.phase != settled && (best == nil || r.due < best.due) {
			best = r
		}
	}
	return best
}

// fire handles the earliest deadline (the clock has reached it): a window
// passes, or a wait ends and the next window opens.
func (m *Machine) fire() {
	r := m.nextRun()
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
		w := r.sched.WaitBefore(r.n + 1)
		if w == 0 {
			r.n++
			m.open(r, due)
			return
		}
		e := m.msEntry(r, KWait, due)
		e.N, e.Wait = r.n+1, w
		m.record(&e, r.m)
		if due > timespan.MaxTicks-w {
			m.stop("the next window would open after TimeSpan.MaxValue")
			return
		}
		r.phase, r.due = inWait, due+w
		return
	}
	r.phase = settled
	e = m.msEntry(r, KExhausted, due)
	m.record(&e, r.m)
	visit := m.visit
	for _, kind := range [...]check.OutcomeKind{check.Exhausted, m.giveUpKind(r.m)} {
		for _, o := range r.m.Outcomes {
			if o.Kind != kind || o.Body == nil || m.visit != visit || m.ended {
				continue
			}
			if kind != check.Exhausted {
				e := m.msEntry(r, KOutcome, due)
				e.Outcome = kind
				m.record(&e, r.m)
			}
			m.block(o.Body, nil, visit)
		}
	}
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

// send delivers event ev with args, which fell due at due.
func (m *Machine) send(ev *check.Event, args []Value, due Ticks) {
	e := m.at(due)
	e.Name = ev.Decl.Name.Name
	if r := m.refuse(); r != 0 {
		e.Kind, e.Reason = KReject, r
		m.record(&e, ev)
		return
	}
	var sub *check.Subscription
	for _, s := range m.state.Subscriptions {
		if s.Event == ev {
			sub = s
			break
		}
	}
	if sub == nil {
		e.Kind, e.Reason = KReject, NotSubscribed
		m.record(&e, ev)
		return
	}
	e.Kind, e.Args = KAccept, m.texts(args)
	m.record(&e, sub)
	m.meet(sub, check.Finished, due)
	if h := sub.Handler; h != nil && h.Body != nil {
		m.block(h.Body, &frame{h: h, args: args}, m.visit)
	}
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
	switch {
	case sub == nil:
		e.Kind, e.Reason = KReject, NoSlot
	case slices.Contains(m.taken, sub):
		e.Kind, e.Reason = KReject, Taken
	default:
		e.Kind = KTake
		m.taken = append(m.taken, sub)
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

// frame is a running handler: its arguments, the event's, by position.
type frame struct {
	h    *check.Handler
	args []Value
}

// arg is the argument parameter p holds (p is one of the handler's
// parameters in scope, which the model links).
func (f *frame) arg(p *check.Param) (Value, bool) {
	if f == nil || p == nil || p.Index >= len(f.args) {
		return Value{}, false
	}
	return f.args[p.Index], true
}

// member is the enum member the handler's cases match: its enum
// parameter's argument, or nil.
func (f *frame) member() *check.EnumMember {
	if f == nil {
		return nil
	}
	v, _ := f.arg(f.h.EnumParam)
	return v.Member
}

// block runs a block's statements in order until a goto moves the run, the
// run ends, or the block is done.
func (m *Machine) block(b *check.Block, f *frame, visit int) {
	mem := f.member()
	matched := false
	for _, st := range b.Stmts {
		if c, ok := st.(*check.Case); ok && mem != nil && c.Member == mem {
			matched = true
		}
	}
	for _, st := range b.Stmts {
		if m.visit != visit || m.ended {
			return
		}
		if m.OnStmt != nil {
			switch st := st.(type) {
			case *check.Case:
				if mem != nil && st.Member == mem {
					m.OnStmt(st)
				}
			case *check.Default:
				if !matched {
					m.OnStmt(st)
				}
			default:
				m.OnStmt(st)
			}
		}
		switch st := st.(type) {
		case *check.Goto:
			if st.To != nil {
				m.enter(st.To)
			}
			return
		case *check.Call:
			inv := m.invocation(st, f)
			e := m.now(KCall)
			e.Name, e.Args = inv.Name, m.texts(inv.Args)
			m.record(&e, st)
			m.exec.Call(inv)
		case *check.Step:
			m.step(st, f)
		case *check.Case:
			if mem != nil && st.Member == mem {
				m.block(st.Body, f, visit)
			}
		case *check.Default:
			if !matched {
				m.block(st.Body, f, visit)
			}
		}
	}
}

// step runs a durable step's attempts through the executor and records
// them.
func (m *Machine) step(s *check.Step, f *frame) {
	var calls []Invocation
	if s.Body != nil {
		for _, st := range s.Body.Stmts {
			if c, ok := st.(*check.Call); ok {
				calls = append(calls, m.invocation(c, f))
			}
		}
	}
	sched := m.scheds[s.Consumer]
	if sched == nil {
		m.stop("step " + strconv.Quote(s.Key) + " has no schedule")
		return
	}
	name := s.Key
	res := m.exec.Step(s, sched, calls)
	for k, at := range res.Starts {
		n := int64(k + 1)
		m.record(&Entry{At: at, Kind: KAttempt, Name: name, N: n, Of: sched.Attempts}, s)
		for _, c := range calls {
			m.record(&Entry{At: at, Kind: KCall, Name: c.Name, Args: m.texts(c.Args)}, c.Call)
		}
		last := k == len(res.Starts)-1
		if last && res.OK {
			m.record(&Entry{At: at, Kind: KDone, Name: name, N: n}, s)
			break
		}
		m.record(&Entry{At: at, Kind: KFail, Name: name, N: n}, s)
		if !last {
			m.record(&Entry{At: at, Kind: KWait, Name: name, N: n + 1, Wait: res.Starts[k+1] - at}, s)
		}
	}
	if res.Stop != "" {
		m.stop(res.Stop)
		return
	}
	if !res.OK && int64(len(res.Starts)) < sched.Attempts {
		m.stop("step " + strconv.Quote(name) + " has more attempts (" + strconv.FormatInt(sched.Attempts, 10) +
			") than a transcript holds")
		return
	}
	if !res.OK {
		n := int64(len(res.Starts))
		e := m.now(KGiveUp)
		e.Name, e.N = name, n
		m.record(&e, s)
		e = m.now(KEnd)
		e.Error, e.Message = true, "step "+strconv.Quote(name)+" gave up after "+Attempts(n)
		m.record(&e, m.state)
		m.ended = true
	}
}

// invocation evaluates a call's arguments: an argument that names a
// handler parameter is the event's argument, anything else its source
// form.
func (m *Machine) invocation(c *check.Call, f *frame) Invocation {
	plan := m.plans[c]
	if plan == nil {
		plan = planCall(c)
		if m.plans == nil {
			m.plans = map[*check.Call][]argPlan{}
		}
		m.plans[c] = plan
	}
	inv := Invocation{Call: c, Name: c.Fun, Args: m.values(len(plan))}
	for i, p := range plan {
		v := Value{Text: p.text}
		if fv, ok := f.arg(p.param); ok {
			v = fv
			if p.label != "" {
				v.Text = p.label + ": " + fv.Text
			}
		}
		inv.Args[i] = v
	}
	return inv
}

// argPlan is a call argument's evaluation worked out once: its text as
// written (label included), and the handler parameter whose argument
// replaces it.
type argPlan struct {
	text, label string
	param       *check.Param
}

func planCall(c *check.Call) []argPlan {
	plan := make([]argPlan, len(c.Args))
	for i, a := range c.Args {
		p := argPlan{text: exprText(a.Value), label: a.Label, param: a.Param}
		if a.Label != "" {
			p.text = a.Label + ": " + p.text
		}
		plan[i] = p
	}
	return plan
}

// exprText prints an expression in its canonical source form.
func exprText(e ast.Expr) string {
	var b strings.Builder
	writeExpr(&b, e)
	return b.String()
}

func writeExpr(b *strings.Builder, e ast.Expr) {
	switch e := e.(type) {
	case *ast.IntLit:
		b.WriteString(e.Text)
	case *ast.DecimalLit:
		b.WriteString(e.Text)
	case *ast.StringLit:
		b.WriteString(strconv.Quote(e.Value))
	case *ast.BoolLit:
		b.WriteString(strconv.FormatBool(e.Value))
	case *ast.Name:
		b.WriteString(e.Name)
	case *ast.Selector:
		writeExpr(b, e.X)
		b.WriteByte('.')
		if e.Sel != nil {
			b.WriteString(e.Sel.Name)
		}
	case *ast.Call:
		writeExpr(b, e.Fun)
		b.WriteByte('(')
		for i, a := range e.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			if a.Label != nil {
				b.WriteString(a.Label.Name + ": ")
			}
			writeExpr(b, a.Value)
		}
		b.WriteByte(')')
	case *ast.Unary:
		b.WriteString(e.Op)
		writeExpr(b, e.X)
	case *ast.Binary:
		writeExpr(b, e.X)
		b.WriteString(" " + e.Op + " ")
		writeExpr(b, e.Y)
	case *ast.Paren:
		b.WriteByte('(')
		writeExpr(b, e.X)
		b.WriteByte(')')
	}
}

func satAdd(a, b Ticks) Ticks {
	if a > timespan.MaxTicks-b {
		return timespan.MaxTicks
	}
	return a + b
}

// ExprText prints an expression in the canonical source form the
// transcript uses for a call's arguments, so that a test's expectations
// (wftest) are compared with what the run wrote.
func ExprText(e ast.Expr) string { return exprText(e) }

// limit is the most entries this run's transcript may hold.
func (m *Machine) limit() int {
	if m.MaxEntries > 0 && m.MaxEntries < MaxEntries {
		return m.MaxEntries
	}
	return MaxEntries
}
