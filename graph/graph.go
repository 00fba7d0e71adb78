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
			b := &builder{scheds: scheds, wf: &workflow{name: w.Name.Name}, byName: map[string]*state{}, index: len(m.workflows) + 1}
			b.workflow(mw)
			m.workflows = append(m.workflows, b.wf)
		}
	}
	return m
}

// builder builds one workflow's part of the model.
type builder struct {
	f      *ast.File // the workflow's file, for quoting source
	scheds map[*check.Consumer]*codegen.Schedule
	// consumers are the model's consumers of the workflow's milestones
	// and steps, by their nodes, as the drawing walks the tree.
	consumers map[ast.Node]*check.Consumer
	wf        *workflow
	byName    map[string]*state
	index     int // the workflow's number in the program, for unique ids
}

func (b *builder) workflow(mw *check.Workflow) {
	w := mw.Decl
	b.f = w.File
	b.consumers = map[ast.Node]*check.Consumer{}
	for _, step := range mw.Steps {
		b.consumers[step.Decl] = step.Consumer
	}
	for _, ms := range mw.States {
		for _, sub := range ms.Subscriptions {
			for _, m := range sub.Milestones {
				b.consumers[m.Decl] = m.Consumer
			}
		}
		st := ms.Decl
		if st.Name == nil || b.byName[st.Name.Name] != nil {
			continue // a duplicate (WF101) is drawn once
		}
		s := b.node(st.Name.Name)
		s.kind = st.Kind
		s.unreachable = ms.Reach == check.Unreachable
		s.initial = ms == mw.Initial
	}
	for _, st := range w.States {
		if st.Name == nil {
			continue
		}
		from := b.byName[st.Name.Name]
		first := len(b.wf.edges)
		for _, sub := range st.Subscribes {
			b.subscription(from, sub, len(st.Subscribes) > 1)
		}
		for _, h := range st.Handlers {
			if h.Name != nil {
				b.block(from, h.Body, h.Name.Name)
			}
		}
		// The AST keeps subscriptions and handlers apart: put the state's
		// edges back in the order of their gotos in the source.
		edges := b.wf.edges[first:]
		sort.SliceStable(edges, func(i, j int) bool { return edges[i].off < edges[j].off })
	}
}

// node returns the state called name, adding it (undeclared) if new.
func (b *builder) node(name string) *state {
	if s := b.byName[name]; s != nil {
		return s
	}
	s := &state{id: fmt.Sprintf("w%d_%s", b.index, name), name: name}
	b.byName[name] = s
	b.wf.states = append(b.wf.states, s)
	return s
}

// subscription adds the edges of a subscription's milestone outcomes. With
// more than one subscription on the state, labels name the slot too.
func (b *builder) subscription(from *state, sub *ast.Subscribe, named bool) {
	for _, m := range sub.Milestones {
		if m.Kind == nil {
			continue
		}
		head, numbers := m.Kind.Name, ""
		if named && sub.Slot() != nil {
			head = sub.Slot().Name + " " + head
		}
		if s := b.scheds[b.consumers[m]]; s != nil {
			numbers = ": " + windows(s)
		}
		for _, o := range m.Outcomes {
			l := head + numbers
			if o.Name != nil && o.Name.Name == "Exhausted" {
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
func (b *builder) block(from *state, blk *ast.Block, label string) {
	if blk == nil {
		return
	}
	for _, st := range blk.Stmts {
		switch st := st.(type) {
		case *ast.Goto:
			if st.Target != nil {
				b.wf.edges = append(b.wf.edges, edge{from: from, to: b.target(st.Target.Name), label: label, off: int(st.Range.Start.Offset)})
			}
		case *ast.Case:
			if st.Label != nil {
				b.block(from, st.Body, label+" / "+st.Label.Name)
			}
		case *ast.Default:
			b.block(from, st.Body, label+" / default")
		case *ast.CallStmt:
			if st.Body != nil {
				b.step(from, st)
				b.block(from, st.Body, label)
			}
		}
	}
}

// target is the state a goto names; one declared nowhere (WF103) is drawn
// too, marked undeclared.
func (b *builder) target(name string) *state {
	if s := b.byName[name]; s != nil {
		return s
	}
	s := b.node(name)
	s.undeclared = true
	return s
}

// step lists a durable step on its state: "notify: 3 attempts".
func (b *builder) step(on *state, st *ast.CallStmt) {
	if st.Call == nil {
		return
	}
	name := ast.Compact(b.f.Text(st.Call.Fun.Rng()))
	if len(st.Call.Args) > 0 && st.Call.Args[0].Label == nil {
		if lit, ok := st.Call.Args[0].Value.(*ast.StringLit); ok {
			name = diag.Escape(lit.Value) // a line break in it shows as `\n`, not a new line
		}
	}
	if s := b.scheds[b.consumers[st]]; s != nil {
		if s.Attempts == 1 {
			name += ": 1 attempt, not retried"
		} else {
			name += fmt.Sprintf(": %d attempts", s.Attempts)
		}
	}
	on.steps = append(on.steps, name)
}
