// Package ast defines the syntax tree of the workflow language (docs/language.md,
// Grammar). Every node carries its exact source range (start and end, byte offset,
// line and code-point column); every declaration knows the File it came from,
// and a node belongs to the file of the declaration that contains it.
//
// Every node implements Node (Pos and End), and Inspect walks a tree in
// source order, so tools share one traversal instead of each writing its own.
//
// Nodes whose text failed to parse are still built as far as they went and
// are marked Bad: a declaration whose body failed to parse still declares its
// name, and the checker stays quiet about what it cannot see.
package ast

import "github.com/wfc-lang/wfc/diag"

// Program is the set of files checked together: declarations are shared.
type Program struct {
	Files []*File
}

func (*Program) Pos() diag.Pos { return diag.Pos{} } // a program spans several files
func (*Program) End() diag.Pos { return diag.Pos{} }
func (n *Program) children(c *children) {
	for _, x := range n.Files {
		c.add(x)
	}
}

// File is one source file.
type File struct {
	Name  string
	Src   string
	Decls []Decl
	Range diag.Range
	// Ignores are its `// wfc:ignore` comments.
	Ignores []diag.Ignore
	// Overwhelmed marks a file with more syntax errors than are reported
	// (it is hardly source at all): its meaning is not checked.
	Overwhelmed bool
}

func (n *File) Pos() diag.Pos { return n.Range.Start }
func (n *File) End() diag.Pos { return n.Range.End }
func (n *File) children(c *children) {
	for _, x := range n.Decls {
		c.add(x)
	}
}

// Decl is a top-level declaration: *Enum, *Entity, *Workflow or *Test.
// What every declaration has is asked of it here, so no tool switches on
// the kind of declaration to find it.
type Decl interface {
	Node
	declNode()
	// DeclName is the name it declares (nil for a test).
	DeclName() *Ident
	// DeclFile is the file it is written in.
	DeclFile() *File
	// DeclRange is its range, from its first token to its last.
	DeclRange() diag.Range
	// InFile is a copy of its top node that points at f; the nodes below
	// are shared (trees are never changed once built).
	InFile(f *File) Decl
}

// Ident is a name with its range.
type Ident struct {
	Range diag.Range
	Name  string
}

func (n *Ident) Pos() diag.Pos { return n.Range.Start }
func (n *Ident) End() diag.Pos { return n.Range.End }

// Enum is `enum Name { A, B }`.
type Enum struct {
	Range   diag.Range
	File    *File
	Name    *Ident
	Members []*Ident
	Bad     bool
}

func (n *Enum) Pos() diag.Pos { return n.Range.Start }
func (n *Enum) End() diag.Pos { return n.Range.End }
func (n *Enum) children(c *children) {
	c.add(n.Name)
	addAll(c, n.Members)
}

// Attr is one attribute inside `[…]`: `Required`, `MaxLength(80)`.
type Attr struct {
	Range   diag.Range
	Name    *Ident
	HasArgs bool // written with parentheses, even empty ones
	Args    []Expr
}

func (n *Attr) Pos() diag.Pos { return n.Range.Start }
func (n *Attr) End() diag.Pos { return n.Range.End }
func (n *Attr) children(c *children) {
	c.add(n.Name)
	addExprs(c, n.Args)
}

// Entity is `[Attrs] entity Name { fields and security }`.
type Entity struct {
	Range    diag.Range
	File     *File
	Attrs    []*Attr
	Name     *Ident
	Fields   []*Field
	Security []*Security
	Bad      bool
}

func (n *Entity) Pos() diag.Pos { return n.Range.Start }
func (n *Entity) End() diag.Pos { return n.Range.End }
func (n *Entity) children(c *children) {
	addAll(c, n.Attrs)
	c.add(n.Name)
	addAll(c, n.Fields)
	addAll(c, n.Security)
}

// TypeRef names a type, optionally with `?`.
type TypeRef struct {
	Range    diag.Range
	Name     *Ident
	Optional bool
}

func (n *TypeRef) Pos() diag.Pos { return n.Range.Start }
func (n *TypeRef) End() diag.Pos { return n.Range.End }
func (n *TypeRef) children(c *children) {
	c.add(n.Name)
}

