package lexer

import (
	"io"

	plexer "github.com/alecthomas/participle/v2/lexer"
)

// Definition adapts this lexer to participle's lexer.Definition, so the
// grammar in package parser matches on the token kinds defined here.
type Definition struct{}

var symbols = map[string]plexer.TokenType{
	"EOF": plexer.EOF, "Ident": TokenType(Ident), "Keyword": TokenType(Keyword),
	"Int": TokenType(Int), "Decimal": TokenType(Decimal), "String": TokenType(String),
	"Punct": TokenType(Punct),
}

// TokenType maps a Kind to its participle token type.
func TokenType(k Kind) plexer.TokenType {
	if k == EOF {
		return plexer.EOF
	}
	return plexer.TokenType(-2 - int(k))
}

// Symbols implements lexer.Definition.
func (Definition) Symbols() map[string]plexer.TokenType {
	out := make(map[string]plexer.TokenType, len(symbols))
	for k, v := range symbols {
		out[k] = v
	}
	return out
}

// Lex implements lexer.Definition. Lexical errors are not returned here (they
// never stop lexing); use Lex directly to get them as diagnostics.
func (Definition) Lex(filename string, r io.Reader) (plexer.Lexer, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	src := string(b)
	res := Lex(filename, src)
	return NewStream(filename, src, res.Tokens, res.Tokens[len(res.Tokens)-1]), nil
}

// Stream feeds a slice of tokens to participle, then an EOF token placed at
// eof. Parsing a chunk of a file is a Stream over the chunk's tokens whose
// EOF stands where the next token of the file starts, so "unexpected end"
// errors point at what actually follows.
type Stream struct {
	file string
	src  string
	toks []Token
	eof  Token
	i    int
}

// NewStream returns a participle lexer over toks (tokens of src).
func NewStream(file, src string, toks []Token, eof Token) *Stream {
	return &Stream{file: file, src: src, toks: toks, eof: eof}
}

// Next implements participle's lexer.Lexer.
func (s *Stream) Next() (plexer.Token, error) {
	if s.i < len(s.toks) {
		t := s.toks[s.i]
		s.i++
		if t.Kind == EOF {
			return s.eofToken(t), nil
		}
		return plexer.Token{
			Type:  TokenType(t.Kind),
			Value: s.src[t.Off:t.End],
			Pos:   plexer.Position{Filename: s.file, Offset: int(t.Off), Line: int(t.Line), Column: int(t.Col)},
		}, nil
	}
	return s.eofToken(s.eof), nil
}

func (s *Stream) eofToken(t Token) plexer.Token {
	return plexer.Token{
		Type: plexer.EOF,
		Pos:  plexer.Position{Filename: s.file, Offset: int(t.Off), Line: int(t.Line), Column: int(t.Col)},
	}
}
