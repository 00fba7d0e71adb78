package check

import (
	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/diag"
)

// The checker runs in two passes. The first (check.go, decls.go,
// workflow.go, state.go, milestone.go, policy.go) resolves names and values:
// it reports what is wrong with them (errors about names and values, and
// the warnings about one value, such as WF306 or WF308) and records what it
// found (wfFacts, stFacts, consumers, the model). The second is the rules:
// the checks of a program's shape (WF114–WF116, WF201–WF207), one file each
// (rule_*.go), each declaring the codes it reports, its scope and the kind
// of node it reads, all run in one traversal of the tree (workflowRules,
// entityRules) that calls each rule only for its kind of node.
//
// To add a check of the shape of a program, add its code to the catalogue
// (diag/codes.go), a file rule_<what>.go with its rule, its entry in rules
// below, and a golden case under testdata/cases (docs/contributing.md);
// TestRuleFiles checks that the three agree.

// ruleScope says how much of a program a rule reads. The language server
// re-checks only the edited workflows (with every enum, entity and test of
// the program) when no rule reads across workflows: PartialRecheckSafe
// reads that from these declarations.
type ruleScope uint8

const (
	// scopeWorkflow: one workflow, with the enums and entities it uses.
	scopeWorkflow ruleScope = iota + 1
	// scopeTypes: the enums and entities alone, all of which a partial
	// re-check includes.
	scopeTypes
	// scopeProgram: across workflows, so that an edit to one can change
	// another's diagnostics; a partial re-check would miss that.
	scopeProgram
)

// PartialRecheckSafe reports whether checking some workflows of a program,
// with all of its enums, entities and tests, gives them the diagnostics a
// full check gives: whether no rule has program scope. The language server
// asks before it re-checks only the edited workflows, so a rule added with
// program scope makes the editor re-check everything, with no other edit.
func PartialRecheckSafe() bool { return partialSafe(rules) }

func partialSafe(rs []*rule) bool {
	for _, r := range rs {
		if r.scope == scopeProgram {
			return false
		}
	}
	return true
}

// rule is one check of the second pass. Exactly one of its hooks is set:
// the kind of node it reads. Each hook is called with the enclosing
// workflow and state in w.
type rule struct {
	name  string
	codes []diag.ID
	scope ruleScope

	workflow  func(c *checker, w *walk, wf *ast.Workflow)
	state     func(c *checker, w *walk, s *ast.State)
	milestone func(c *checker, w *walk, m *ast.Milestone)
	handler   func(c *checker, w *walk, h *ast.Handler)
	block     func(c *checker, w *walk, b *ast.Block)
	entity    func(c *checker, w *walk, e *ast.Entity)
}

// rules are the checks of the second pass, in code order.
var rules = []*rule{
	&ruleWF114, &ruleWF115, &ruleWF116,
	&ruleWF201, &ruleWF202, &ruleWF203, &ruleWF204, &ruleWF205, &ruleWF206, &ruleWF207, &ruleWF209,
}

// byKind are the rules' hooks by the kind of node they read, in rule
// order: the traversal calls a rule only where it looks.
type byKind struct {
	workflow  []func(*checker, *walk, *ast.Workflow)
	state     []func(*checker, *walk, *ast.State)
	milestone []func(*checker, *walk, *ast.Milestone)
	handler   []func(*checker, *walk, *ast.Handler)
	block     []func(*checker, *walk, *ast.Block)
	entity    []func(*checker, *walk, *ast.Entity)
}

// ruleSet is a list of rules as the checker runs them: their hooks by
// kind, and whether each workflow may go through the rules on its own.
type ruleSet struct {
	byKind
	oneByOne bool // no rule reads across workflows (partialSafe)
}

func newRuleSet(rs []*rule) *ruleSet {
	return &ruleSet{byKind: hooksOf(rs), oneByOne: partialSafe(rs)}
}

// defaultRules are rules, prepared once; never changed.
var defaultRules = newRuleSet(rules)

// hooksOf sorts rs by the kind of node each reads.
func hooksOf(rs []*rule) byKind {
	var h byKind
	for _, r := range rs {
		if r.workflow != nil {
			h.workflow = append(h.workflow, r.workflow)
		}
		if r.state != nil {
			h.state = append(h.state, r.state)
		}
		if r.milestone != nil {
			h.milestone = append(h.milestone, r.milestone)
		}
		if r.handler != nil {
			h.handler = append(h.handler, r.handler)
		}
		if r.block != nil {
			h.block = append(h.block, r.block)
		}
		if r.entity != nil {
			h.entity = append(h.entity, r.entity)
		}
	}
	return h
}

// walk is where the traversal is: the enclosing workflow and state.
type walk struct {
	c     *checker
	wf    *wfCtx     // nil outside a workflow
	state *ast.State // nil outside a state
}

// workflowRules runs every rule over workflow d, right after the first
// pass over it and its model (checker.workflows), and entityRules over
// every entity once the program is built. The traversal visits the nodes the
// rules look at (entities, workflows, states, milestones, handlers and
// blocks) and not the names, settings, types and expressions below them.
// It is written out rather than ast.Inspect, which allocates every node's
// children: the rules run on every check of every file, and must not make
// `wfc check` slower.
//
// With a rule of program scope (none today), which reads across
// workflows, checker.workflows runs the rules once every workflow is
// checked, and keeps every workflow's facts until then.
func (c *checker) workflowRules(d *ast.Workflow) {
	w := walk{c: c}
	w.workflow(d)
}

func (c *checker) entityRules() {
	for _, f := range c.prog.Files {
		if f.Overwhelmed {
			continue
		}
		c.file = f
		w := &walk{c: c}
		for _, d := range f.Decls {
			if d, ok := d.(*ast.Entity); ok {
				for _, r := range c.rules.entity {
					r(c, w, d)
				}
			}
		}
	}
}

func (w *walk) workflow(wf *ast.Workflow) {
	c := w.c
	w.wf = c.wfFacts[wf]
	for _, r := range c.rules.workflow {
		r(c, w, wf)
	}
	for _, s := range wf.States {
		w.state = s
		for _, r := range c.rules.state {
			r(c, w, s)
		}
		for _, sub := range s.Subscribes {
			for _, m := range sub.Milestones {
				for _, r := range c.rules.milestone {
					r(c, w, m)
				}
				for _, o := range m.Outcomes {
					w.block(o.Body)
				}
			}
		}
		for _, h := range s.Handlers {
			for _, r := range c.rules.handler {
				r(c, w, h)
			}
			w.block(h.Body)
		}
	}
	w.wf, w.state = nil, nil
}

func (w *walk) block(b *ast.Block) {
	if b == nil {
		return
	}
	for _, r := range w.c.rules.block {
		r(w.c, w, b)
	}
	for _, st := range b.Stmts {
		switch st := st.(type) {
		case *ast.Case:
			w.block(st.Body)
		case *ast.Default:
			w.block(st.Body)
		case *ast.CallStmt:
			w.block(st.Body)
		}
	}
}

// normalState is the state being walked when it is a non-terminal one the
// first pass checked (a repeated name's second declaration is not).
func (w *walk) normalState() *ast.State {
	if w.wf == nil || w.state == nil || w.state.Kind != ast.Normal || w.wf.states.lookup(w.state.Name.Name) != w.state {
		return nil
	}
	return w.state
}