// Field is `[Attrs] Type Name;` inside an entity.
type Field struct {
	Range diag.Range
	Attrs []*Attr
	Type  *TypeRef
	Name  *Ident
}

func (n *Field) Pos() diag.Pos { return n.Range.Start }
func (n *Field) End() diag.Pos { return n.Range.End }
func (n *Field) children(c *children) {
	addAll(c, n.Attrs)
	c.add(n.Type)
	c.add(n.Name)
}

// Security is a `security { rules }` block.
type Security struct {
	Range diag.Range
	Rules []*Rule
}

func (n *Security) Pos() diag.Pos { return n.Range.Start }
func (n *Security) End() diag.Pos { return n.Range.End }
func (n *Security) children(c *children) {
	addAll(c, n.Rules)
}

// Rule is `allow|deny op, op [when Expr];`.
type Rule struct {
	Range diag.Range
	Allow bool
	Ops   []*Ident
	When  Expr // nil when absent
}

func (n *Rule) Pos() diag.Pos { return n.Range.Start }
func (n *Rule) End() diag.Pos { return n.Range.End }
func (n *Rule) children(c *children) {
	addAll(c, n.Ops)
	c.add(n.When)
}

// Workflow is `workflow Name { settings, events, states }`.
type Workflow struct {
	Range    diag.Range
	File     *File
	Name     *Ident
	Settings []*Setting
	Events   []*Event
	States   []*State
	Bad      bool // some member failed to parse
}

func (n *Workflow) Pos() diag.Pos { return n.Range.Start }
func (n *Workflow) End() diag.Pos { return n.Range.End }
func (n *Workflow) children(c *children) {
	c.add(n.Name)
	addAll(c, n.Settings)
	addAll(c, n.Events)
	addAll(c, n.States)
}

// Setting is `Name = Expr;`.
type Setting struct {
	Range diag.Range
	Name  *Ident
	Value Expr // nil if it failed to parse
}

func (n *Setting) Pos() diag.Pos { return n.Range.Start }
func (n *Setting) End() diag.Pos { return n.Range.End }
func (n *Setting) children(c *children) {
	c.add(n.Name)
	c.add(n.Value)
}

// Param is `Type Name` in a parameter list.
type Param struct {
	Range diag.Range
	Type  *TypeRef
	Name  *Ident
}

func (n *Param) Pos() diag.Pos { return n.Range.Start }
func (n *Param) End() diag.Pos { return n.Range.End }
func (n *Param) children(c *children) {
	c.add(n.Type)
	c.add(n.Name)
}

// Params is a parenthesised parameter list; Range runs from `(` to `)`.
type Params struct {
	Range diag.Range
	List  []*Param
}

func (n *Params) Pos() diag.Pos { return n.Range.Start }
func (n *Params) End() diag.Pos { return n.Range.End }
func (n *Params) children(c *children) {
	addAll(c, n.List)
}

// Event is `event Name(params);`.
type Event struct {
	Range  diag.Range
	Name   *Ident
	Params *Params
	Bad    bool
}

func (n *Event) Pos() diag.Pos { return n.Range.Start }
func (n *Event) End() diag.Pos { return n.Range.End }
func (n *Event) children(c *children) {
	c.add(n.Name)
	c.add(n.Params)
}

// StateKind says whether a state is ordinary or terminal.
type StateKind uint8

const (
	Normal        StateKind = iota // state X
	Terminal                       // terminal X
	TerminalError                  // terminal error X
)

// State is `state|terminal [error] Name { settings, subscriptions, handlers }`.
type State struct {
	Range      diag.Range
	Name       *Ident
	Settings   []*Setting
	Subscribes []*Subscribe
	Handlers   []*Handler
	Kind       StateKind
	Bad        bool // some item failed to parse: flow checks stay quiet
}

func (n *State) Pos() diag.Pos { return n.Range.Start }
func (n *State) End() diag.Pos { return n.Range.End }
func (n *State) children(c *children) {
	c.add(n.Name)
	addAll(c, n.Settings)
	addAll(c, n.Subscribes)
	addAll(c, n.Handlers)
}

