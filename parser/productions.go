package parser

import (
	"strings"

	"github.com/wfc-lang/wfc/lexer"
)

// The table of productions. The participle structs (grammar.go) say what a
// production's tokens are; this table says everything else about it, once:
// which word starts it in which container, the shape of the tokens after
// that word (for guessing a misspelt keyword), what context the `{` it
// opens is, and how a message names it. The keyword contexts
// (keywords.go), the split points (split.go), the dispatch of a piece to
// its production (decls.go, recover.go) and the expectation texts
// (messages.go, report.go) are all read from here, and TestGrammarTable
// checks the table against the participle structs, so the two cannot drift.
//
// Adding a construct (docs/contributing.md, "Adding a construct to the
// grammar") is one participle struct in grammar.go, one constant and one
// row here, and one case where the piece becomes an ast node.

// prod is the kind of production a piece of source is parsed as. It
// decides the control flow of recovery and the words of a message; it is
// never spelt as a string.
type prod uint8

const (
	prodNone          prod = iota
	prodDecl               // a piece at the top that no declaration claims
	prodEnum               // enum Name { A, B }
	prodEntity             // [attrs] entity Name { fields, security }
	prodWorkflow           // workflow Name { members }
	prodTest               // test "name" { items }
	prodMember             // a piece of a workflow that no production claims
	prodEvent              // event Name(params);
	prodState              // state|terminal [error] Name { items }
	prodSetting            // Name = value;
	prodStateItem          // a piece of a state that no production claims
	prodSubscription       // subscribe E(params) [as A] { milestones } | ;
	prodHandler            // on Name[(params)] { statements }
	prodSecurity           // security { rules }
	prodSecurityRule       // allow|deny ops [when cond];
	prodAttrList           // [A, B(…)]
	prodMilestone          // Assigned { items }
	prodMilestoneItem      // Within = …; or Unfinished { … }
	prodStatement          // goto S; default { }; a case; a call; a step
	prodTestItem           // Workflow = W; or a call
	prodCount
)

// production is what a message says about a production.
type production struct {
	// want is the expectation when the error gives nothing more precise:
	// the production's shape, or the list of what its container holds.
	want string
	// afterName is the expectation after the name a piece of it starts
	// with, where participle's own says too little ("" to keep that).
	afterName string
}

// productions is indexed by prod. A container's want lists its items and
// is derived from its row in grammar (want, below).
var productions = [prodCount]production{
	prodEnum:          {want: "`enum Name { Member, … }`"},
	prodEntity:        {want: "a field (`Type Name;`), a `security { … }` block or `}`"},
	prodWorkflow:      {want: "`workflow Name { members }`"},
	prodTest:          {want: "`test \"name\" { … }`"},
	prodEvent:         {want: "`event Name(Type name, …);`"},
	prodState:         {want: "`state Name { items }`"},
	prodSecurity:      {want: "`security { rules }`"},
	prodSetting:       {want: "`Name = value;`", afterName: settingAfterName},
	prodMember:        {afterName: settingAfterName},
	prodStateItem:     {afterName: settingAfterName},
	prodSubscription:  {want: "`subscribe Event(…) [as Alias];` or `subscribe Event(…) [as Alias] { milestones }`"},
	prodHandler:       {want: "`on Name(…) { statements }`"},
	prodSecurityRule:  {want: "`allow|deny operation, … [when condition];`"},
	prodAttrList:      {want: "`[Attribute, …]`"},
	prodMilestone:     {want: "a milestone (`Assigned { … }` or `Finished { … }`)", afterName: "`{`"},
	prodMilestoneItem: {want: "a setting (`Within = …;`) or an outcome (`Unfinished { … }`)", afterName: "`=` (a setting) or `{` (an outcome block)"},
	prodStatement:     {want: "a statement (`goto State;`, `default { … }`, a case `Member { … }` or a call)"},
	prodTestItem:      {want: "a setting (`Workflow = Name;`) or a call (`Send(Event(), at: …);`, `Expect.State(S, at: …);`)"},
}

// settingAfterName is what follows the name of a setting, or of a piece
// that can only be one.
const settingAfterName = "`=` (a setting is `Name = value;`)"

// container is what a `{ … }` of one context holds.
type container struct {
	what  string // "a state item": how a message names any of its pieces
	piece prod   // the production of a piece nothing else claims
	named prod   // the production of a piece that starts with a name
	// namedShape is how a list of the container's items shows a named
	// piece ("" when it takes none, or shows none).
	namedShape string
	items      []item
	// innerOther is the context of a `{` opened by a piece that no item
	// of the container claims (a milestone's, a case's).
	innerOther context
}

