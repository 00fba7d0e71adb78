package check

import (
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/check/vocab"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/lexer"
)

// Tests (docs/language.md, "Tests"): a test declaration names a workflow,
// a scenario (actions at times, failing steps) and expectations. The
// checker resolves every name of a test against the model, after the model
// is built, and reports what does not resolve (WF501), wrong arguments
// (WF502), bad times (WF503), unknown items (WF504) and duplicate names
// (WF505): a test that cannot mean anything is a diagnostic at its
// position, never a failed run.

// Test is a resolved test declaration.
type Test struct {
	Decl *ast.Test
	Name string
	// Workflow is the workflow the test runs; nil when it did not resolve.
	Workflow *Workflow
	// Actions are the scenario's actions in statement order (not sorted
	// by time: the runner does that, stably).
	Actions  []*TestAction
	Failures []*TestFailure
	// Takes say how long steps' attempts take (`Takes`), in order.
	Takes []*TestTakes
	// Draws are the test's uniform draws in [0, 1) for jittered waits
	// (`Draws(…)`), nil without.
	Draws   []float64
	Expects []*Expect
}

// TestTakes is `Takes("step", d[, attempt: n]);`: the step's attempts (or
// attempt n, counted over the run) take d.
type TestTakes struct {
	Decl    *ast.CallStmt
	Steps   []*Step
	Took    Ticks
	Attempt int64 // 0: every attempt
}

// TestActionKind says what a test action does.
type TestActionKind uint8

// The actions of a scenario.
const (
	TestStart TestActionKind = iota + 1 // `Start(at: t);`
	TestSend                            // `Send(Event(args), at: t);`
	TestTake                            // `Take(Slot, at: t);`
)

// TestAction is one action of a scenario.
type TestAction struct {
	Decl *ast.CallStmt
	Kind TestActionKind
	At   Ticks
	// Event and Args, for TestSend: one argument per parameter.
	Event *Event
	Args  []TestArg
	// Slot, for TestTake: its subscriptions, of which a run takes the one
	// of the state it is in.
	Slot *Slot
}

// TestArg is an event's argument in a test: its expression and, for a
// parameter of an enum type, the member it names.
type TestArg struct {
	Value  ast.Expr
	Member *EnumMember
}

// TestFailure is `Fail("step", times: n, kind: K, retryAfter: d);`: the
// steps named Name fail Times attempts (after those of the Fail statements
// of the step before it), or every attempt after them (Always), with the
// error kind Kind (nil: none) and, when HasRetryAfter, the server's delay
// RetryAfter.
type TestFailure struct {
	Decl          *ast.CallStmt
	Name          string
	Steps         []*Step
	Times         int64
	Always        bool
	Kind          *EnumMember
	RetryAfter    Ticks
	HasRetryAfter bool
}

// ExpectKind says what an expectation checks.
type ExpectKind uint8

// The expectations.
const (
	ExpectState    ExpectKind = iota + 1 // `Expect.State(S[, at: t]);`
	ExpectEnd                            // `Expect.End(S[, at: t]);`
	ExpectGaveUp                         // `Expect.GaveUp("step"[, at: t]);`
	ExpectAttempts                       // `Expect.Attempts("step", t1, t2, …);`
	ExpectCall                           // `Expect.Call(X.Y(args)[, at: t]);`
	ExpectStopped                        // `Expect.Stopped([at: t]);`
)

var expectNames = [...]string{ExpectState: "Expect.State", ExpectEnd: "Expect.End", ExpectGaveUp: "Expect.GaveUp",
	ExpectAttempts: "Expect.Attempts", ExpectCall: "Expect.Call", ExpectStopped: "Expect.Stopped"}

// String is the expectation as written: `Expect.State`.
func (k ExpectKind) String() string {
	if int(k) < len(expectNames) && k != 0 {
		return expectNames[k]
	}
	return fmt.Sprintf("ExpectKind(%d)", int(k))
}

// Expect is one expectation of a test.
type Expect struct {
	Decl *ast.CallStmt
	Kind ExpectKind
	// At is the time the expectation is about, when HasAt.
	At    Ticks
	HasAt bool
	// State, for ExpectState and ExpectEnd.
	State *State
	// Step, for ExpectGaveUp and ExpectAttempts.
	Step *Step
	// Attempts, for ExpectAttempts: the attempts' start times.
	Attempts []Ticks
	// Call and Args, for ExpectCall: the call's dotted name as written,
	// and its arguments; Calls are the workflow's call statements of that
	// name, any of which the run may make.
	Call  string
	Args  []Arg
	Calls []*Call
}

// testItems are the statements a test may hold, for "did you mean": the
// vocabulary's test items, which `wfc explain` explains.
var testItems = vocab.TestItemNames()

