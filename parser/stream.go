package parser

import (
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
	fp := s.fp
	i := s.i
	t := fp.toks[i]
	pos := plexer.Position{Filename: fp.file.Name, Offset: int(t.Off), Line: int(t.Line), Column: int(t.Col)}
	if i >= s.end || t.Kind == lexer.EOF {
		return plexer.Token{Type: plexer.EOF, Pos: pos}, nil
	}
	s.i++
	k := fp.kind(i)
	typ := lexer.TokenType(k)
	if t.Bad {
		typ = badLiteral(k)
	}
	return plexer.Token{Type: typ, Value: fp.word(i), Pos: pos}, nil
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