// item is a production that a word starts inside a container.
type item struct {
	word  string
	prod  prod
	shape string // how a list of the container's items shows it
	// fits reports whether the tokens after the word (from i) have the
	// shape the production needs: a name that is close to word and
	// followed by that shape is a misspelt word (keywords.go). Nil for a
	// contextual word, which is a name everywhere else and is not guessed.
	fits  func(fp *fileParser, i int) bool
	inner context // the context of the `{` the production opens
	// contextual marks a word that is a name, not a reserved word: it
	// starts the production only where fits says its shape follows.
	contextual bool
}

// grammar is the one table of containers, indexed by context.
var grammar = [ctxCount]container{
	ctxTop: {what: "a declaration", piece: prodDecl, innerOther: ctxOther, items: []item{
		{word: "enum", prod: prodEnum, shape: "`enum`", fits: shapeNameBrace, inner: ctxOther},
		{word: "entity", prod: prodEntity, shape: "`entity`", fits: shapeNameBrace, inner: ctxEntity},
		{word: "workflow", prod: prodWorkflow, shape: "`workflow`", fits: shapeNameBrace, inner: ctxWorkflow},
		{word: "test", prod: prodTest, shape: "`test \"name\" { … }`", contextual: true, fits: shapeString, inner: ctxTest},
	}},
	ctxWorkflow: {what: "a workflow member", piece: prodMember, named: prodSetting, namedShape: "`Name = value;`", innerOther: ctxOther, items: []item{
		{word: "event", prod: prodEvent, shape: "`event`", fits: shapeNameParen, inner: ctxOther},
		{word: "state", prod: prodState, shape: "`state`", fits: shapeNameBrace, inner: ctxState},
		{word: "terminal", prod: prodState, shape: "`terminal`", fits: shapeTerminal, inner: ctxState},
	}},
	ctxState: {what: "a state item", piece: prodStateItem, named: prodSetting, namedShape: "`Name = value;`", innerOther: ctxOther, items: []item{
		{word: "subscribe", prod: prodSubscription, shape: "`subscribe …`", fits: shapeNameParen, inner: ctxSubscribe},
		{word: "on", prod: prodHandler, shape: "`on …`", fits: shapeHandler, inner: ctxStmts},
	}},
	ctxEntity: {what: "an entity member", piece: prodEntity, named: prodEntity, innerOther: ctxOther, items: []item{
		{word: "security", prod: prodSecurity, shape: "`security { … }`", fits: shapeBrace, inner: ctxSecurity},
	}},
	ctxSecurity: {what: "a security rule", piece: prodSecurityRule, innerOther: ctxOther, items: []item{
		{word: "allow", prod: prodSecurityRule, shape: "`allow …`", fits: shapeOps, inner: ctxOther},
		{word: "deny", prod: prodSecurityRule, shape: "`deny …`", fits: shapeOps, inner: ctxOther},
	}},
	ctxSubscribe: {what: "a milestone", piece: prodMilestone, named: prodMilestone, innerOther: ctxMilestone},
	ctxMilestone: {what: "a milestone item", piece: prodMilestoneItem, named: prodMilestoneItem, innerOther: ctxStmts},
	ctxStmts: {what: "a statement", piece: prodStatement, innerOther: ctxStmts, items: []item{
		{word: "goto", prod: prodStatement, shape: "`goto State;`", fits: shapeNameSemi, inner: ctxStmts},
		{word: "catch", prod: prodStatement, shape: "`catch { … }` after a step's block", contextual: true, fits: shapeBrace, inner: ctxStmts},
	}},
	ctxTest:  {what: "a test item", piece: prodTestItem, named: prodTestItem, innerOther: ctxOther},
	ctxOther: {innerOther: ctxOther},
}

// keyword is a reserved word: a word some production spells (a
// participle literal, or a word a hand-read leaf matches) and that is
// never a name. keywords is the one list of them: the parser marks them in
// the lexer's tokens (Lex, reserved.go's markReserved), and the messages
// about what follows a word, the reading of a reserved word where a name
// belongs (reserved.go), the brace repair (braces.go) and the naming of a
// bracket's owner (report.go) read their columns. TestGrammarTable checks
// it against the participle structs and the rows of grammar, and
// TestEditorKeywords against the VS Code grammar.
type keyword struct {
	// next is what follows the word: "the state's name", "`{`" (""
	// leaves the grammar's own expectation).
	next string
	// name: what follows is a name, so a reserved word there is read as
	// that name (`goto default;`).
	name bool
	// paren: `(` may come right after the word (`when (a || b)`) or its
	// name is left out before one (`subscribe (…)`): a `(` after it is not
	// a call of a name `word(…)`.
	paren bool
	// owner names a piece headed by the word and a name, for a message
	// about its brackets: "state `%s`" ("" for a word that heads none).
	owner string
	// head: the piece is `word Name … { … }`, and a missing `{` after its
	// head is found by indentation (braces.go).
	head bool
}

