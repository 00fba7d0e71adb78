package parser

import (
	"sync"

	"github.com/alecthomas/participle/v2"
	plexer "github.com/alecthomas/participle/v2/lexer"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/lexer"
)

// The participle grammar of the language (docs/language.md, "Grammar"). It
// is LL(1): with UseLookahead(0) a branch commits once it has matched its
// first token, as a hand-written recursive-descent parser would, so an error
// is reported at the exact token where the input stops matching. Where the
// grammar needs two tokens of lookahead (a setting `X = v;` and an outcome
// `X { … }` both start with a name; so do a case `X { … }` and a call), the
// grammar takes the common prefix once and the conversion to package ast
// (convert.go) sorts the shapes out: that is the conversion's reason to be.
//
// The productions are declarations, members and statements. Their leaves —
// names, types, parameter and attribute lists, expressions — are Parseable
// types read by hand (here, leaves.go, expr.go) whose value is the ast node.
// The shells of workflows and states are split by hand (split.go), so every
// member parses on its own: that is the error recovery (see the package doc).

// name is an identifier, read by hand (a participle Parseable leaf) straight
// into an ast.Ident: names are the commonest node, and a struct with a
// capture and a position per name is most of participle's cost for them.
type name ast.Ident

// Parse implements participle.Parseable.
func (n *name) Parse(lex *plexer.PeekingLexer) error {
	t := lex.Peek()
	if t.Type != lexer.TokenType(lexer.Ident) {
		return participle.NextMatch
	}
	*n = name(*ident(*lex.Next()))
	return nil
}

// gEnum and gEntity match their name without capturing it, and have no
// positions: parseEnum and parseEntity take both from the tokens, and a
// capture is a node, a record and a copy per declaration.
type gEnum struct {
	Members enumMembers `parser:"'enum' Ident '{' @@ '}'"`
}

type gEntity struct {
	Attrs   []*attrList      `parser:"@@*"`
	Members []*gEntityMember `parser:"'entity' Ident '{' @@* '}'"`
}

type gEntityMember struct {
	Security *gSecurity `parser:"  @@"`
	Field    *gField    `parser:"| @@"`
}

type gSecurity struct {
	Pos    plexer.Position
	EndPos plexer.Position
	Rules  []*gRule `parser:"'security' '{' @@* '}'"`
}

type gRule struct {
	Pos    plexer.Position
	EndPos plexer.Position
	Kind   string  `parser:"@('allow' | 'deny')"`
	Ops    []*name `parser:"@@ ( ',' @@ )*"`
	When   *expr   `parser:"( 'when' @@ )? ';'"`
}

type gField struct {
	Pos    plexer.Position
	EndPos plexer.Position
	Attrs  []*attrList `parser:"@@*"`
	Type   *typeRef    `parser:"@@"`
	Name   *name       `parser:"@@ ';'"`
}

// gMember is a workflow member other than a state (states are split by
// hand): a participle union of gEvent | gSetting. The members of gMember
// and gStateItem have no positions: each is a whole piece, converted only
// when it parsed, so its range is the piece's (a position is an
// allocation and a reflective store per node). A union, not a struct of
// alternatives, because each member is parsed on its own and a struct
// around it cost a node, a capture and a copy of the member for nothing.
type gMember interface {
	// addTo converts the member (which spans r) into its ast node and adds
	// it to w: each alternative converts itself, so a new member needs no
	// case in a switch elsewhere.
	addTo(cp *chunkParser, w *ast.Workflow, r diag.Range)
}

func (g *gEvent) addTo(cp *chunkParser, w *ast.Workflow, r diag.Range) {
	w.Events = append(w.Events, cp.convEvent(g, r))
}

func (g *gSetting) addTo(cp *chunkParser, w *ast.Workflow, r diag.Range) {
	w.Settings = append(w.Settings, cp.convSetting(g, r))
}

// memberAlts are gMember's alternatives, in the order participle tries them.
var memberAlts = []gMember{&gEvent{}, &gSetting{}}

type gEvent struct {
	Name   *name   `parser:"'event' @@"`
	Params *params `parser:"@@ ';'"`
}

type gSetting struct {
	Name  *name `parser:"@@ '='"`
	Value *expr `parser:"@@ ';'"`
}

// gStateItem is one item of a state body: a participle union of
// gSubscribe | gHandler | gSetting (a union for gMember's reason).
type gStateItem interface {
	// addItemTo converts the item (which spans r) into its ast node and
	// adds it to st, as gMember's addTo does.
	addItemTo(cp *chunkParser, st *ast.State, r diag.Range)
}

func (g *gSubscribe) addItemTo(cp *chunkParser, st *ast.State, r diag.Range) {
	bad := cp.badBlocks
	sub := cp.convSubscribe(g, r)
	st.Subscribes = append(st.Subscribes, sub)
	if cp.badBlocks != bad {
		st.Bad = true // a `goto` may be in what was not read
	}
}

func (g *gHandler) addItemTo(cp *chunkParser, st *ast.State, r diag.Range) {
	bad := cp.badBlocks
	h := cp.convHandler(g, r)
	st.Handlers = append(st.Handlers, h)
	if cp.badBlocks != bad {
		st.Bad = true // a `goto` may be in what was not read
	}
}

