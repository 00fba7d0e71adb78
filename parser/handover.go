package parser

import (
	"reflect"
	"unsafe"

	plexer "github.com/alecthomas/participle/v2/lexer"
)

// The exact hand-over. participle's only way to build a PeekingLexer is
// lexer.Upgrade, which reads a Lexer token by token into a slice grown by
// append: every window was copied about twice over, through a doubling
// slice, and that was a tenth of a cold check's CPU and a fifth of its
// bytes. A window's size is known before it is read, so its tokens are
// written into a slice of exactly that size (reused by the chunk's next
// window) and the PeekingLexer is set over it directly.
//
// That writes participle's unexported fields, so it is done only when
// PeekingLexer has exactly the layout peekingLayout mirrors: the same
// fields, names, types and offsets (exactHandOver, checked once). Another
// version of participle with another layout falls back to Upgrade, every
// parse the same, and TestExactHandOver fails so the mirror gets updated.
// The state written is what Upgrade leaves: the cursors at the first
// token, the tokens ending with an EOF, and nothing elided (a nil map
// reads as empty).

// peekingLayout mirrors lexer.PeekingLexer (participle v2.1.4).
type peekingLayout struct {
	Checkpoint checkpointLayout
	tokens     []plexer.Token
	elide      map[plexer.TokenType]bool
}

// checkpointLayout mirrors lexer.Checkpoint.
type checkpointLayout struct {
	rawCursor  plexer.RawCursor
	nextCursor plexer.RawCursor
	cursor     int
}

// exactHandOver reports whether PeekingLexer's layout is peekingLayout's.
var exactHandOver = sameLayout(reflect.TypeFor[plexer.PeekingLexer](), reflect.TypeFor[peekingLayout]())

// sameLayout reports whether struct types a and b have the same fields in
// the same places: names, offsets and types, nested structs compared the
// same way.
func sameLayout(a, b reflect.Type) bool {
	if a.Kind() != reflect.Struct || b.Kind() != reflect.Struct {
		return a == b
	}
	if a.Size() != b.Size() || a.NumField() != b.NumField() {
		return false
	}
	for i := range a.NumField() {
		fa, fb := a.Field(i), b.Field(i)
		if fa.Name != fb.Name || fa.Offset != fb.Offset || !sameLayout(fa.Type, fb.Type) {
			return false
		}
	}
	return true
}

// peekingOver sets pl to a PeekingLexer over toks (which end with an EOF)
// at their first token, as Upgrade would return it. Only when
// exactHandOver.
func peekingOver(pl *plexer.PeekingLexer, toks []plexer.Token) {
	*(*peekingLayout)(unsafe.Pointer(pl)) = peekingLayout{tokens: toks}
}
