package parser

import (
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/wfc-lang/wfc/lexer"
)

// leadWords returns the literal words that can start the participle struct
// t's production: for a union (a struct whose fields are alternatives), the
// words of every alternative, read from the struct tags. A production that
// starts with a sub-production (`@@`) of a struct type adds that struct's
// words; one that starts with a leaf (a name, an attribute list) adds none.
func leadWords(t reflect.Type) []string {
	var words []string
	first := true
	for f := range t.Fields() {
		tag, ok := f.Tag.Lookup("parser")
		if !ok {
			continue
		}
		tag = strings.TrimSpace(tag)
		alt := first || strings.HasPrefix(tag, "|")
		// An optional leaf first (`@@*`: attribute lists) leaves the
		// next field a start too.
		first = tag == "@@*" || tag == "@@?"
		if !alt {
			continue
		}
		tag = strings.TrimSpace(strings.TrimPrefix(tag, "|"))
		switch {
		case strings.HasPrefix(tag, "@@"):
			ft := f.Type
			for ft.Kind() == reflect.Pointer || ft.Kind() == reflect.Slice {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct && strings.HasPrefix(ft.Name(), "g") {
				words = append(words, leadWords(ft)...)
			}
		case strings.HasPrefix(tag, "'"), strings.HasPrefix(tag, "@("):
			head := tag
			if k := strings.Index(head, "@@"); k >= 0 {
				head = head[:k]
			}
			for _, m := range quotedWord.FindAllStringSubmatch(head, -1) {
				words = append(words, m[1])
			}
		}
	}
	return words
}

var quotedWord = regexp.MustCompile(`'([a-z]+)'`)

// alternatives are the structs of a union's alternatives (pointers in the
// union's list), for leadWords.
func alternatives[T any](alts []T) []any {
	var out []any
	for _, a := range alts {
		out = append(out, reflect.ValueOf(a).Elem().Interface())
	}
	return out
}

// TestGrammarTable checks the grammar table (productions.go) against the
// participle structs (grammar.go): each container's reserved words are
// exactly the words that start the alternatives of its participle
// production, plus the productions parsed by hand. A word added on one
// side only fails here.
func TestGrammarTable(t *testing.T) {
	for _, c := range []struct {
		ctx       context
		structs   []any    // the participle productions of the container's pieces
		byHand    []string // words whose production is parsed by hand (decls.go, test.go)
		notInRows []string // words of a production that the table leaves out, and why
	}{
		{ctx: ctxTop, structs: []any{gEnum{}, gEntity{}}, byHand: []string{"workflow", "test"}},
		// gMember and gStateItem are unions: their alternatives' words.
		{ctx: ctxWorkflow, structs: alternatives(memberAlts), byHand: []string{"state", "terminal"}},
		{ctx: ctxState, structs: alternatives(stateItemAlts)},
		{ctx: ctxEntity, structs: []any{gEntityMember{}}},
		{ctx: ctxSecurity, structs: []any{gRule{}}},
		// `default { … }` starts a statement, but `Default { … }` is a
		// case of a member named Default: no misspelling is guessed.
		// `catch` follows a step's block inside gStmt: a contextual word
		// of the table that leads no statement.
		{ctx: ctxStmts, structs: []any{gStmt{}}, notInRows: []string{"default"}, byHand: []string{"catch"}},
		{ctx: ctxSubscribe, structs: []any{gMilestone{}}},
		{ctx: ctxMilestone, structs: []any{gMItem{}}},
		{ctx: ctxTest, structs: []any{gTestItem{}}},
	} {
		var want []string
		for _, s := range c.structs {
			want = append(want, leadWords(reflect.TypeOf(s))...)
		}
		want = append(want, c.byHand...)
		want = slices.DeleteFunc(want, func(w string) bool { return slices.Contains(c.notInRows, w) })
		var got []string
		for _, it := range grammar[c.ctx].items {
			got = append(got, it.word)
		}
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("context %d: the table's words %v, the grammar's %v", c.ctx, got, want)
		}
	}
	// Every row is complete, and a row's word is reserved (in keywords)
	// unless it is contextual, a name everywhere else.
	for ctx, c := range grammar {
		for _, it := range c.items {
			toks := Lex("t.wf", it.word).Tokens
			reserved := toks[0].Kind == lexer.Keyword
			if reserved == it.contextual || it.fits == nil || it.prod == prodNone || it.shape == "" {
				t.Errorf("context %d: row %q is incomplete or its word's kind disagrees with keywords", ctx, it.word)
			}
		}
		if c.what != "" && c.piece == prodNone {
			t.Errorf("context %d: no production for its pieces", ctx)
		}
	}
	for p := prodDecl; p < prodCount; p++ {
		if p.want() == "something else" {
			t.Errorf("production %d has no expectation", p)
		}
	}
}

// TestReservedWords: the reserved words are exactly the words the
// participle structs spell (every quoted word of their tags) and the words
// the hand-read leaves match (`true`, `false`), less the contextual words
// of the table; so a word is reserved by writing it in the grammar, and by
// nothing else.
func TestReservedWords(t *testing.T) {
	spelt := map[string]bool{"true": true, "false": true} // expr.go reads the literals by hand
	seen := map[reflect.Type]bool{}
	roots := []any{gEnum{}, gEntity{}, gStmt{}, gRule{}, gMilestone{}, gMItem{}, gTestItem{}, gEntityMember{}}
	roots = append(roots, alternatives(memberAlts)...)
	roots = append(roots, alternatives(stateItemAlts)...)
	for _, r := range roots {
		tagWords(reflect.TypeOf(r), seen, spelt)
	}
	for ctx := range grammar {
		for _, it := range grammar[ctx].items {
			if it.contextual {
				delete(spelt, it.word)
			} else {
				spelt[it.word] = true // parsed by hand (state, workflow)
			}
		}
	}
	var want []string
	for w := range spelt {
		want = append(want, w)
	}
	slices.Sort(want)
	if got := ReservedWords(); !slices.Equal(got, want) {
		t.Errorf("keywords %v, the grammar spells %v", got, want)
	}
	for w, k := range keywords {
		if k.owner != "" && strings.Count(k.owner, "%s") != 1 {
			t.Errorf("keyword %q: owner %q must hold one %%s", w, k.owner)
		}
		if k.name && k.next == "" {
			t.Errorf("keyword %q: a name follows, but next does not say which", w)
		}
	}
}

