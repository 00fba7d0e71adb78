package graph

import "github.com/wfc-lang/wfc/ast"

// View is the drawing as data, for a renderer outside this package (the
// SVG state graph of package picture): the same states and edges, with the
// same labels, that Write draws in Mermaid or DOT.
type View struct {
	Workflows []ViewWorkflow
}

// ViewWorkflow is one workflow: its states (declared ones in source order,
// then targets declared nowhere) and its edges in source order.
type ViewWorkflow struct {
	Name   string
	States []ViewState
	Edges  []ViewEdge
}

// ViewState is one state of the drawing.
type ViewState struct {
	Name        string
	Kind        ast.StateKind
	Initial     bool
	Unreachable bool
	Undeclared  bool     // named by a goto, declared nowhere
	Steps       []string // "notify: 3 attempts"
}

// ViewEdge is a way out of a state: From and To index States; Outcome
// says it is a milestone's outcome rather than a handler's goto.
type ViewEdge struct {
	From, To int
	Label    string
	Outcome  bool
}

// Build returns the drawing of in as data.
func Build(in Input) View {
	m := build(in)
	var v View
	for _, w := range m.workflows {
		vw := ViewWorkflow{Name: w.name}
		at := map[*state]int{}
		for i, s := range w.states {
			at[s] = i
			vw.States = append(vw.States, ViewState{Name: s.name, Kind: s.kind, Initial: s.initial,
				Unreachable: s.unreachable, Undeclared: s.undeclared, Steps: append([]string(nil), s.steps...)})
		}
		for _, e := range w.edges {
			vw.Edges = append(vw.Edges, ViewEdge{From: at[e.from], To: at[e.to], Label: e.label, Outcome: e.outcome})
		}
		v.Workflows = append(v.Workflows, vw)
	}
	return v
}
