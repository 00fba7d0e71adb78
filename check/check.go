// Package check gives a parsed program its meaning (docs/language.md) and
// reports every diagnostic of the catalogue at the range it names.
//
// After the program's global names are collected, it runs in two passes: a
// resolver walks each declaration, resolves names and values, reports what
// is wrong with them and records what it found; then the rules (rules.go),
// one small unit per check of a program's shape, run in one traversal
// over the tree, those facts and the model. It follows "one root cause, one
// diagnostic": a declaration that failed to parse still declares its name,
// a Bad node silences only the checks that cannot see into it, a "did you
// mean X" is not followed by a report that X is missing, and an unknown or
// duplicated type silences what depends on it (docs/checker.md lists what
// hides what).
//
// Between the two passes the checker builds the model (model.go, build.go):
// the resolved program, which Check returns with the diagnostics and which
// every tool after the checker reads instead of resolving the tree again.
// The resolver records what each reference resolved to as it resolves
// (refs.go), and the builder makes the model's pointers from that record,
// looking no name up again.
//
// # Reading the model
//
// Result.Program holds the program's Enums, Entities and Workflows in
// source order. A Workflow has its Initial state, its Tracked field, its
// Events, States and durable Steps. A State has its Kind, its
// Subscriptions, its Handlers, its Transitions (every goto, with From and
// To) and its Reach (Reachable, Unreachable, or ReachUnknown when errors
// make it unknowable; Workflow.ReachKnown says which). A Subscription has
// its Event, its Slot (the alias, else the event's name), its Milestones
// (Kind, Outcomes, and the Consumer: Window, Attempts, Budget, Policy) and
// the Handler that answers it. A Handler has the Subscription it handles,
// its Params, the Enum its cases match with the EnumParam of that type,
// and a Body. Program.Info maps every name of the tree to its object (Defs
// and Uses, as go/types' Info).
//
// To run a workflow: start in Workflow.Initial; in a state, wait for the
// events of its Subscriptions, with a timer per milestone (Consumer.Window,
// then the lowered schedule's waits between windows, Consumer.Attempts
// windows in all); when the event arrives, run Subscription.Handler.Body;
// when the last window passes, run the milestone's Outcome of kind
// Unassigned or Unfinished, and when a policy's attempts are used up the
// Exhausted one. Running a Block runs its Stmts in order: a Call is an
// external effect with its Args, a Step runs its Body as one durable unit
// retried by its Consumer's policy, a Case runs its Body when the handler's
// enum argument is its Member and a Default when no Case of the block
// matched, and a Goto moves the run to Goto.To and ends the handler; a
// Call's Arg that names a handler parameter (Arg.Param) passes the event's
// argument at that Param's Index. A run ends in a terminal State (with its
// Message when it is a terminal error). Only a program without errors is
// meant to be run: in one with errors an unresolved reference is nil.
//
// Check keeps no state between calls and is safe for concurrent use. The
// model is not modified after Check returns, so it may be read
// concurrently.
package check

import (
	"cmp"
	"fmt"
	"slices"
	"sort"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/diag"
)

// Result is what Check returns.
type Result struct {
	Diags []diag.Diagnostic
	// Program is the resolved program (model.go).
	Program *Program
	// Consumers are the policy consumers of Program's milestones and steps,
	// in source order: files in the program's order, and in a file by
	// position (a step inside a milestone's outcome after the milestone,
	// though the checker meets it first), so `wfc schedule` and `wfc export
	// temporal` list them as written (docs/temporal.md). With
	// Options.Only, those of the files checked.
	Consumers []*Consumer
	// Files are, with Options.PerFile or Only, what checking each file
	// gave, in the program's order (perfile.go).
	Files []*FileResult
}