// tests resolves every test of the program into the model.
func (c *checker) tests() {
	byDecl := map[*ast.Workflow]*Workflow{}
	for _, w := range c.res.Program.Workflows {
		byDecl[w.Decl] = w
	}
	names := map[string]*ast.Test{}
	for _, f := range c.prog.Files {
		if f.Overwhelmed {
			continue
		}
		c.enter(f)
		checked := c.checks(f)
		if c.reusable(f) {
			c.res.Program.Tests = append(c.res.Program.Tests, c.reused[f].tests...)
		}
		for _, d := range f.Decls {
			td, ok := d.(*ast.Test)
			if !ok {
				continue
			}
			if !checked {
				// Its name still comes first (WF505).
				if _, ok := names[td.Name.Value]; !ok {
					names[td.Name.Value] = td
				}
				continue
			}
			c.readFlag(func(u *Uses) { u.Tests = true })
			if prev, ok := names[td.Name.Value]; ok {
				dg := c.report(td.Name.Range, diag.WF505, "a test named %q is already declared; rename one of them", td.Name.Value)
				dg.Related = append(dg.Related, diag.Related{File: prev.File.Name, Range: prev.Name.Range, Message: "first declared here"})
			} else {
				names[td.Name.Value] = td
			}
			t := (&testResolver{c: c, t: &Test{Decl: td, Name: td.Name.Value}}).resolve(byDecl)
			c.res.Program.Tests = append(c.res.Program.Tests, t)
		}
	}
}

type testResolver struct {
	c *checker
	t *Test
	w *Workflow
	// partial: w failed to parse somewhere (unknown), once asked.
	partial *bool
}

// unknown reports a name the test's workflow does not have (WF501), unless
// that workflow failed to parse somewhere (a member, a state, a step's
// name): its model may lack what the name names, and the syntax error,
// reported already, is the one root cause.
func (r *testResolver) unknown(rng diag.Range, format string, args ...any) {
	if r.partial == nil {
		p := r.w.Decl.Bad
		for _, s := range r.w.Decl.States {
			p = p || s.Bad
		}
		for _, st := range r.w.Steps {
			p = p || st.Key == ""
		}
		r.partial = &p
	}
	if !*r.partial {
		r.c.report(rng, diag.WF501, format, args...)
	}
}

func (r *testResolver) resolve(byDecl map[*ast.Workflow]*Workflow) *Test {
	c, td := r.c, r.t.Decl
	var wfSet *ast.Setting
	unknown := false // an unknown setting may be the misspelt `Workflow`
	for _, s := range td.Settings {
		if s.Name == nil {
			continue
		}
		if s.Name.Name != "Workflow" {
			c.report(s.Name.Range, diag.WF504, "unknown test setting `%s`: a test's only setting is `Workflow = Name;`%s", s.Name.Name, c.didYouMean(s.Name.Range, s.Name.Name, []string{"Workflow"}))
			unknown = true
			continue
		}
		if wfSet != nil {
			d := c.report(s.Range, diag.WF101, "duplicate setting `Workflow`")
			c.related(d, wfSet.Range, "first set here")
			continue
		}
		wfSet = s
		r.w = r.workflowOf(s.Value, byDecl)
	}
	if wfSet == nil && !unknown {
		c.readFlag(func(u *Uses) { u.Workflows = true }) // how many there are
		if len(c.res.Program.Workflows) == 1 {
			r.w = c.res.Program.Workflows[0]
		} else {
			c.report(td.Keyword, diag.WF504, "test %q does not say which workflow it runs: add `Workflow = Name;`", td.Name.Value)
		}
	}
	r.t.Workflow = r.w
	for _, st := range td.Stmts {
		r.stmt(st)
	}
	return r.t
}

// workflowOf resolves `Workflow = Name;`'s value.
func (r *testResolver) workflowOf(e ast.Expr, byDecl map[*ast.Workflow]*Workflow) *Workflow {
	c := r.c
	n, ok := ast.Unparen(e).(*ast.Name)
	if !ok {
		if e != nil && !ast.HasBad(e) {
			c.report(e.Rng(), diag.WF502, "`Workflow` takes a workflow's name; found `%s`", ast.Compact(c.file.Text(e.Rng())))
		}
		return nil
	}
	if d, ok := c.global(n.Name).(*ast.Workflow); ok {
		w := byDecl[d]
		if w != nil {
			c.res.Program.Info.use(n, w)
		}
		return w
	}
	c.readFlag(func(u *Uses) { u.Workflows = true }) // their names, for a suggestion
	var cands []string
	for _, w := range c.res.Program.Workflows {
		cands = append(cands, w.Decl.Name.Name)
	}
	c.report(n.Range, diag.WF501, "unknown workflow `%s`%s", n.Name, c.didYouMean(n.Range, n.Name, cands))
	return nil
}