// Subscribe is `subscribe Event(params) [as Alias] ( ; | { milestones } )`.
type Subscribe struct {
	Range      diag.Range
	Event      *Ident
	Params     *Params // nil if it failed to parse
	Alias      *Ident  // nil without `as`
	Milestones []*Milestone
	Bad        bool
}

func (n *Subscribe) Pos() diag.Pos { return n.Range.Start }
func (n *Subscribe) End() diag.Pos { return n.Range.End }
func (n *Subscribe) children(c *children) {
	c.add(n.Event)
	c.add(n.Params)
	c.add(n.Alias)
	addAll(c, n.Milestones)
}

// Slot is the name handlers use for a subscription: its alias, else its event.
func (s *Subscribe) Slot() *Ident {
	if s.Alias != nil {
		return s.Alias
	}
	return s.Event
}

// Milestone is `Assigned { … }` or `Finished { … }` under a subscription.
type Milestone struct {
	Range    diag.Range
	Kind     *Ident
	Settings []*Setting
	Outcomes []*Outcome
	Bad      bool // some item failed to parse: required settings may be there
}

func (n *Milestone) Pos() diag.Pos { return n.Range.Start }
func (n *Milestone) End() diag.Pos { return n.Range.End }
func (n *Milestone) children(c *children) {
	c.add(n.Kind)
	addAll(c, n.Settings)
	addAll(c, n.Outcomes)
}

// Outcome is `Exhausted { … }`, `Unfinished { … }` or `Unassigned { … }`.
type Outcome struct {
	Range diag.Range
	Name  *Ident
	Body  *Block
}

func (n *Outcome) Pos() diag.Pos { return n.Range.Start }
func (n *Outcome) End() diag.Pos { return n.Range.End }
func (n *Outcome) children(c *children) {
	c.add(n.Name)
	c.add(n.Body)
}

// Handler is `on Name[(params)] { statements }`.
type Handler struct {
	Range  diag.Range
	Name   *Ident
	Params *Params // nil when written without parentheses
	Body   *Block  // nil if it failed to parse
	Bad    bool
}

func (n *Handler) Pos() diag.Pos { return n.Range.Start }
func (n *Handler) End() diag.Pos { return n.Range.End }
func (n *Handler) children(c *children) {
	c.add(n.Name)
	c.add(n.Params)
	c.add(n.Body)
}

// Block is `{ statements }`.
type Block struct {
	Range diag.Range
	Stmts []Stmt
	Bad   bool // some statement failed to parse
}

func (n *Block) Pos() diag.Pos { return n.Range.Start }
func (n *Block) End() diag.Pos { return n.Range.End }
func (n *Block) children(c *children) {
	for _, s := range n.Stmts {
		c.add(s)
	}
}

// Stmt is a statement: *Goto, *Default, *Case or *CallStmt.
type Stmt interface {
	Node
	stmtNode()
	Rng() diag.Range
}

// Goto is `goto State;`.
type Goto struct {
	Range  diag.Range
	Target *Ident
}

func (n *Goto) Pos() diag.Pos { return n.Range.Start }
func (n *Goto) End() diag.Pos { return n.Range.End }
func (n *Goto) children(c *children) {
	c.add(n.Target)
}

// Default is `default { … }` in a handler.
type Default struct {
	Range diag.Range
	Body  *Block
}

func (n *Default) Pos() diag.Pos { return n.Range.Start }
func (n *Default) End() diag.Pos { return n.Range.End }
func (n *Default) children(c *children) {
	c.add(n.Body)
}

// Case is `Member { … }` in a handler.
type Case struct {
	Range diag.Range
	Label *Ident
	Body  *Block
}

func (n *Case) Pos() diag.Pos { return n.Range.Start }
func (n *Case) End() diag.Pos { return n.Range.End }
func (n *Case) children(c *children) {
	c.add(n.Label)
	c.add(n.Body)
}

// CallStmt is a call, `Mail.Send(x);`, or a durable step `Workflow.Once("n", retry: p) { … }`,
// which a `catch { … }` may follow.
type CallStmt struct {
	Range diag.Range
	Call  *Call
	Body  *Block // nil for `;`
	Catch *Catch // nil without one
}