// Options choose what Check records beyond the diagnostics and the model,
// as go/types fills only the Info maps its caller asks for.
type Options struct {
	// Info records Program.Info: the object of every name (Defs, Uses) and
	// the vocabulary words written in their place (Words). Only the editor
	// reads them (definition, references, rename, hover), so a command-line
	// check does not pay for them: as with go/types' Info, what is not
	// asked for is not recorded. The maps were a seventh of the memory that
	// stays of 100,000 one-line workflows (docs/limits.md).
	Info bool
	// PerFile records, for each file, what checking it reported and what
	// it read of the other files (Result.Files): what the driver keeps to
	// check a file again without the others (perfile.go). With Info, each
	// file's names go to its FileResult.Info.
	PerFile bool
	// Only, when not nil, checks the declarations of these files alone,
	// against the whole program: the other files' declarations are seen as
	// a whole check sees them (their names, what they declare), and what
	// is returned — diagnostics, consumers, Files — is what a whole check
	// reports while it checks these files. It implies PerFile.
	Only map[*ast.File]bool
	// Reuse is the model of an earlier check of the same program: the
	// objects of the files not checked (Only) are taken from it, so the
	// new model is whole and the new objects point at them as a whole
	// check's would. Those files must be the trees it was built from, and
	// none of their objects may point at the files checked (the driver
	// checks those that do again with them). Without Reuse, the files not
	// checked get objects as far as the checked ones need them.
	Reuse *Program
}

// Check checks a whole program.
func Check(prog *ast.Program) *Result { return CheckWith(prog, Options{}) }

// CheckWith is Check recording what opt asks for.
func CheckWith(prog *ast.Program, opt Options) *Result {
	return checkRules(prog, opt, defaultRules)
}

// checkRules is CheckWith with the rules rs: tests run it with rules of
// their own.
func checkRules(prog *ast.Program, opt Options, rs *ruleSet) *Result {
	c := &checker{
		rules:      rs,
		opt:        opt,
		prog:       prog,
		decls:      make(map[string]ast.Decl, countDecls(prog)),
		duplicated: map[string]bool{},
		wfFacts:    map[*ast.Workflow]*wfCtx{},
		stFacts:    map[*ast.State]*stCtx{},
		consumerAt: map[ast.Node]*Consumer{},
		res:        &Result{},
	}
	if c.perFile() {
		c.recs = map[*ast.File]*fileRec{}
		c.reused = c.reuse()
	}
	c.collect()
	for _, f := range prog.Files {
		if f.Overwhelmed || !c.checks(f) {
			continue
		}
		c.enter(f)
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.Enum:
				c.enum(d)
			case *ast.Entity:
				c.entity(d)
			}
		}
	}
	b := c.buildTypes()
	c.workflows(b)
	c.res.Program = b.p
	c.tests()
	c.res.Program.Info.Words = c.words
	c.entityRules()
	c.fileResults()
	c.res.Diags = c.diags.Items
	return c.res
}

// countDecls is how many declarations prog has: the global namespace is
// made at its size at once.
func countDecls(prog *ast.Program) int {
	n := 0
	for _, f := range prog.Files {
		n += len(f.Decls)
	}
	return n
}

// workflows checks every workflow, one at a time through both passes: what
// the first pass found about it (wfFacts, stFacts) is dropped once its
// rules ran, so a program of many workflows holds the facts of one
// (100,000 one-line workflows held 70 MB of them at once). A rule that
// reads across workflows (program scope) needs every workflow's facts:
// then the rules run once all are checked.
func (c *checker) workflows(b *builder) {
	type later struct {
		f *ast.File
		d *ast.Workflow
	}
	var rest []later
	quiet := c.opt.Only != nil && c.needWorkflows()
	for _, f := range c.prog.Files {
		if f.Overwhelmed {
			continue
		}
		if c.reusable(f) {
			b.p.Workflows = append(b.p.Workflows, c.reused[f].workflows...)
			continue
		}
		if !c.checks(f) && !quiet {
			continue // nothing checked needs them
		}
		c.enter(f)
		for _, d := range f.Decls {
			d, ok := d.(*ast.Workflow)
			if !ok {
				continue
			}
			n := len(c.res.Consumers)
			c.workflow(d)
			sortBySource(c.res.Consumers[n:])
			b.workflow(d)
			if !c.rules.oneByOne {
				rest = append(rest, later{f, d})
				continue
			}
			c.workflowRules(d)
			c.forget(d)
		}
	}
	for _, l := range rest {
		c.enter(l.f)
		c.workflowRules(l.d)
	}
}