// args splits a call's arguments into positional ones and labelled ones;
// a label not in labels, a repeated label or a positional argument after a
// labelled one is WF502. ok is false when something was reported.
func (r *testResolver) args(what string, call *ast.Call, labels ...string) (pos []*ast.Arg, named map[string]*ast.Arg, ok bool) {
	c := r.c
	ok = true
	for _, a := range call.Args {
		if a.Label == nil {
			if len(named) > 0 {
				c.report(a.Range, diag.WF502, "`%s`: a positional argument cannot follow a labelled one", what)
				ok = false
				continue
			}
			pos = append(pos, a)
			continue
		}
		l := a.Label.Name
		known := false
		for _, k := range labels {
			known = known || k == l
		}
		if !known {
			if len(labels) == 0 {
				c.report(a.Label.Range, diag.WF502, "`%s` takes no labelled argument; found `%s:`", what, l)
			} else {
				c.report(a.Label.Range, diag.WF502, "`%s` takes no argument `%s:` (it takes %s)%s", what, l, labelList(labels), c.didYouMean(a.Label.Range, l, labels))
			}
			ok = false
			continue
		}
		if named[l] != nil {
			c.report(a.Range, diag.WF502, "`%s:` is given twice", l)
			ok = false
			continue
		}
		if named == nil {
			named = map[string]*ast.Arg{}
		}
		named[l] = a
	}
	return pos, named, ok
}

func labelList(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = "`" + x + ":`"
	}
	return strings.Join(q, ", ")
}

// count reports WF502 unless call has exactly n positional arguments
// (at least n when more is true).
func (r *testResolver) count(what string, call *ast.Call, pos []*ast.Arg, n int, more bool, shape string) bool {
	if len(pos) == n || more && len(pos) > n {
		return true
	}
	rng := call.Range
	if len(pos) > n {
		rng = diag.Range{Start: pos[n].Range.Start, End: pos[len(pos)-1].Range.End}
	}
	c := r.c
	c.report(rng, diag.WF502, "`%s` takes %s, as in `%s`; found %d", what, argCount(n, more), shape, len(pos))
	return false
}

func argCount(n int, more bool) string {
	s := "no argument"
	switch {
	case n == 1:
		s = "one argument"
	case n > 1:
		s = fmt.Sprintf("%d arguments", n)
	}
	if more {
		s = "at least " + s
	}
	return s
}

// at evaluates an `at:` argument (zero and false when absent).
func (r *testResolver) at(a *ast.Arg) (Ticks, bool) {
	if a == nil {
		return 0, false
	}
	return r.time(a.Value, "`at:`")
}

// time evaluates a time of a test: a TimeSpan from the start of the run,
// not negative. ok is false when it is not one (reported).
func (r *testResolver) time(e ast.Expr, what string) (Ticks, bool) {
	c := r.c
	if ast.HasBad(e) {
		return 0, false
	}
	if !isTimeSpanExpr(e) {
		c.report(e.Rng(), diag.WF503, "%s takes a time since the run started, a TimeSpan: %s", what, c.timeSpanHint(e))
		return 0, false
	}
	t, ok := c.timeSpan(e)
	if !ok {
		return 0, false
	}
	if t < 0 {
		c.report(e.Rng(), diag.WF503, "%s is %s, before the run started: a time in a test is at least `TimeSpan.Zero`", what, FormatTicks(t))
		return 0, false
	}
	return t, true
}

// stmt resolves one action or expectation.
func (r *testResolver) stmt(st *ast.CallStmt) {
	c := r.c
	call := st.Call
	name, _ := ast.DottedName(call.Fun)
	if st.Body != nil {
		c.report(st.Body.Range, diag.WF504, "a test's statements take no block")
		return
	}
	if vocab.TestStatementNamed(name) != nil {
		switch f := call.Fun.(type) {
		case *ast.Name:
			c.word(&ast.Ident{Range: f.Range, Name: f.Name}, vocab.KindTest)
		case *ast.Selector:
			c.word(f.Sel, vocab.KindTest)
		}
	}
	switch name {
	case "Start":
		r.start(st)
	case "Send":
		r.send(st)
	case "Take":
		r.take(st)
	case "Fail":
		r.fail(st)
	case "Takes":
		r.takes(st)
	case "Draws":
		r.draws(st)
	case "Expect.State", "Expect.End", "Expect.GaveUp", "Expect.Attempts", "Expect.Call", "Expect.Stopped":
		r.expect(st, name)
	default:
		shown := name
		if shown == "" {
			shown = ast.Compact(c.file.Text(call.Fun.Rng()))
		}
		c.report(call.Fun.Rng(), diag.WF504, "unknown test statement `%s`: a test sends events (`Send`), takes slots (`Take`), starts the run (`Start`), makes steps fail (`Fail`) and take time (`Takes`), gives jitter's draws (`Draws`) and expects (`Expect.State`, `Expect.End`, `Expect.GaveUp`, `Expect.Attempts`, `Expect.Call`, `Expect.Stopped`)%s",
			shown, c.didYouMean(call.Fun.Rng(), shown, testItems))
	}
}

