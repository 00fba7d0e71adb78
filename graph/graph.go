// Package graph draws each workflow of a program as a state machine, in
// Mermaid (`stateDiagram-v2`, which GitHub renders in Markdown) or Graphviz
// DOT (docs/graph.md): the states as nodes — the initial one marked, terminal
// and terminal-error states distinct, unreachable ones dashed — and an edge
// for every way out of a state: each `goto`, labelled with the handler and
// the case that takes it, and each milestone outcome, labelled with the
// milestone's windows and give-up time from the resolved schedule table.
// Durable steps are listed on their state with their budgets.
//
// The output is deterministic: workflows, states and edges in source order.
package graph

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/codegen"
	"github.com/wfc-lang/wfc/diag"
)

// Format is an output format.
type Format string

const (
	Mermaid Format = "mermaid"
	DOT     Format = "dot"
)

// Formats lists the formats, the default first.
var Formats = []Format{Mermaid, DOT}

// Input is what a graph is drawn from.
type Input struct {
	// Program is the checked program's model: its workflows, their initial
	// states and which states are unreachable (drawn dashed) come from it.
	Program *check.Program
	// Schedules are the lowered tables of the consumers whose policies are
	// valid; a milestone or step without one is drawn without numbers.
	Schedules []*codegen.Schedule
}

