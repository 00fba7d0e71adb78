package parser

import (
	"reflect"
	"testing"

	plexer "github.com/alecthomas/participle/v2/lexer"
	"github.com/google/go-cmp/cmp"

	"github.com/wfc-lang/wfc/internal/corpus"
)

// TestExactHandOver: participle's PeekingLexer still has the layout the
// exact hand-over writes (a new participle that changed it makes every
// window go through Upgrade, slower: update peekingLayout), and a window
// handed over exactly reads, token by token, as the one Upgrade builds:
// the same tokens, cursors and end, for windows across a generated file
// and for a window reused by a shorter one.
func TestExactHandOver(t *testing.T) {
	if !exactHandOver {
		t.Fatal("participle's lexer.PeekingLexer no longer has peekingLayout's fields: update the mirror in handover.go")
	}
	src := corpus.Generate(400, 1)[0].Src
	fp := newFileParser(Source{Name: "gen.wf", Src: src})
	cp := &chunkParser{fileParser: fp}
	n := len(fp.toks) - 1
	windows := [][2]int{{0, n}, {0, 1}, {n / 3, n / 2}, {n - 5, n}, {n / 2, n/2 + 3}, {7, 7}}
	var w window
	for _, lh := range windows {
		lo, hi := lh[0], lh[1]
		if !cp.fill(&w, lo, hi) {
			t.Fatalf("[%d, %d): not filled", lo, hi)
		}
		up, err := plexer.Upgrade(&tokenStream{fp: fp, i: lo, end: hi})
		if err != nil {
			t.Fatal(err)
		}
		exact := w.lex
		if got, want := read(&exact), read(up); !cmp.Equal(got, want) {
			t.Errorf("[%d, %d): the exact hand-over reads differently from Upgrade's:\n%s", lo, hi, cmp.Diff(want, got))
		}
	}
}

// step is one token read from a PeekingLexer, with the cursor after it.
type step struct {
	Tok    plexer.Token
	Cursor int
	Raw    plexer.RawCursor
}

// read reads pl to its EOF, and the EOF once more.
func read(pl *plexer.PeekingLexer) []step {
	var out []step
	for {
		peek := *pl.Peek()
		tok := *pl.Next()
		if peek != tok {
			return append(out, step{Tok: plexer.Token{Value: "peek differs from next"}})
		}
		out = append(out, step{tok, pl.Cursor(), pl.RawCursor()})
		if tok.EOF() {
			tok = *pl.Next()
			return append(out, step{tok, pl.Cursor(), pl.RawCursor()})
		}
	}
}

// TestParsersBuild: every participle parser builds, the recovery's too,
// though each is built only on its first use (a grammar mistake in one
// must not wait for the first broken program that needs it).
func TestParsersBuild(t *testing.T) {
	ps := getParsers()
	all := map[string]func(){
		"enum": func() { ps.enum.get() }, "entity": func() { ps.entity.get() },
		"member": func() { ps.member.get() }, "stateItem": func() { ps.stateItem.get() },
		"stmt": func() { ps.stmt.get() }, "attrs": func() { ps.attrs.get() },
		"entMember": func() { ps.entMember.get() }, "rule": func() { ps.rule.get() },
		"milestone": func() { ps.milestone.get() }, "mitem": func() { ps.mitem.get() },
		"testItem": func() { ps.testItem.get() }, "catchCase": func() { ps.catchCase.get() },
	}
	if n := reflect.TypeFor[parsers]().NumField(); len(all) != n {
		t.Fatalf("the test builds %d parsers, parsers has %d: add the new one here", len(all), n)
	}
	for name, build := range all {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s: %v", name, r)
				}
			}()
			build()
		}()
	}
}