func (g *gSetting) addItemTo(cp *chunkParser, st *ast.State, r diag.Range) {
	st.Settings = append(st.Settings, cp.convSetting(g, r))
}

// stateItemAlts are gStateItem's alternatives, in the order participle
// tries them.
var stateItemAlts = []gStateItem{&gSubscribe{}, &gHandler{}, &gSetting{}}

type gSubscribe struct {
	Event      *name         `parser:"'subscribe' @@"`
	Params     *params       `parser:"@@"`
	Alias      *name         `parser:"( 'as' @@ )?"`
	Milestones []*gMilestone `parser:"( ';' | '{' @@* '}' )"`
}

type gMilestone struct {
	Pos    plexer.Position
	EndPos plexer.Position
	Kind   *name     `parser:"@@ '{'"`
	Items  []*gMItem `parser:"@@* '}'"`
}

// gMItem is a milestone setting (`Within = …;`) or an outcome (`Exhausted { }`).
type gMItem struct {
	Pos    plexer.Position
	EndPos plexer.Position
	Name   *name   `parser:"@@"`
	Value  *expr   `parser:"( '=' @@ ';'"`
	Body   *gBlock `parser:"| @@ )"`
}

type gHandler struct {
	Name   *name   `parser:"'on' @@"`
	Params *params `parser:"@@?"`
	Body   *gBlock `parser:"@@"`
}

type gBlock struct {
	Pos    plexer.Position
	EndPos plexer.Position
	Stmts  []*gStmt `parser:"'{' @@* '}'"`
}

// gStmt is a statement; a case `X { }` and a call `a.b(…);` share the
// postfix prefix and are told apart in conversion. A block may be followed
// by `catch { … }` (a durable step's; conversion reports it after a case).
type gStmt struct {
	Pos     plexer.Position
	EndPos  plexer.Position
	Goto    *name    `parser:"  'goto' @@ ';'"`
	Default *gBlock  `parser:"| 'default' @@"`
	Expr    *postfix `parser:"| @@"`
	Body    *gBlock  `parser:"  ( ';' | @@"`
	Catch   *gCatch  `parser:"    @@? )"`
}

// gCatch is `catch { cases }` after a durable step's block. `catch` is
// contextual (a row of productions.go's table): a name everywhere else.
type gCatch struct {
	Pos    plexer.Position
	EndPos plexer.Position
	Cases  []*gCatchCase `parser:"'catch' '{' @@* '}'"`
}

// gCatchCase is a case of a catch: `default { … }`, or a label (a reason
// or an error kind, qualified or not) and its block.
type gCatchCase struct {
	Pos     plexer.Position
	EndPos  plexer.Position
	Default *gBlock  `parser:"  'default' @@"`
	Label   *postfix `parser:"| @@"`
	Body    *gBlock  `parser:"  @@"`
}

// gTestItem is an item of a test: a setting `Workflow = W;` or a call
// `Send(E(), at: t);`. Both start with a name, so the postfix is taken
// once and conversion tells them apart by the `=`.
type gTestItem struct {
	Pos    plexer.Position
	EndPos plexer.Position
	Expr   *postfix `parser:"@@"`
	Value  *expr    `parser:"( '=' @@ )? ';'"`
}

// parsers holds one participle parser per kind of chunk, each built on its
// first use (a program without a syntax error never needs the recovery's;
// a small program, the playground's first check in WebAssembly above all,
// builds only the few it reads) and safe for concurrent use.
type parsers struct {
	enum      lazy[gEnum]
	entity    lazy[gEntity]
	member    lazy[gMember]
	stateItem lazy[gStateItem]
	stmt      lazy[gStmt]
	attrs     lazy[gAttrLists]
	entMember lazy[gEntityMember]
	rule      lazy[gRule]
	milestone lazy[gMilestone]
	mitem     lazy[gMItem]
	testItem  lazy[gTestItem]
	catchCase lazy[gCatchCase]
}

// lazy is a participle parser built on first use (sync.OnceValue: a
// grammar that fails to build panics at every use, not once).
type lazy[G any] struct {
	get func() *participle.Parser[G]
}

func build[G any](opts ...participle.Option) lazy[G] {
	return lazy[G]{get: sync.OnceValue(func() *participle.Parser[G] { return participle.MustBuild[G](opts...) })}
}

// gAttrLists is the attribute lists before `entity`, for recovery.
type gAttrLists struct {
	Lists []*attrList `parser:"@@*"`
}

var getParsers = sync.OnceValue(func() *parsers {
	opts := []participle.Option{participle.Lexer(lexer.Definition{}), participle.UseLookahead(0)}
	with := func(o participle.Option) []participle.Option { return append(opts[:len(opts):len(opts)], o) }
	ps := &parsers{
		enum:      build[gEnum](opts...),
		entity:    build[gEntity](opts...),
		member:    build[gMember](with(participle.Union(memberAlts...))...),
		stateItem: build[gStateItem](with(participle.Union(stateItemAlts...))...),
		stmt:      build[gStmt](opts...),
		attrs:     build[gAttrLists](opts...),
		entMember: build[gEntityMember](opts...),
		rule:      build[gRule](opts...),
		milestone: build[gMilestone](opts...),
		mitem:     build[gMItem](opts...),
		testItem:  build[gTestItem](opts...),
		catchCase: build[gCatchCase](opts...),
	}
	return ps
})
