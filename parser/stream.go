package parser

import (
	"github.com/alecthomas/participle/v2"
	plexer "github.com/alecthomas/participle/v2/lexer"

	"github.com/wfc-lang/wfc/lexer"
)

// tokenStream feeds tokens [lo, hi) of a file to participle, then an EOF
// placed where token hi starts, so "unexpected end" errors point at what
// actually follows the piece. A name that misspells a keyword is handed
// over as that keyword (fileParser.kw). It replaces lexer.Stream for that
// one difference.
type tokenStream struct {
	fp     *fileParser
	i, end int
}

// Next implements participle's lexer.Lexer.
func (s *tokenStream) Next() (plexer.Token, error) {
	t, eof := s.fp.handOver(s.i, s.end)
	if !eof {
		s.i++
	}
	return t, nil
}

// handOver is token i as participle reads it in a piece that ends before
// token end: past the end, or at the file's end, an EOF placed where token
// i starts (and eof is true).
func (fp *fileParser) handOver(i, end int) (tok plexer.Token, eof bool) {
	t := fp.toks[i]
	pos := plexer.Position{Filename: fp.file.Name, Offset: int(t.Off), Line: int(t.Line), Column: int(t.Col)}
	if i >= end || t.Kind == lexer.EOF {
		return plexer.Token{Type: plexer.EOF, Pos: pos}, true
	}
	k := fp.kind(i)
	typ := lexer.TokenType(k)
	if t.Bad {
		typ = badLiteral(k)
	}
	return plexer.Token{Type: typ, Value: fp.word(i), Pos: pos}, false
}

// badLiteral is the token type of a literal of kind k already reported as
// malformed: only the expression parser reads literals, and it marks the
// node Bad so later stages stay quiet about it.
func badLiteral(k lexer.Kind) plexer.TokenType { return plexer.TokenType(-20 - int(k)) }

// stream builds participle's lexer over tokens of s.
func (fp *fileParser) stream(s span) *plexer.PeekingLexer {
	pl, _ := plexer.Upgrade(&tokenStream{fp: fp, i: s.lo, end: s.hi})
	return pl
}

// The fast hand-over. Upgrading a stream copies its tokens into a
// PeekingLexer, growing a slice token by token, with a map and a few
// headers besides: per piece, that was a tenth of the parse. A chunk's
// pieces are instead parsed from one PeekingLexer over a window of its
// tokens (a PeekingLexer is a value: a copy shares the tokens and moves on
// its own), built once and walked forward to each piece's first token.
//
// Past a piece's last token the window holds the next real tokens, not
// the EOF the piece's own stream ends with, so participle is told to allow
// trailing tokens, and the parse counts only when it succeeds having
// consumed exactly the piece. Then it is the parse the piece's own stream
// gives: up to the piece's end the tokens are the same, every decision of
// the grammar and of the leaves looks at the next token only, nothing in
// the grammar matches an EOF, and a production that stops at the piece's
// end tried its alternatives there without consuming anything (with
// UseLookahead(0), one that consumes and fails is an error). Any other
// outcome — an error, a parse that stops elsewhere, a panic — parses the
// piece again from its own stream (fp.stream), so every error, message
// and partial tree is exactly the piece-by-piece parse's; errors are rare.

// windowTokens is how many tokens a window holds at least (up to the
// chunk's end): a hostile declaration of millions of tokens is handed
// over a window at a time, never whole.
const windowTokens = 2048

// allowTrailing is participle's option, built once.
var allowTrailing = participle.AllowTrailing(true)

// window is a chunk's PeekingLexer over tokens [lo, hi) (then an EOF
// where token hi starts), walked forward to where the last piece started.
type window struct {
	lex    plexer.PeekingLexer
	lo, hi int
	ok     bool
	// piece is the copy handed to the parse of the current piece; kept
	// here, not allocated per piece (pieces are parsed one at a time).
	piece plexer.PeekingLexer
	// buf holds the window's tokens when they were handed over exactly
	// (handover.go): the next window of the chunk reuses it.
	buf []plexer.Token
}

// fill makes w the window over tokens [lo, hi) and the EOF where token hi
// starts: handed over exactly when participle's layout allows it
// (handover.go), else through Upgrade.
func (cp *chunkParser) fill(w *window, lo, hi int) bool {
	if exactHandOver {
		buf := w.buf[:0]
		if cap(buf) < hi-lo+1 {
			buf = make([]plexer.Token, 0, hi-lo+1)
		}
		for i := lo; ; i++ {
			t, eof := cp.handOver(i, hi)
			buf = append(buf, t)
			if eof {
				break
			}
		}
		*w = window{lo: lo, hi: hi, ok: true, buf: buf}
		peekingOver(&w.lex, buf)
		return true
	}
	lex, err := plexer.Upgrade(&tokenStream{fp: cp.fileParser, i: lo, end: hi})
	if err != nil {
		return false
	}
	*w = window{lex: *lex, lo: lo, hi: hi, ok: true}
	return true
}

// lexAt returns a PeekingLexer whose next token is s.lo, for a parse of
// piece s, and the cursor it must reach when the parse consumed exactly
// s; ok is false when the window cannot serve s (a piece behind the last
// one), and the caller uses fp.stream.
func (cp *chunkParser) lexAt(s span) (pl *plexer.PeekingLexer, want int, ok bool) {
	w := &cp.win
	if s.hi <= s.lo || s.hi > cp.chunk.hi || s.lo < cp.chunk.lo {
		return nil, 0, false
	}
	if !w.ok || s.lo < w.lo+w.lex.Cursor() || s.hi > w.hi {
		hi := min(cp.chunk.hi, max(s.hi, s.lo+windowTokens))
		if !cp.fill(w, s.lo, hi) {
			return nil, 0, false
		}
	}
	for w.lo+w.lex.Cursor() < s.lo {
		w.lex.Next()
	}
	w.piece = w.lex
	return &w.piece, s.hi - w.lo, true
}

// parsePiece parses piece s with p: from the chunk's window when that
// parse is the piece's own (see above), else from the piece's own stream.
func parsePiece[G any](cp *chunkParser, p *participle.Parser[G], s span) (*G, error) {
	if !streamOnly {
		if pl, want, ok := cp.lexAt(s); ok {
			if g, ok := tryPiece(p, pl, want); ok {
				return g, nil
			}
		}
	}
	return p.ParseFromLexer(cp.stream(s))
}

// streamOnly turns the window off: every piece is parsed from its own
// stream (TestWindowMatchesStream compares the two).
var streamOnly = false

// tryPiece parses from pl and reports whether the parse succeeded with the
// cursor at want.
func tryPiece[G any](p *participle.Parser[G], pl *plexer.PeekingLexer, want int) (g *G, ok bool) {
	defer func() {
		if recover() != nil {
			g, ok = nil, false
		}
	}()
	g, err := p.ParseFromLexer(pl, allowTrailing)
	return g, err == nil && pl.Cursor() == want
}