func (n *CallStmt) Pos() diag.Pos { return n.Range.Start }
func (n *CallStmt) End() diag.Pos { return n.Range.End }
func (n *CallStmt) children(c *children) {
	c.add(n.Call)
	c.add(n.Body)
	c.add(n.Catch)
}

// Catch is `catch { cases }` right after a durable step's block: what runs
// when the step gives up. `catch` is contextual: a name everywhere else.
type Catch struct {
	Range   diag.Range
	Keyword diag.Range // the word `catch`
	Cases   []*CatchCase
	Bad     bool // some case failed to parse
}

func (n *Catch) Pos() diag.Pos { return n.Range.Start }
func (n *Catch) End() diag.Pos { return n.Range.End }
func (n *Catch) children(c *children) {
	for _, cc := range n.Cases {
		c.add(cc)
	}
}

// CatchCase is a case of a catch: `Label { … }`, whose label is a reason
// (`Exhausted`) or an error kind (`Declined`, `ChargeError.Declined`), or
// `default { … }` (Label nil, Default set).
type CatchCase struct {
	Range   diag.Range
	Label   Expr // *Name or *Selector; nil for `default`
	Default bool
	Body    *Block
}

func (n *CatchCase) Pos() diag.Pos { return n.Range.Start }
func (n *CatchCase) End() diag.Pos { return n.Range.End }
func (n *CatchCase) children(c *children) {
	c.add(n.Label)
	c.add(n.Body)
}

func (*Goto) stmtNode()     {}
func (*Default) stmtNode()  {}
func (*Case) stmtNode()     {}
func (*CallStmt) stmtNode() {}

func (s *Goto) Rng() diag.Range     { return s.Range }
func (s *Default) Rng() diag.Range  { return s.Range }
func (s *Case) Rng() diag.Range     { return s.Range }
func (s *CallStmt) Rng() diag.Range { return s.Range }

func (*Enum) declNode()     {}
func (*Entity) declNode()   {}
func (*Workflow) declNode() {}

func (d *Enum) DeclName() *Ident     { return d.Name }
func (d *Entity) DeclName() *Ident   { return d.Name }
func (d *Workflow) DeclName() *Ident { return d.Name }

func (d *Enum) DeclFile() *File     { return d.File }
func (d *Entity) DeclFile() *File   { return d.File }
func (d *Workflow) DeclFile() *File { return d.File }
func (d *Test) DeclFile() *File     { return d.File }

func (d *Enum) DeclRange() diag.Range     { return d.Range }
func (d *Entity) DeclRange() diag.Range   { return d.Range }
func (d *Workflow) DeclRange() diag.Range { return d.Range }
func (d *Test) DeclRange() diag.Range     { return d.Range }

func (d *Enum) InFile(f *File) Decl     { c := *d; c.File = f; return &c }
func (d *Entity) InFile(f *File) Decl   { c := *d; c.File = f; return &c }
func (d *Workflow) InFile(f *File) Decl { c := *d; c.File = f; return &c }
func (d *Test) InFile(f *File) Decl     { c := *d; c.File = f; return &c }

// Test is `test "name" { items }`, a scenario and its expectations
// (docs/language.md, "Tests"). `test` is a contextual keyword: only a name
// `test` followed by a string at the top level starts one, so programs that
// use `test` as a name are unchanged. A test declares no global name.
type Test struct {
	Range diag.Range
	File  *File
	// Keyword is the range of the word `test`.
	Keyword diag.Range
	Name    *StringLit
	// Settings are `Workflow = Name;`; Stmts are the scenario's actions and
	// the expectations, calls such as `Send(Start(), at: …);`, in source
	// order.
	Settings []*Setting
	Stmts    []*CallStmt
	Bad      bool // some item failed to parse
}

func (n *Test) Pos() diag.Pos { return n.Range.Start }
func (n *Test) End() diag.Pos { return n.Range.End }
func (n *Test) children(c *children) {
	c.add(n.Name)
	addAll(c, n.Settings)
	addAll(c, n.Stmts)
}

func (*Test) declNode() {}

// DeclName is nil: a test's name is a string, and lives in no namespace
// that programs share.
func (d *Test) DeclName() *Ident { return nil }