func (r *testResolver) start(st *ast.CallStmt) {
	pos, named, ok := r.args("Start", st.Call, "at")
	if !ok || !r.count("Start", st.Call, pos, 0, false, "Start(at: TimeSpan.Zero)") {
		return
	}
	t, _ := r.at(named["at"])
	if r.w != nil && r.w.Autostart {
		r.c.report(st.Call.Fun.Rng(), diag.WF502, "workflow `%s` starts by itself (`Autostart = true`): remove `Start`", r.w.Decl.Name.Name)
		return
	}
	r.t.Actions = append(r.t.Actions, &TestAction{Decl: st, Kind: TestStart, At: t})
}

func (r *testResolver) send(st *ast.CallStmt) {
	c := r.c
	pos, named, ok := r.args("Send", st.Call, "at")
	if !ok || !r.count("Send", st.Call, pos, 1, false, "Send(Event(args), at: TimeSpan.FromMinutes(1))") {
		return
	}
	t, tok := r.at(named["at"])
	if named["at"] != nil && !tok {
		return
	}
	e := ast.Unparen(pos[0].Value)
	var evName *ast.Name
	var args []*ast.Arg
	switch x := e.(type) {
	case *ast.Name:
		evName = x
	case *ast.Call:
		evName, _ = x.Fun.(*ast.Name)
		args = x.Args
	}
	if evName == nil {
		if !ast.HasBad(e) {
			c.report(e.Rng(), diag.WF502, "`Send` takes an event with its arguments, as in `Send(Complete(Ok))`; found `%s`", ast.Compact(c.file.Text(e.Rng())))
		}
		return
	}
	if r.w == nil {
		return
	}
	var ev *Event
	var cands []string
	for _, x := range r.w.Events {
		if x.Decl.Name.Name == evName.Name && ev == nil {
			ev = x
		}
		cands = append(cands, x.Decl.Name.Name)
	}
	if ev == nil {
		r.unknown(evName.Range, "workflow `%s` has no event `%s`%s", r.w.Decl.Name.Name, evName.Name, c.didYouMean(evName.Range, evName.Name, cands))
		return
	}
	c.res.Program.Info.use(evName, ev)
	if len(args) != len(ev.Params) {
		rng := e.Rng()
		if len(args) > len(ev.Params) {
			rng = diag.Range{Start: args[len(ev.Params)].Range.Start, End: args[len(args)-1].Range.End}
		}
		if len(ev.Params) == 0 {
			c.report(rng, diag.WF502, "event `%s` takes no arguments; found %d", ev.Decl.Name.Name, len(args))
		} else {
			c.report(rng, diag.WF502, "event `%s` takes %s (%s); found %d", ev.Decl.Name.Name, argCount(len(ev.Params), false), paramList(ev), len(args))
		}
		return
	}
	act := &TestAction{Decl: st, Kind: TestSend, At: t, Event: ev}
	good := true
	for i, a := range args {
		v, ok := r.value(a, ev.Params[i])
		good = good && ok
		act.Args = append(act.Args, v)
	}
	if good {
		r.t.Actions = append(r.t.Actions, act)
	}
}

func paramList(ev *Event) string {
	if ev.Decl.Params == nil || len(ev.Decl.Params.List) == 0 {
		return ""
	}
	var b []string
	for _, p := range ev.Decl.Params.List {
		if p.Type != nil && p.Type.Name != nil && p.Name != nil {
			b = append(b, p.Type.Name.Name+" "+p.Name.Name)
		}
	}
	return "`" + strings.Join(b, ", ") + "`"
}

// value checks an event's argument against its parameter's type.
func (r *testResolver) value(a *ast.Arg, p *Param) (TestArg, bool) {
	c := r.c
	v := TestArg{Value: a.Value}
	if a.Label != nil {
		c.report(a.Label.Range, diag.WF502, "an event's arguments are positional: remove `%s:`", a.Label.Name)
		return v, false
	}
	e := ast.Unparen(a.Value)
	if ast.HasBad(e) {
		return v, false
	}
	pname := "?"
	if p.Decl.Name != nil {
		pname = p.Decl.Name.Name
	}
	ty := p.Type
	switch {
	case ty.Enum != nil:
		en := ty.Enum.Decl.Name.Name
		var id *ast.Ident
		switch x := e.(type) {
		case *ast.Name:
			id = &ast.Ident{Range: x.Range, Name: x.Name}
		case *ast.Selector:
			if n, ok := x.X.(*ast.Name); ok && n.Name == en {
				id = x.Sel
			}
		}
		var cands []string
		for _, m := range ty.Enum.Members {
			cands = append(cands, m.Ident.Name)
			if id != nil && m.Ident.Name == id.Name && v.Member == nil {
				v.Member = m
			}
		}
		if v.Member != nil {
			// The names, for the editor's references and rename: the
			// member, and a qualifier its enum.
			switch x := e.(type) {
			case *ast.Name:
				c.res.Program.Info.use(x, v.Member)
			case *ast.Selector:
				c.res.Program.Info.use(x.Sel, v.Member)
				c.res.Program.Info.use(x.X, ty.Enum)
			}
			return v, true
		}
		if str, ok := e.(*ast.StringLit); ok && id == nil && !str.Bad {
			r.stringForMember(str, ty.Enum, pname)
			return v, false
		}
		if id == nil {
			c.report(e.Rng(), diag.WF502, "parameter `%s` is of enum `%s`: write one of its members (%s); found `%s`", pname, en, strings.Join(cands, ", "), ast.Compact(c.file.Text(e.Rng())))
			return v, false
		}
		c.report(id.Range, diag.WF502, "`%s` is not a member of enum `%s` (parameter `%s`)%s", id.Name, en, pname, c.didYouMean(id.Range, id.Name, cands))
		return v, false
	case ty.Entity != nil:
		return v, true // an entity is passed by reference: any name
	}
	want := map[Basic]vkind{String: kString, Int: kInt, Bool: kBool, Decimal: kDecimal, TimeSpanType: kTimeSpan, DateTime: kString}[ty.Basic]
	if want == 0 {
		return v, true // an unresolved type, already reported
	}
	got := kindOfExpr(e)
	if got == want || want == kDecimal && got == kInt {
		if want == kTimeSpan {
			_, ok := c.timeSpan(e)
			return v, ok
		}
		return v, true
	}
	tname := p.Decl.Type.Name.Name
	c.report(e.Rng(), diag.WF502, "parameter `%s` is of type `%s`; found `%s`", pname, tname, ast.Compact(c.file.Text(e.Rng())))
	return v, false
}

