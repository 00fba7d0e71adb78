package interp

import (
	"strconv"
	"strings"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/check"
)

// A handler (or a milestone's outcome blocks) runs as a fiber: its
// statements in order, from a stack of the blocks it is in. A fiber that
// reaches a durable step parks there while the step's attempts run and
// its waits pass (step.go), and the run goes on: events, slots and
// deadlines are handled meanwhile, by other fibers. Fibers never run at
// once; they interleave only where one parks. A parked fiber goes on when
// its step is done (or gave up and its catch took it); when the run left
// its state meanwhile, it never goes on (its step is cancelled).

// fiber is a running handler or outcome sequence.
type fiber struct {
	visit int      // the state visit it runs in: a goto elsewhere ends it
	sr    *subRun  // the subscription whose handler it is (nil: outcome blocks)
	f     *frame   // the handler's arguments (nil: outcome blocks): fr, or nil
	fr    frame    // f's storage
	stack []cursor // the blocks it is in, innermost last
	// after are the outcome blocks to run, in order, once the stack is
	// empty: a milestone's Exhausted, then its Unfinished or Unassigned;
	// next is the next of them.
	after []segment
	next  int
	// parked: the fiber has waited in a step, so what it records after
	// is handled at the time it goes on, not when its deadline fell due.
	parked bool
}

// cursor is a block being run: the next statement, and whether a case of
// the block matches the handler's enum argument (so `default` does not).
type cursor struct {
	b       *check.Block
	i       int
	matched bool
}

// segment is an outcome block a milestone's last window runs.
type segment struct {
	ms  *milestoneRun
	o   *check.Outcome
	due Ticks
}

// frame is a running handler: its arguments, the event's, by position.
type frame struct {
	h    *check.Handler
	args []Value
}

// newFiber is a fiber of the current visit: a handler's, with its
// arguments, or (sr nil, args nil) outcome blocks'. Fibers are pooled: a
// run starts one per event, and one allocation each would cost more than
// the event.
func (m *Machine) newFiber(sr *subRun, args []Value) *fiber {
	var fib *fiber
	if n := len(m.fibers); n > 0 {
		fib = m.fibers[n-1]
		m.fibers = m.fibers[:n-1]
		*fib = fiber{stack: fib.stack[:0], after: fib.after[:0]}
	} else {
		fib = &fiber{}
	}
	fib.visit, fib.sr = m.visit, sr
	if sr != nil {
		fib.fr = frame{h: sr.sub.Handler, args: args}
		fib.f = &fib.fr
	}
	return fib
}

// release returns a fiber that will never run again to the pool.
func (m *Machine) release(fib *fiber) {
	clear(fib.stack[:cap(fib.stack)])
	clear(fib.after[:cap(fib.after)])
	fib.sr, fib.f, fib.fr = nil, nil, frame{}
	m.fibers = append(m.fibers, fib)
}

// handle runs the handler of sr for an event with args, and then, while
// the handler finishes without parking, the handlers queued behind it.
func (m *Machine) handle(sr *subRun, args []Value) {
	fib := m.newFiber(sr, args)
	m.push(fib, sr.sub.Handler.Body)
	m.runFiber(fib)
}

// runFiber runs fib until it ends, parks in a step, or the run moves or
// ends; a handler that ends lets the next one queued for its subscription
// run. A fiber that will not run again goes back to the pool.
func (m *Machine) runFiber(fib *fiber) {
	for {
		st := m.step1(fib)
		if st == waiting {
			return
		}
		sr := fib.sr
		m.release(fib)
		if st != finished || sr == nil || len(sr.queue) == 0 || m.ended {
			return
		}
		q := sr.queue[0]
		sr.queue = sr.queue[1:]
		fib = m.newFiber(sr, q.args)
		m.push(fib, sr.sub.Handler.Body)
	}
}

// fiberState is how a stretch of a fiber's run ended.
type fiberState uint8