// forget drops what the first pass found about workflow d, once the model
// and the rules have read it.
func (c *checker) forget(d *ast.Workflow) {
	delete(c.wfFacts, d)
	for _, s := range d.States {
		delete(c.stFacts, s)
	}
	c.refs.dropAll() // only d's: workflows are forgotten one by one
}

// sortBySource orders one workflow's consumers by their position in its
// file. The checker meets a milestone's outcome steps before it records
// the milestone, and a state's subscriptions before its handlers.
func sortBySource(cs []*Consumer) {
	slices.SortStableFunc(cs, func(a, b *Consumer) int { return cmp.Compare(a.Pos.Offset, b.Pos.Offset) })
}

type checker struct {
	prog  *ast.Program
	file  *ast.File
	decls map[string]ast.Decl // enums, entities, workflows: one global namespace
	// duplicated are the global names declared more than once (WF101):
	// checks that depend on what such a name means stay quiet.
	duplicated map[string]bool
	entities   *nameSet // entity names, once asked for (entitySet)
	types      *nameSet // type names, once asked for (typeSet)
	members    map[*ast.Enum]*nameSet
	rules      *ruleSet // the rules the second pass runs (rules.go)
	// What the first pass found, for the rules: of the workflows checked
	// and not yet forgotten (checker.workflows).
	wfFacts map[*ast.Workflow]*wfCtx
	stFacts map[*ast.State]*stCtx
	// consumerAt is the consumer of each milestone and step node, for
	// the model.
	consumerAt map[ast.Node]*Consumer
	// model is the model being built: its enums and entities exist before
	// the workflows are resolved, so the resolver records the members a
	// workflow's cases name as the model's (refs.go).
	model *builder
	// enumDecls are the program's enums, in its order (programEnums).
	enumDecls []*ast.Enum
	// refs are what the references of the workflows not yet forgotten
	// resolved to (refs.go).
	refs refTable
	opt  Options
	// words are the vocabulary words met so far (builtin.go), when
	// opt.Info asks for them.
	words []WordUse
	diags diag.List
	res   *Result
	// File by file (perfile.go): what each file reported (from, beside
	// diags.Items) and read (recs, cur), and the earlier model's objects
	// of the files not checked (reused).
	from   []*fileRec
	recs   map[*ast.File]*fileRec
	cur    *fileRec
	reused map[*ast.File]*reused
	// principal is the first [Principal] entity seen.
	principal     *ast.Attr
	principalFile string
}

// report adds a diagnostic of code id, with the catalogue's severity, in
// the current file. A hint among args (from didYouMean) gives the
// diagnostic its fix when the fix edits inside the diagnostic's range.
func (c *checker) report(r diag.Range, id diag.ID, format string, args ...any) *diag.Diagnostic {
	return c.reportIn(c.file.Name, r, id, fmt.Sprintf(format, args...), args...)
}

// reportIn is report in another file, with the message already formatted;
// hints among args give their fixes as in report.
func (c *checker) reportIn(file string, r diag.Range, id diag.ID, msg string, args ...any) *diag.Diagnostic {
	c.diags.Items = append(c.diags.Items, diag.New(file, r, id, msg))
	if c.perFile() {
		c.from = append(c.from, c.cur)
	}
	d := &c.diags.Items[len(c.diags.Items)-1]
	for _, a := range args {
		if h, ok := a.(hint); ok {
			attach(d, h)
		}
	}
	return d
}

// attach gives d the fix of h when it edits inside d's range.
func attach(d *diag.Diagnostic, h hint) *diag.Diagnostic {
	if h.fix == nil {
		return d
	}
	e := h.fix.Edits[0].Range
	if e.Start.Offset >= d.Range.Start.Offset && e.End.Offset <= d.Range.End.Offset {
		d.Fixes = append(d.Fixes, *h.fix)
	}
	return d
}

// hint is a "did you mean" suggestion: its String is the text a message
// ends with ("; did you mean `X`?", or "" when nothing is close), and it
// carries the fix that replaces the name. Passed to report, the fix goes
// with the diagnostic.
type hint struct {
	best string
	fix  *diag.Fix
}

func (h hint) String() string {
	if h.best == "" {
		return ""
	}
	return fmt.Sprintf("; did you mean `%s`?", h.best)
}

