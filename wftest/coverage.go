package wftest

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/codegen"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/interp"
)

// Coverage counts what a program's test runs exercised, per workflow
// (docs/language.md, "Tests"): states entered, transitions (gotos) taken,
// cases and defaults taken, milestone outcomes (met in window k, met during
// a wait between windows, exhausted) and step outcomes (done, gave up). The
// items come from the model, so an item no run reached is listed at its
// position, and are keyed by the model's objects: the statements that ran
// come from the interpreter's OnStmt, the states, milestones and steps from
// the objects its entries are about (OnEntry).
type Coverage struct {
	Workflows []*WorkflowCoverage
	stmts     map[check.Stmt]*Item
	states    map[*check.State]*Item
	ms        map[*check.Milestone]*msItems
	steps     map[*check.Step]*stepItems
}

// stepItems are a step's items: done, gave up for each reason it can
// reach, cancelled (when it can wait, so the run can leave meanwhile).
type stepItems struct {
	done      *Item
	gaveUp    map[check.Cause]*Item
	cancelled *Item
}

// WorkflowCoverage is one workflow's items, in source order.
type WorkflowCoverage struct {
	Workflow string
	File     string
	Items    []*Item
}

type msItems struct {
	windows   []*Item // met in window k (k = index+1); the last may stand for "k or later"
	wait      *Item   // nil when no wait between windows is longer than zero
	exhausted *Item
}

// ItemKind is what a coverage item counts.
type ItemKind uint8

// The kinds of coverage items.
const (
	CovState         ItemKind = iota + 1 // a state entered
	CovTransition                        // a goto taken
	CovCase                              // a case (or default) whose body ran
	CovMetWindow                         // a milestone met in window N
	CovMetWait                           // a milestone met during a wait between windows
	CovExhausted                         // a milestone's windows all passed
	CovStepDone                          // a durable step succeeded
	CovStepGaveUp                        // a durable step gave up, for one reason
	CovStepCancelled                     // a durable step was cancelled
	CovCatch                             // a catch's case whose body ran
)

var itemKindNames = [...]string{CovState: "state", CovTransition: "transition", CovCase: "case",
	CovMetWindow: "met-in-window", CovMetWait: "met-in-wait", CovExhausted: "exhausted",
	CovStepDone: "step-done", CovStepGaveUp: "step-gave-up", CovStepCancelled: "step-cancelled", CovCatch: "catch"}

func (k ItemKind) String() string {
	if int(k) < len(itemKindNames) && k != 0 {
		return itemKindNames[k]
	}
	return fmt.Sprintf("ItemKind(%d)", int(k))
}