const (
	finished fiberState = iota + 1 // its statements are done
	waiting                        // it parked in a step
	gone                           // the run moved (a goto) or ended
)

// step1 runs fib's statements until it finishes, parks or is gone.
func (m *Machine) step1(fib *fiber) fiberState {
	for {
		if m.ended || m.visit != fib.visit {
			return gone
		}
		if len(fib.stack) == 0 {
			if fib.next == len(fib.after) {
				if fib.sr != nil && fib.sr.busy == fib {
					fib.sr.busy = nil
				}
				return finished
			}
			seg := fib.after[fib.next]
			fib.next++
			if seg.o.Kind != check.Exhausted {
				e := m.msEntry(seg.ms, KOutcome, seg.due)
				if fib.parked {
					e = m.msEntry(seg.ms, KOutcome, m.clock.Now())
				}
				e.Outcome = seg.o.Kind
				m.record(&e, seg.ms.m)
			}
			m.push(fib, seg.o.Body)
			continue
		}
		top := &fib.stack[len(fib.stack)-1]
		if top.i >= len(top.b.Stmts) {
			fib.stack = fib.stack[:len(fib.stack)-1]
			continue
		}
		st := top.b.Stmts[top.i]
		top.i++
		matched := top.matched
		switch st := st.(type) {
		case *check.Goto:
			m.told(st)
			if st.To != nil {
				m.enter(st.To)
			}
			return gone
		case *check.Call:
			m.told(st)
			m.inv = m.invocation(st, fib.f)
			e := m.now(KCall)
			e.Name, e.Args = m.inv.Name, m.texts(m.inv.Args)
			m.record(&e, &m.inv)
			m.exec.Call(m.inv)
		case *check.Step:
			m.told(st)
			switch m.reach(st, fib) {
			case parkedHere:
				fib.parked = true
				if fib.sr != nil {
					fib.sr.busy = fib
				}
				return waiting
			case halted:
				return gone
			}
		case *check.Case:
			if mem := fib.f.member(); mem != nil && st.Member == mem {
				m.told(st)
				m.push(fib, st.Body)
			}
		case *check.Default:
			if !matched {
				m.told(st)
				m.push(fib, st.Body)
			}
		}
	}
}

// told tells OnStmt that st runs.
func (m *Machine) told(st check.Stmt) {
	if m.OnStmt != nil {
		m.OnStmt(st)
	}
}

// push makes fib run block b next.
func (m *Machine) push(fib *fiber, b *check.Block) {
	if b == nil {
		return
	}
	c := cursor{b: b}
	if mem := fib.f.member(); mem != nil {
		for _, st := range b.Stmts {
			if cs, ok := st.(*check.Case); ok && cs.Member == mem {
				c.matched = true
				break
			}
		}
	}
	fib.stack = append(fib.stack, c)
}

// resume lets fib, parked in a step that is now done (or gave up and its
// catch took it), go on. It is still its subscription's running handler
// (busy) until it finishes.
func (m *Machine) resume(fib *fiber) { m.runFiber(fib) }

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

// invocation evaluates a call's arguments: an argument that names a
// handler parameter is the event's argument, one written `Enum.Member`
// that member (in its source form), anything else its source form.
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
		v := Value{Text: p.text, Member: p.member}
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
// written (label included), the enum member it names, if any, and the
// handler parameter whose argument replaces it.
type argPlan struct {
	text, label string
	member      *check.EnumMember
	param       *check.Param
}

func planCall(c *check.Call) []argPlan {
	plan := make([]argPlan, len(c.Args))
	for i, a := range c.Args {
		p := argPlan{text: exprText(a.Value), label: a.Label, member: a.Member, param: a.Param}
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

// ExprText prints an expression in the canonical source form the
// transcript uses for a call's arguments, so that a test's expectations
// (wftest) are compared with what the run wrote.
func ExprText(e ast.Expr) string { return exprText(e) }