// keywords are the language's reserved words (docs/language.md, "Lexical
// structure"), each with what follows it.
var keywords = map[string]keyword{
	"enum":      {next: "the enum's name", name: true, owner: "enum `%s`", head: true},
	"entity":    {next: "the entity's name", name: true, owner: "entity `%s`", head: true},
	"workflow":  {next: "the workflow's name", name: true, owner: "workflow `%s`", head: true},
	"event":     {next: "the event's name", name: true, paren: true, owner: "event `%s`"},
	"state":     {next: "the state's name", name: true, owner: "state `%s`", head: true},
	"terminal":  {next: "the state's name", name: true, owner: "state `%s`", head: true},
	"subscribe": {next: "the name of the event to wait for", name: true, paren: true, owner: "the subscription to `%s`"},
	"on":        {next: "the name of a subscribed event or its alias", name: true, paren: true, owner: "handler `on %s`", head: true},
	"goto":      {next: "the name of a state", name: true},
	"as":        {next: "an alias name", name: true, owner: "the subscription `%s`"},
	"default":   {next: "`{`"},
	"security":  {next: "`{`"},
	"allow":     {next: "an operation (`read`, `create`, `update` or `delete`)"},
	"deny":      {next: "an operation (`read`, `create`, `update` or `delete`)"},
	"when":      {next: "a condition", paren: true},
	"true":      {},
	"false":     {},
}

// item returns the item that word starts in c, or nil.
func (c *container) item(word string) *item {
	for k := range c.items {
		if c.items[k].word == word {
			return &c.items[k]
		}
	}
	return nil
}

// innerOf is the context of a `{` opened by a piece of c that starts with
// word.
func (c *container) innerOf(word string) context {
	if it := c.item(word); it != nil {
		return it.inner
	}
	return c.innerOther
}

// starts reports whether the reserved word w always starts a piece of c:
// the split points of c's body (split.go).
func (c *container) starts(w string) bool {
	it := c.item(w)
	return it != nil && !it.contextual
}

// list is what c holds, for a message: "a state item (`Name = value;`,
// `subscribe …` or `on …`)".
func (c *container) list() string {
	var shapes []string
	if c.namedShape != "" {
		shapes = append(shapes, c.namedShape)
	}
	for _, it := range c.items {
		shapes = append(shapes, it.shape)
	}
	switch len(shapes) {
	case 0:
		return c.what
	case 1:
		return c.what + " (" + shapes[0] + ")"
	}
	return c.what + " (" + strings.Join(shapes[:len(shapes)-1], ", ") + " or " + shapes[len(shapes)-1] + ")"
}

// want is the expectation for a piece of production p. Messages after
// every workflow and state are built whether or not they are reported, so
// the lists are derived once (wants).
func (p prod) want() string { return wants[p] }

// wants is each production's expectation, derived from the tables when
// the package is initialised and never changed.
var wants = func() (w [prodCount]string) {
	for p := range w {
		w[p] = deriveWant(prod(p))
	}
	return w
}()

// deriveWant is the production's own want, or the list of the container
// whose catch-all it is.
func deriveWant(p prod) string {
	if w := productions[p].want; w != "" {
		return w
	}
	for ctx := range grammar {
		if c := &grammar[ctx]; c.piece == p && c.what != "" {
			return c.list()
		}
	}
	return "something else"
}

// prodAt is the production of the piece of ctx that starts at token i: the
// one its word starts, a named piece, or the container's catch-all.
func (fp *fileParser) prodAt(ctx context, i int) prod {
	c := &grammar[ctx]
	if w := fp.keywordAt(i); w != "" {
		if it := c.item(w); it != nil && !it.contextual {
			return it.prod
		}
	}
	if fp.kind(i) == lexer.Ident {
		for k := range c.items {
			if it := &c.items[k]; it.contextual && fp.startsContextual(i, it) {
				return it.prod
			}
		}
		if c.named != prodNone {
			return c.named
		}
	}
	return c.piece
}

// startsContextual reports whether the name at i is the contextual word of
// it, starting its production: the word, followed by its shape, at the
// start of a piece (after nothing, a name, `;` or `}`).
func (fp *fileParser) startsContextual(i int, it *item) bool {
	return fp.toks[i].Kind == lexer.Ident && fp.text(i) == it.word && it.fits(fp, i+1) &&
		(i == 0 || fp.toks[i-1].Kind != lexer.Punct || fp.text(i-1) == ";" || fp.text(i-1) == "}")
}

// shapeString: a string follows (`test "name"`).
func shapeString(fp *fileParser, i int) bool {
	return i < len(fp.toks) && fp.toks[i].Kind == lexer.String
}