// didYouMean suggests the candidate closest to name, with a fix replacing
// the name at r by it. The fix needs a human to confirm it, so it is shown,
// never applied by --fix.
func (c *checker) didYouMean(r diag.Range, name string, cands []string) hint {
	return c.suggest(r, name, newNameSet(cands))
}

// suggest is didYouMean with a prepared candidate set, for the large ones
// (states, events, types, enum members) asked again and again.
func (c *checker) suggest(r diag.Range, name string, set *nameSet) hint {
	best := set.Closest(name)
	if best == "" {
		return hint{}
	}
	return c.replaceHint(r, name, best)
}

// replaceHint is the hint that suggests best for name at r.
func (c *checker) replaceHint(r diag.Range, name, best string) hint {
	return hint{best: best, fix: &diag.Fix{Title: fmt.Sprintf("replace `%s` with `%s`", name, best),
		Edits: []diag.Edit{{File: c.file.Name, Range: r, NewText: best}}}}
}

// related adds a secondary location in the current file.
func (c *checker) related(d *diag.Diagnostic, r diag.Range, msg string) {
	d.Related = append(d.Related, diag.Related{File: c.file.Name, Range: r, Message: msg})
}

// collect records the global declarations; a repeated name is WF101 on the
// second, with the first as related location. The first stays the one uses
// resolve to, so a duplicate does not make its uses errors.
func (c *checker) collect() {
	for _, f := range c.prog.Files {
		c.enter(f)
		for _, d := range f.Decls {
			n := d.DeclName()
			if n == nil {
				continue
			}
			c.read(n.Name) // a duplicate elsewhere changes what it means
			if prev, ok := c.decls[n.Name]; ok {
				c.duplicated[n.Name] = true
				if f.Overwhelmed {
					continue
				}
				pf := prev.DeclFile()
				dg := c.reportIn(f.Name, n.Range, diag.WF101, fmt.Sprintf("`%s` is already declared as %s; rename one of them", n.Name, kindOf(prev)))
				dg.Related = append(dg.Related, diag.Related{File: pf.Name, Range: prev.DeclName().Range, Message: "first declared here"})
				continue
			}
			if builtinTypes[n.Name] {
				if f.Overwhelmed {
					continue
				}
				c.reportIn(f.Name, n.Range, diag.WF101, fmt.Sprintf("`%s` is a built-in type; choose another name", n.Name))
				continue
			}
			c.decls[n.Name] = d
		}
	}
}

func kindOf(d ast.Decl) string {
	switch d.(type) {
	case *ast.Enum:
		return "an enum"
	case *ast.Entity:
		return "an entity"
	}
	return "a workflow"
}

var builtinTypes = map[string]bool{"string": true, "int": true, "bool": true, "decimal": true, "DateTime": true, "TimeSpan": true}

// scope tracks names declared in one scope for WF101. Most scopes hold a
// handful of names (a milestone's settings, a handler's cases), so they are
// a short list, searched in order, until they grow past smallScope names.
type scope struct {
	c     *checker
	what  string
	few   []*ast.Ident
	names map[string]*ast.Ident // once past smallScope
}

const smallScope = 8

func (c *checker) newScope(what string) scope {
	return scope{c: c, what: what}
}

func (s *scope) lookup(name string) *ast.Ident {
	if s.names != nil {
		return s.names[name]
	}
	for _, id := range s.few {
		if id.Name == name {
			return id
		}
	}
	return nil
}

// declare adds id; a repeat is WF101 and returns false.
func (s *scope) declare(id *ast.Ident) bool {
	if id == nil {
		return false
	}
	if prev := s.lookup(id.Name); prev != nil {
		d := s.c.report(id.Range, diag.WF101, "duplicate %s `%s`", s.what, id.Name)
		s.c.related(d, prev.Range, "first declared here")
		return false
	}
	switch {
	case s.names != nil:
		s.names[id.Name] = id
	case len(s.few) < smallScope:
		s.few = append(s.few, id)
	default:
		s.names = make(map[string]*ast.Ident, 2*smallScope)
		for _, x := range s.few {
			s.names[x.Name] = x
		}
		s.names[id.Name] = id
		s.few = nil
	}
	return true
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func diagRelated(file string, r diag.Range, msg string) diag.Related {
	return diag.Related{File: file, Range: r, Message: msg}
}