// stringForMember reports a string written where a member of enum en
// belongs (parameter pname), with the members it may mean: the member
// its text names (written bare or qualified, `"Ok"` or `"Decision.Ok"`),
// else the members it names but for case, else the closest member. One
// member named exactly or but for case is a fix that needs no decision
// (machine-applicable); several, or a guess, are for a person to choose.
func (r *testResolver) stringForMember(str *ast.StringLit, en *Enum, pname string) {
	c := r.c
	name := en.Decl.Name.Name
	text := strings.TrimPrefix(str.Value, name+".")
	var cands []string
	for _, m := range en.Members {
		cands = append(cands, m.Ident.Name)
	}
	var found []string
	sure := false
	if m := en.member(text); m != nil {
		found, sure = []string{m.Ident.Name}, true
	} else {
		seen := map[string]bool{}
		for _, m := range en.Members {
			if strings.EqualFold(m.Ident.Name, text) && !seen[m.Ident.Name] {
				seen[m.Ident.Name] = true
				found = append(found, m.Ident.Name)
			}
		}
		sure = len(found) == 1
		if len(found) == 0 {
			if best := closest(text, cands); best != "" {
				found = []string{best}
			}
		}
	}
	written := ast.Compact(c.file.Text(str.Range))
	var d *diag.Diagnostic
	switch {
	case len(found) == 0:
		d = c.report(str.Range, diag.WF502, "parameter `%s` is of enum `%s`: write one of its members, without quotes (%s); found the string `%s`", pname, name, strings.Join(cands, ", "), written)
	case sure:
		d = c.report(str.Range, diag.WF502, "parameter `%s` is of enum `%s`: write its member `%s`, without quotes; found the string `%s`", pname, name, found[0], written)
	case len(found) == 1:
		d = c.report(str.Range, diag.WF502, "parameter `%s` is of enum `%s`: write one of its members, without quotes; found the string `%s`; did you mean `%s`?", pname, name, written, found[0])
	default:
		d = c.report(str.Range, diag.WF502, "parameter `%s` is of enum `%s`: write one of its members, without quotes; found the string `%s`, which could be %s", pname, name, written, orList(found))
	}
	for _, f := range found {
		d.Fixes = append(d.Fixes, diag.Fix{Title: fmt.Sprintf("replace `%s` with `%s`", written, f), MachineApplicable: sure,
			Edits: []diag.Edit{{File: c.file.Name, Range: str.Range, NewText: f}}})
	}
}

func (r *testResolver) take(st *ast.CallStmt) {
	c := r.c
	pos, named, ok := r.args("Take", st.Call, "at")
	if !ok || !r.count("Take", st.Call, pos, 1, false, "Take(Worker, at: TimeSpan.FromMinutes(1))") {
		return
	}
	t, tok := r.at(named["at"])
	if named["at"] != nil && !tok {
		return
	}
	n, isName := ast.Unparen(pos[0].Value).(*ast.Name)
	if !isName {
		c.report(pos[0].Range, diag.WF502, "`Take` takes a slot's name (a subscription's alias, else its event), as in `Take(Worker)`")
		return
	}
	if r.w == nil {
		return
	}
	slot := r.w.SlotNamed(n.Name)
	if len(slot.Subscriptions) == 0 {
		var cands []string
		for _, s := range r.w.States {
			for _, x := range s.Subscriptions {
				cands = append(cands, x.Slot())
			}
		}
		r.unknown(n.Range, "workflow `%s` has no slot `%s`%s", r.w.Decl.Name.Name, n.Name, c.didYouMean(n.Range, n.Name, cands))
		return
	}
	c.res.Program.Info.use(n, slot.Subscriptions[0])
	r.t.Actions = append(r.t.Actions, &TestAction{Decl: st, Kind: TestTake, At: t, Slot: slot})
}