// tagWords adds to words every quoted word of the parser tags of t and of
// the grammar structs its fields hold.
func tagWords(t reflect.Type, seen map[reflect.Type]bool, words map[string]bool) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || seen[t] {
		return
	}
	seen[t] = true
	for f := range t.Fields() {
		for _, m := range quotedWord.FindAllStringSubmatch(f.Tag.Get("parser"), -1) {
			words[m[1]] = true
		}
		tagWords(f.Type, seen, words)
	}
}

// TestReserved: exactly the reserved words lex as keywords; a word that
// differs by case, by a letter more or less, is a name.
func TestReserved(t *testing.T) {
	for _, w := range ReservedWords() {
		for _, c := range []struct {
			word string
			want lexer.Kind
		}{{w, lexer.Keyword}, {strings.ToUpper(w[:1]) + w[1:], lexer.Ident}, {w + "s", lexer.Ident}, {w[:len(w)-1], lexer.Ident}, {"_" + w, lexer.Ident}} {
			toks := Lex("k.wf", c.word).Tokens
			if len(toks) != 2 || toks[0].Kind != c.want {
				t.Errorf("%q lexes as %v, want one %v", c.word, toks, c.want)
			}
		}
	}
}

// TestContainerLists checks that the messages listing what a container
// holds are derived from the table: a new item appears in each of them.
func TestContainerLists(t *testing.T) {
	for _, tc := range []struct {
		p    prod
		want string
	}{
		{prodDecl, "a declaration (`enum`, `entity`, `workflow` or `test \"name\" { … }`)"},
		{prodMember, "a workflow member (`Name = value;`, `event`, `state` or `terminal`)"},
	} {
		if got := tc.p.want(); got != tc.want {
			t.Errorf("%d: got %q, want %q", tc.p, got, tc.want)
		}
	}
	// Every container's list names its named piece and each of its rows,
	// in the table's order.
	for ctx := range grammar {
		c := &grammar[ctx]
		if c.what == "" || c.piece == prodNone || productions[c.piece].want != "" {
			continue
		}
		got, at := c.piece.want(), 0
		for _, shape := range append([]string{c.namedShape}, shapesOf(c.items)...) {
			k := strings.Index(got[at:], shape)
			if shape != "" && k < 0 {
				t.Errorf("context %d: %q does not list %s after byte %d", ctx, got, shape, at)
				break
			}
			at += max(k, 0) + len(shape)
		}
	}
	// A row added to a container (as a new state item would be) shows
	// last in its list, splits the body and opens its context without
	// another edit.
	c := container{what: "a thing", namedShape: "`Name = value;`", innerOther: ctxOther, items: []item{
		{word: "one", prod: prodStateItem, shape: "`one …`", fits: shapeBrace, inner: ctxOther},
		{word: "two", prod: prodStateItem, shape: "`two { … }`", fits: shapeBrace, inner: ctxStmts},
	}}
	if got, want := c.list(), "a thing (`Name = value;`, `one …` or `two { … }`)"; got != want {
		t.Errorf("with two rows: got %q, want %q", got, want)
	}
	if !c.starts("two") || c.innerOf("two") != ctxStmts || c.innerOf("three") != ctxOther {
		t.Error("a row is not a split point or does not open its context")
	}
}

func shapesOf(items []item) []string {
	var out []string
	for _, it := range items {
		out = append(out, it.shape)
	}
	return out
}

// TestParticipleFailure pins the one place participle's error text is read
// (participleFailure): the offset of the unexpected token and the grammar
// text of what was expected there.
func TestParticipleFailure(t *testing.T) {
	src := "enum E { A ; }"
	_, err := getParsers().enum.get().ParseString("t.wf", src)
	if err == nil {
		t.Fatal("no error")
	}
	off, expect := participleFailure(err)
	if off != strings.Index(src, ";") || translateExpect(expect) == "" {
		t.Fatalf("participleFailure(%q) = %d, %q: participle's error format changed; see participleFailure", err, off, expect)
	}
}

// TestStartWords: what completion offers at each place is the grammar
// table's words there.
func TestStartWords(t *testing.T) {
	if got, want := StartWords(PlaceTop), []string{"enum", "entity", "workflow", "test"}; !slices.Equal(got, want) {
		t.Errorf("StartWords(PlaceTop) = %q, want %q", got, want)
	}
	for p, ctx := range map[Place]context{PlaceWorkflow: ctxWorkflow, PlaceState: ctxState, PlaceStatements: ctxStmts} {
		var want []string
		for _, it := range grammar[ctx].items {
			want = append(want, it.word)
		}
		if got := StartWords(p); len(got) == 0 || !slices.Equal(got, want) {
			t.Errorf("StartWords(%d) = %q, want the rows of its context, %q", p, got, want)
		}
	}
	if got := StartWords(Place(99)); got != nil {
		t.Errorf("StartWords(99) = %q", got)
	}
}