// Write draws in to w in format f.
func Write(w io.Writer, in Input, f Format) error {
	m := build(in)
	var b strings.Builder
	switch f {
	case Mermaid:
		writeMermaid(&b, m)
	case DOT:
		writeDOT(&b, m)
	default:
		return fmt.Errorf("unknown graph format %q: use mermaid or dot", f)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// model is the drawing, independent of the format.
type model struct {
	workflows []*workflow
}

type workflow struct {
	name   string
	states []*state // declared states in source order, then undeclared targets
	edges  []edge
}

type state struct {
	id, name    string
	kind        ast.StateKind
	initial     bool
	unreachable bool
	undeclared  bool     // named by a goto, declared nowhere
	steps       []string // "notify: 3 attempts"
}

type edge struct {
	from, to *state
	label    string
	off      int  // the goto's byte offset, for source order
	outcome  bool // a milestone's outcome, not a handler's goto
}

func build(in Input) *model {
	scheds := map[*check.Consumer]*codegen.Schedule{}
	for _, s := range in.Schedules {
		scheds[s.Consumer] = s
	}
	m := &model{}
	for _, mw := range in.Program.Workflows {
		if w := mw.Decl; w.Name != nil {
			b := &builder{scheds: scheds, wf: &workflow{name: w.Name.Name}, nodes: map[*check.State]*state{}, index: len(m.workflows) + 1}
			b.workflow(mw)
			m.workflows = append(m.workflows, b.wf)
		}
	}
	return m
}

// builder builds one workflow's part of the model. It reads the checker's
// model: states, gotos, milestones, outcomes and steps are its objects,
// linked by pointers, and outcomes are told apart by their typed kind.
type builder struct {
	f      *ast.File // the workflow's file, for quoting source
	scheds map[*check.Consumer]*codegen.Schedule
	wf     *workflow
	// nodes are the drawing's states by the model's; a duplicate state
	// (WF101) has the node of the state its name resolves to.
	nodes map[*check.State]*state
	// undeclared are the targets of gotos that resolve to no state (WF103),
	// by the name written: the model has no object for them.
	undeclared map[string]*state
	index      int // the workflow's number in the program, for unique ids
}

func (b *builder) workflow(mw *check.Workflow) {
	b.f = mw.Decl.File
	for _, ms := range mw.States {
		if ms.Decl.Name == nil {
			continue
		}
		if first := mw.StateNamed(ms.Decl.Name.Name); first != nil && first != ms {
			b.nodes[ms] = b.nodes[first] // a duplicate (WF101) is drawn once
			continue
		}
		s := b.node(ms.Decl.Name.Name)
		s.kind = ms.Kind
		s.unreachable = ms.Reach == check.Unreachable
		s.initial = ms == mw.Initial
		b.nodes[ms] = s
	}
	for _, ms := range mw.States {
		from := b.nodes[ms]
		if from == nil {
			continue
		}
		first := len(b.wf.edges)
		for _, sub := range ms.Subscriptions {
			b.subscription(from, sub, len(ms.Subscriptions) > 1)
		}
		for _, h := range ms.Handlers {
			if h.Decl.Name != nil {
				b.block(from, h.Body, h.Decl.Name.Name)
			}
		}
		// The model keeps subscriptions and handlers apart: put the
		// state's edges back in the order of their gotos in the source.
		edges := b.wf.edges[first:]
		sort.SliceStable(edges, func(i, j int) bool { return edges[i].off < edges[j].off })
	}
}

// node adds a state called name. Its id is `w<n>_<name>`, or for a name
// longer than a label shows, `w<n>_<k>`, its number among the workflow's
// nodes (no name starts with a digit, so no other id is the same).
func (b *builder) node(name string) *state {
	id := fmt.Sprintf("w%d_%s", b.index, name)
	if cut(name) != name {
		id = fmt.Sprintf("w%d_%d", b.index, len(b.wf.states)+1)
	}
	s := &state{id: id, name: name}
	b.wf.states = append(b.wf.states, s)
	return s
}

// subscription adds the edges of a subscription's milestone outcomes. With
// more than one subscription on the state, labels name the slot too.
func (b *builder) subscription(from *state, sub *check.Subscription, named bool) {
	for _, m := range sub.Milestones {
		if m.Decl.Kind == nil {
			continue
		}
		head, numbers := m.Decl.Kind.Name, "" // as written, known or not (WF117)
		if slot := sub.Decl.Slot(); named && slot != nil {
			head = slot.Name + " " + head
		}
		if s := b.scheds[m.Consumer]; s != nil {
			numbers = ": " + windows(s)
		}
		for _, o := range m.Outcomes {
			l := head + numbers
			if o.Kind == check.Exhausted {
				l = head + " / Exhausted" + numbers
			}
			first := len(b.wf.edges)
			b.block(from, o.Body, l)
			for i := first; i < len(b.wf.edges); i++ {
				b.wf.edges[i].outcome = true
			}
		}
	}
}

// windows says a milestone's budget: "3 windows, gives up at 30m".
func windows(s *codegen.Schedule) string {
	n := "windows"
	if s.Attempts == 1 {
		n = "window"
	}
	return fmt.Sprintf("%d %s, gives up at %s", s.Attempts, n, span(s.GivesUp, s.GivesUpLatest))
}

// span prints a time, or its range under jitter.
func span(lo, hi check.Ticks) string {
	if lo == hi {
		return check.FormatTicks(lo)
	}
	return check.FormatTicks(lo) + "–" + check.FormatTicks(hi)
}

// block adds an edge for each goto in blk (labelled label, and the case
// that holds it) and lists the durable steps on from.
func (b *builder) block(from *state, blk *check.Block, label string) {
	if blk == nil {
		return
	}
	for _, st := range blk.Stmts {
		switch st := st.(type) {
		case *check.Goto:
			b.wf.edges = append(b.wf.edges, edge{from: from, to: b.target(st), label: label, off: int(st.Decl.Range.Start.Offset)})
		case *check.Case:
			if st.Decl.Label != nil {
				b.block(from, st.Body, label+" / "+st.Decl.Label.Name)
			}
		case *check.Default:
			b.block(from, st.Body, label+" / default")
		case *check.Step:
			b.step(from, st)
			b.block(from, st.Body, label)
			if st.Catch != nil {
				for _, cc := range st.Catch.Cases {
					b.block(from, cc.Body, label+" / catch "+catchLabel(cc))
				}
			}
		}
	}
}

// catchLabel names a catch's case as the edges of its gotos say it: its
// reason, its error kind (qualified) or `default`.
func catchLabel(cc *check.CatchCase) string {
	switch {
	case cc.Kind != nil:
		return cc.Kind.Enum.Decl.Name.Name + "." + cc.Kind.Ident.Name
	case cc.Default:
		return "default"
	}
	return cc.Cause.String()
}

// target is the state a goto leads to; one declared nowhere (WF103) is
// drawn too, once per name, marked undeclared.
func (b *builder) target(g *check.Goto) *state {
	if g.To != nil {
		return b.nodes[g.To]
	}
	name := g.Decl.Target.Name
	if s := b.undeclared[name]; s != nil {
		return s
	}
	if b.undeclared == nil {
		b.undeclared = map[string]*state{}
	}
	s := b.node(name)
	s.undeclared = true
	b.undeclared[name] = s
	return s
}

// step lists a durable step on its state: "notify: 3 attempts".
func (b *builder) step(on *state, step *check.Step) {
	st := step.Decl
	if st.Call == nil {
		return
	}
	name := ast.Compact(b.f.Text(st.Call.Fun.Rng()))
	if len(st.Call.Args) > 0 && st.Call.Args[0].Label == nil {
		if lit, ok := st.Call.Args[0].Value.(*ast.StringLit); ok {
			name = diag.Escape(lit.Value) // a line break in it shows as `\n`, not a new line
		}
	}
	if s := b.scheds[step.Consumer]; s != nil {
		if s.Attempts == 1 {
			name += ": 1 attempt, not retried"
		} else {
			name += fmt.Sprintf(": %d attempts", s.Attempts)
		}
	}
	on.steps = append(on.steps, name)
}