// stepName reads a step's name, a string literal, and finds its steps.
func (r *testResolver) stepName(what string, a *ast.Arg) (string, []*Step, bool) {
	c := r.c
	s, ok := ast.Unparen(a.Value).(*ast.StringLit)
	if !ok {
		if !ast.HasBad(a.Value) {
			c.report(a.Range, diag.WF502, "`%s` takes a durable step's name, a string, as in `%s(\"charge-card\")`", what, what)
		}
		return "", nil, false
	}
	if s.Bad {
		return "", nil, false
	}
	if r.w == nil {
		return s.Value, nil, false
	}
	var steps []*Step
	var cands []string
	for _, st := range r.w.Steps {
		if st.Consumer == nil {
			continue
		}
		cands = append(cands, st.Key)
		if st.Key == s.Value {
			steps = append(steps, st)
		}
	}
	if len(steps) == 0 {
		// The name is a string: the hint and its fix write the whole
		// literal, quotes included, as the language writes it.
		var h hint
		if best := closest(s.Value, cands); best != "" {
			lit := lexer.Quote(best)
			h = c.replaceHint(s.Range, ast.Compact(c.file.Text(s.Range)), lit)
		}
		r.unknown(s.Range, "workflow `%s` has no durable step %s%s", r.w.Decl.Name.Name, lexer.Quote(s.Value), h)
		return s.Value, nil, false
	}
	c.res.Program.Info.use(s, steps[0]) // the name, for the editor's references and rename
	return s.Value, steps, true
}

func (r *testResolver) fail(st *ast.CallStmt) {
	c := r.c
	pos, named, ok := r.args("Fail", st.Call, "times", "kind", "retryAfter")
	if !ok || !r.count("Fail", st.Call, pos, 1, false, `Fail("charge-card", times: 2)`) {
		return
	}
	name, steps, ok := r.stepName("Fail", pos[0])
	if !ok {
		return
	}
	f := &TestFailure{Decl: st, Name: name, Steps: steps, Always: true}
	if a := named["times"]; a != nil {
		n, ok := r.count1(a, "`times:` is how many attempts fail, a whole number of at least 1; found `%s` (leave it out for every attempt)")
		if !ok {
			return
		}
		f.Times, f.Always = n, false
	}
	if a := named["kind"]; a != nil {
		var prefer []*Enum
		if steps[0].Consumer != nil {
			prefer = policyEnums(steps[0].Consumer.Policy)
		}
		if f.Kind = c.kindOf(a.Value, prefer, diag.WF502, "error kind"); f.Kind == nil {
			return
		}
	}
	if a := named["retryAfter"]; a != nil {
		t, ok := r.time(a.Value, "`retryAfter:`")
		if !ok {
			return
		}
		f.RetryAfter, f.HasRetryAfter = t, true
	}
	r.t.Failures = append(r.t.Failures, f)
}

// count1 reads a whole number of at least 1 (an `attempt:` or `times:`),
// reporting WF502 with msg (a %s for the value) otherwise.
func (r *testResolver) count1(a *ast.Arg, msg string) (int64, bool) {
	n, isInt := ast.Unparen(a.Value).(*ast.IntLit)
	switch {
	case isInt && n.Bad:
		return 0, false
	case !isInt || n.Value < 1:
		r.c.report(a.Value.Rng(), diag.WF502, msg, ast.Compact(r.c.file.Text(a.Value.Rng())))
		return 0, false
	}
	return n.Value, true
}

// takes reads `Takes("step", d[, attempt: n]);`.
func (r *testResolver) takes(st *ast.CallStmt) {
	pos, named, ok := r.args("Takes", st.Call, "attempt")
	if !ok || !r.count("Takes", st.Call, pos, 2, false, `Takes("charge-card", TimeSpan.FromSeconds(4))`) {
		return
	}
	_, steps, ok := r.stepName("Takes", pos[0])
	if !ok {
		return
	}
	d, ok := r.time(pos[1].Value, "how long an attempt takes")
	if !ok {
		return
	}
	tk := &TestTakes{Decl: st, Steps: steps, Took: d}
	if a := named["attempt"]; a != nil {
		if tk.Attempt, ok = r.count1(a, "`attempt:` is an attempt's number, counted over the run from 1; found `%s` (leave it out for every attempt)"); !ok {
			return
		}
	}
	r.t.Takes = append(r.t.Takes, tk)
}