// MarshalText writes the kind's name.
func (k ItemKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Item is one thing a run can exercise.
type Item struct {
	Kind ItemKind `json:"kind"`
	// What says it in words: `state Running`, `goto Escalated in Running`.
	What    string     `json:"what"`
	File    string     `json:"file"`
	Range   diag.Range `json:"-"`
	Line    int        `json:"line"`
	Column  int        `json:"column"`
	Covered bool       `json:"covered"`
}

// maxWindowItems is how many windows of a milestone are counted one by
// one; a milestone with more has one item for the rest.
const maxWindowItems = 8

// NewCoverage lists the items of every workflow of the checked program.
// scheds are its lowered schedules (nil lowers them).
func NewCoverage(res *check.Result, scheds []*codegen.Schedule) *Coverage {
	if scheds == nil {
		scheds = codegen.Lower(res, codegen.Options{})
	}
	byConsumer := map[*check.Consumer]*codegen.Schedule{}
	for _, s := range scheds {
		byConsumer[s.Consumer] = s
	}
	c := &Coverage{stmts: map[check.Stmt]*Item{}, states: map[*check.State]*Item{},
		ms: map[*check.Milestone]*msItems{}, steps: map[*check.Step]*stepItems{}}
	for _, w := range res.Program.Workflows {
		wc := &WorkflowCoverage{Workflow: w.Decl.Name.Name, File: w.Decl.File.Name}
		c.Workflows = append(c.Workflows, wc)
		add := func(k ItemKind, r diag.Range, what string) *Item {
			it := &Item{Kind: k, What: what, File: wc.File, Range: r, Line: int(r.Start.Line), Column: int(r.Start.Column)}
			wc.Items = append(wc.Items, it)
			return it
		}
		for _, s := range w.States {
			sn := s.Decl.Name.Name
			c.states[s] = add(CovState, s.Decl.Name.Range, "state "+sn)
			for _, sub := range s.Subscriptions {
				for _, m := range sub.Milestones {
					if m.Consumer == nil || m.Decl.Kind == nil {
						continue
					}
					name := sub.Slot() + "." + m.Decl.Kind.Name
					mi := &msItems{}
					n := min(m.Consumer.Attempts, maxWindowItems)
					for k := int64(1); k <= n; k++ {
						what := fmt.Sprintf("%s in %s met in window %d", name, sn, k)
						if k == maxWindowItems && m.Consumer.Attempts > maxWindowItems {
							what = fmt.Sprintf("%s in %s met in window %d or later", name, sn, k)
						}
						mi.windows = append(mi.windows, add(CovMetWindow, m.Decl.Kind.Range, what))
					}
					if sc := byConsumer[m.Consumer]; sc != nil && hasWait(sc) {
						mi.wait = add(CovMetWait, m.Decl.Kind.Range, name+" in "+sn+" met during a wait between windows")
					}
					mi.exhausted = add(CovExhausted, m.Decl.Kind.Range, name+" in "+sn+" exhausted")
					c.ms[m] = mi
				}
			}
			eachStmt(s, func(st check.Stmt) {
				switch st := st.(type) {
				case *check.Goto:
					if st.To != nil {
						c.stmts[st] = add(CovTransition, st.Decl.Range, "goto "+st.To.Decl.Name.Name+" in "+sn)
					}
				case *check.Case:
					if st.Decl.Label != nil {
						c.stmts[st] = add(CovCase, st.Decl.Label.Range, "case "+st.Decl.Label.Name+" in "+sn)
					}
				case *check.Default:
					c.stmts[st] = add(CovCase, st.Decl.Range, "default in "+sn)
				case *check.Step:
					if st.Consumer != nil {
						c.steps[st] = stepCoverage(st, byConsumer[st.Consumer], add)
					}
				case *check.CatchCase:
					c.stmts[st] = add(CovCatch, st.Decl.Range, "catch "+catchLabel(st)+" in "+sn)
				}
			})
		}
		sort.SliceStable(wc.Items, func(i, j int) bool { return wc.Items[i].Range.Start.Offset < wc.Items[j].Range.Start.Offset })
	}
	return c
}

// stepCoverage lists a step's items: done; gave up for each reason the
// step can reach (Exhausted unless only its `deadline:` bounds its
// attempts, Deadline with a `deadline:`, Terminal with error kinds in its
// policy); cancelled when it can wait.
func stepCoverage(st *check.Step, sched *codegen.Schedule, add func(ItemKind, diag.Range, string) *Item) *stepItems {
	r := st.Decl.Call.Range
	q := fmt.Sprintf("step %q", st.Key)
	it := &stepItems{done: add(CovStepDone, r, q+" done"), gaveUp: map[check.Cause]*Item{}}
	var causes []check.Cause
	if st.Consumer.Budget != check.BudgetDeadline {
		causes = append(causes, check.CauseExhausted)
	}
	if st.HasDeadline {
		causes = append(causes, check.CauseDeadline)
	}
	if p := st.Consumer.Policy; p != nil && (p.NonRetryableM != nil || p.RetryOnM != nil) {
		causes = append(causes, check.CauseTerminal)
	}
	for _, cause := range causes {
		it.gaveUp[cause] = add(CovStepGaveUp, r, q+" gave up ("+cause.String()+")")
	}
	if st.Timeout > 0 || sched != nil && hasWait(sched) {
		it.cancelled = add(CovStepCancelled, r, q+" cancelled")
	}
	return it
}

// catchLabel is a catch case's label as written: a reason, `Enum.Member`.
func catchLabel(cc *check.CatchCase) string {
	switch {
	case cc.Cause != 0:
		return cc.Cause.String()
	case cc.Kind != nil:
		return cc.Kind.Enum.Decl.Name.Name + "." + cc.Kind.Ident.Name
	}
	return "default"
}

// hasWait reports whether some wait between a milestone's windows is
// longer than zero, so that it can be met during one.
func hasWait(s *codegen.Schedule) bool {
	for k := int64(2); k <= min(s.Attempts, 64); k++ {
		if s.WaitBefore(k) > 0 {
			return true
		}
	}
	return false
}

// eachStmt calls f for every statement of state s, nested ones included.
func eachStmt(s *check.State, f func(check.Stmt)) {
	var block func(b *check.Block)
	block = func(b *check.Block) {
		if b == nil {
			return
		}
		for _, st := range b.Stmts {
			f(st)
			switch st := st.(type) {
			case *check.Step:
				block(st.Body)
				if st.Catch != nil {
					for _, cc := range st.Catch.Cases {
						f(cc)
						block(cc.Body)
					}
				}
			case *check.Case:
				block(st.Body)
			case *check.Default:
				block(st.Body)
			}
		}
	}
	for _, sub := range s.Subscriptions {
		for _, m := range sub.Milestones {
			for _, o := range m.Outcomes {
				block(o.Body)
			}
		}
	}
	for _, h := range s.Handlers {
		block(h.Body)
	}
}

// stmt is the interpreter's OnStmt.
func (c *Coverage) stmt(st check.Stmt) {
	if it := c.stmts[st]; it != nil {
		it.Covered = true
	}
}

// entry marks what a run's entry e, about the model object about, covers
// (the interpreter's OnEntry).
func (c *Coverage) entry(e *interp.Entry, about interp.Subject) {
	state, _ := about.(*check.State)
	ms, _ := about.(*check.Milestone)
	step, _ := about.(*check.Step)
	switch e.Kind {
	case interp.KEnter:
		if it := c.states[state]; it != nil {
			it.Covered = true
		}
	case interp.KMet:
		mi := c.ms[ms]
		switch {
		case mi == nil:
		case e.InWait && mi.wait != nil:
			mi.wait.Covered = true
		case !e.InWait && e.N >= 1:
			mi.windows[min(int(e.N), len(mi.windows))-1].Covered = true
		}
	case interp.KExhausted:
		if mi := c.ms[ms]; mi != nil {
			mi.exhausted.Covered = true
		}
	case interp.KDone:
		if s := c.steps[step]; s != nil {
			s.done.Covered = true
		}
	case interp.KGiveUp:
		if s := c.steps[step]; s != nil && s.gaveUp[e.Cause] != nil {
			s.gaveUp[e.Cause].Covered = true
		}
	case interp.KCancel:
		if s := c.steps[step]; s != nil && s.cancelled != nil {
			s.cancelled.Covered = true
		}
	}
}

// Percent is the share of w's items covered, 100 when it has none.
func (w *WorkflowCoverage) Percent() float64 {
	if len(w.Items) == 0 {
		return 100
	}
	return 100 * float64(w.Covered()) / float64(len(w.Items))
}

// Covered counts w's covered items.
func (w *WorkflowCoverage) Covered() int {
	n := 0
	for _, it := range w.Items {
		if it.Covered {
			n++
		}
	}
	return n
}

// Text renders the coverage: a line per workflow with its percentage, then
// each item no run covered at its position. Names from the program are
// escaped (diag.Escape; a file name that starts a line, EscapeLineStart).
func (c *Coverage) Text() string {
	var b strings.Builder
	for _, w := range c.Workflows {
		fmt.Fprintf(&b, "coverage: %s: %.1f%% of %d items\n", diag.Escape(w.Workflow), w.Percent(), len(w.Items))
		for _, it := range w.Items {
			if !it.Covered {
				fmt.Fprintf(&b, "  %s:%d:%d: not covered: %s\n", diag.EscapeLineStart(it.File), it.Line, it.Column, diag.Escape(it.What))
			}
		}
	}
	return b.String()
}

// jsonWorkflow is a workflow's coverage in the JSON document
// (docs/schema/test.schema.json).
type jsonWorkflow struct {
	Workflow string  `json:"workflow"`
	File     string  `json:"file"`
	Percent  float64 `json:"percent"`
	Covered  int     `json:"covered"`
	Total    int     `json:"total"`
	Items    []*Item `json:"items"`
}

// MarshalJSON writes the coverage as a list of workflows with every item.
func (c *Coverage) MarshalJSON() ([]byte, error) {
	out := make([]jsonWorkflow, 0, len(c.Workflows))
	for _, w := range c.Workflows {
		items := w.Items
		if items == nil {
			items = []*Item{}
		}
		out = append(out, jsonWorkflow{w.Workflow, w.File, w.Percent(), w.Covered(), len(w.Items), items})
	}
	return json.Marshal(out)
}