// draws reads `Draws(u, …);`: uniform draws in [0, 1).
func (r *testResolver) draws(st *ast.CallStmt) {
	c := r.c
	pos, _, ok := r.args("Draws", st.Call)
	if !ok || !r.count("Draws", st.Call, pos, 1, true, "Draws(0.0, 0.75)") {
		return
	}
	if r.t.Draws != nil {
		c.report(st.Call.Fun.Rng(), diag.WF502, "`Draws` is given twice: write every draw in one `Draws(…)`, in order")
		return
	}
	var us []float64
	for _, a := range pos {
		n, isNum := numLit(a.Value)
		if !isNum {
			c.report(a.Range, diag.WF502, "a draw is a number in [0, 1), such as `0.75`; found `%s`", ast.Compact(c.file.Text(a.Range)))
			return
		}
		if n.bad {
			return
		}
		if n.r().Sign() < 0 || n.r().Cmp(big.NewRat(1, 1)) >= 0 {
			c.report(a.Range, diag.WF502, "a draw is a number in [0, 1), as `wfc schedule --draws` takes them; found `%s`", ast.Compact(c.file.Text(a.Range)))
			return
		}
		f, _ := n.r().Float64()
		us = append(us, f)
	}
	r.t.Draws = us
}

func (r *testResolver) expect(st *ast.CallStmt, name string) {
	c := r.c
	call := st.Call
	x := &Expect{Decl: st}
	var pos []*ast.Arg
	var named map[string]*ast.Arg
	var ok bool
	if name == "Expect.Attempts" {
		pos, named, ok = r.args(name, call)
	} else {
		pos, named, ok = r.args(name, call, "at")
	}
	if !ok {
		return
	}
	if a := named["at"]; a != nil {
		t, ok := r.at(a)
		if !ok {
			return
		}
		x.At, x.HasAt = t, true
	}
	switch name {
	case "Expect.State", "Expect.End":
		x.Kind = ExpectState
		if name == "Expect.End" {
			x.Kind = ExpectEnd
		}
		if !r.count(name, call, pos, 1, false, name+"(Running, at: TimeSpan.FromMinutes(1))") {
			return
		}
		if x.State = r.state(pos[0]); x.State == nil {
			return
		}
		if x.Kind == ExpectEnd && x.State.Kind == ast.Normal {
			c.report(pos[0].Range, diag.WF502, "state `%s` is not terminal: a run never ends there; expect it with `Expect.State`", x.State.Decl.Name.Name)
			return
		}
	case "Expect.GaveUp":
		x.Kind = ExpectGaveUp
		if !r.count(name, call, pos, 1, false, `Expect.GaveUp("charge-card")`) {
			return
		}
		var steps []*Step
		if _, steps, ok = r.stepName(name, pos[0]); !ok {
			return
		}
		x.Step = steps[0]
	case "Expect.Attempts":
		x.Kind = ExpectAttempts
		if !r.count(name, call, pos, 1, true, `Expect.Attempts("charge-card", TimeSpan.Zero, TimeSpan.FromSeconds(2))`) {
			return
		}
		var steps []*Step
		if _, steps, ok = r.stepName(name, pos[0]); !ok {
			return
		}
		x.Step = steps[0]
		good := true
		for i, a := range pos[1:] {
			t, ok := r.time(a.Value, fmt.Sprintf("attempt %d's time", i+1))
			good = good && ok
			x.Attempts = append(x.Attempts, t)
		}
		if !good {
			return
		}
	case "Expect.Stopped":
		x.Kind = ExpectStopped
		if !r.count(name, call, pos, 0, false, "Expect.Stopped(at: TimeSpan.FromHours(3))") {
			return
		}
	case "Expect.Call":
		x.Kind = ExpectCall
		if !r.count(name, call, pos, 1, false, "Expect.Call(Mail.Send(Order))") {
			return
		}
		if !r.expectedCall(x, pos[0]) {
			return
		}
	}
	r.t.Expects = append(r.t.Expects, x)
}

// state resolves a state's name in the test's workflow.
func (r *testResolver) state(a *ast.Arg) *State {
	c := r.c
	n, ok := ast.Unparen(a.Value).(*ast.Name)
	if !ok {
		if !ast.HasBad(a.Value) {
			c.report(a.Range, diag.WF502, "expected a state's name; found `%s`", ast.Compact(c.file.Text(a.Range)))
		}
		return nil
	}
	if r.w == nil {
		return nil
	}
	s := r.w.StateNamed(n.Name)
	if s == nil {
		var cands []string
		for _, x := range r.w.States {
			cands = append(cands, x.Decl.Name.Name)
		}
		r.unknown(n.Range, "workflow `%s` has no state `%s`%s", r.w.Decl.Name.Name, n.Name, c.didYouMean(n.Range, n.Name, cands))
		return nil
	}
	c.res.Program.Info.use(n, s)
	return s
}

// expectedCall reads `X.Y(args)` and checks that the workflow makes a call
// of that name somewhere.
func (r *testResolver) expectedCall(x *Expect, a *ast.Arg) bool {
	c := r.c
	call, ok := ast.Unparen(a.Value).(*ast.Call)
	var fun string
	if ok {
		fun, ok = ast.DottedName(call.Fun)
	}
	if !ok {
		if !ast.HasBad(a.Value) {
			c.report(a.Range, diag.WF502, "`Expect.Call` takes the call as the workflow makes it, as in `Expect.Call(Mail.Send(Order))`")
		}
		return false
	}
	if ast.HasBad(call) {
		return false
	}
	x.Call = fun
	for _, ca := range call.Args {
		arg := Arg{Value: ca.Value}
		if ca.Label != nil {
			arg.Label = ca.Label.Name
		}
		x.Args = append(x.Args, arg)
	}
	if r.w == nil {
		return false
	}
	seen := map[string]bool{}
	var cands []string
	for _, s := range r.w.States {
		eachCall(s, func(cl *Call) {
			if cl.Fun == fun {
				x.Calls = append(x.Calls, cl)
			}
			if cl.Fun != "" && !seen[cl.Fun] {
				seen[cl.Fun] = true
				cands = append(cands, cl.Fun)
			}
		})
	}
	if len(x.Calls) == 0 {
		r.unknown(call.Fun.Rng(), "workflow `%s` makes no call `%s`%s", r.w.Decl.Name.Name, fun, c.didYouMean(call.Fun.Rng(), fun, cands))
		return false
	}
	good := true
	for i := range x.Args {
		good = r.expectedMember(x, i) && good
	}
	return good
}

// expectedMember resolves argument i of an expected call when it names an
// enum member, so that the runner compares it with the run's argument by
// the member, however either is written: `Decision.Ok`, a member of a
// declared enum, is that member; a bare `Ok` is the member of that name
// of the enum the calls it may match (those of its arity, with its label
// there) take at its place — a handler parameter's enum, or the enum of a
// member written there. A bare name no such enum has stays a name, as in
// a workflow's call; one that two enums there have, or a qualified name
// its enum lacks, is WF502.
func (r *testResolver) expectedMember(x *Expect, i int) bool {
	c := r.c
	a := &x.Args[i]
	switch e := a.Value.(type) {
	case *ast.Selector:
		n, ok := e.X.(*ast.Name)
		if !ok || e.Sel == nil {
			return true
		}
		d, ok := c.global(n.Name).(*ast.Enum)
		if !ok || c.dup(n.Name) {
			return true // not an enum: a name, compared as written
		}
		en := c.model.enumOf(d)
		if en == nil {
			return true
		}
		if a.Member = en.member(e.Sel.Name); a.Member == nil {
			c.report(e.Sel.Range, diag.WF502, "`%s` is not a member of enum `%s`%s", e.Sel.Name, n.Name, c.didYouMean(e.Sel.Range, e.Sel.Name, memberNames(en)))
			return false
		}
		c.res.Program.Info.use(e.Sel, a.Member)
		c.res.Program.Info.use(n, en)
	case *ast.Name:
		var found []*EnumMember
		for _, cl := range x.Calls {
			if len(cl.Args) != len(x.Args) || cl.Args[i].Label != a.Label {
				continue
			}
			var en *Enum
			switch ca := cl.Args[i]; {
			case ca.Param != nil:
				en = ca.Param.Type.Enum
			case ca.Member != nil:
				en = ca.Member.Enum
			}
			if en == nil {
				continue
			}
			if m := en.member(e.Name); m != nil && !slices.Contains(found, m) {
				found = append(found, m)
			}
		}
		switch len(found) {
		case 0:
		case 1:
			a.Member = found[0]
			c.res.Program.Info.use(e, a.Member)
		default:
			var qs []string
			for _, m := range found {
				qs = append(qs, m.Enum.Decl.Name.Name+"."+m.Ident.Name)
			}
			d := c.report(e.Range, diag.WF502, "`%s` is ambiguous: the calls `%s` this may match take enums %s here, each with a member `%s`; write it qualified, %s", e.Name, x.Call, enumList(found), e.Name, orList(qs))
			for _, q := range qs {
				d.Fixes = append(d.Fixes, diag.Fix{Title: fmt.Sprintf("replace `%s` with `%s`", e.Name, q),
					Edits: []diag.Edit{{File: c.file.Name, Range: e.Range, NewText: q}}})
			}
			return false
		}
	}
	return true
}

// eachCall calls f for every call statement of state s, in handlers,
// outcomes, cases and steps.
func eachCall(s *State, f func(*Call)) {
	var block func(b *Block)
	block = func(b *Block) {
		if b == nil {
			return
		}
		for _, st := range b.Stmts {
			switch st := st.(type) {
			case *Call:
				f(st)
			case *Step:
				block(st.Body)
				if st.Catch != nil {
					for _, cc := range st.Catch.Cases {
						block(cc.Body)
					}
				}
			case *Case:
				block(st.Body)
			case *Default:
				block(st.Body)
			}
		}
	}
	for _, h := range s.Handlers {
		block(h.Body)
	}
	for _, sub := range s.Subscriptions {
		for _, m := range sub.Milestones {
			for _, o := range m.Outcomes {
				block(o.Body)
			}
		}
	}
}
