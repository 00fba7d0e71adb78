// Package format lays workflow-language source out in its one canonical form
// (the rules, with examples, are in docs/fmt.md): two-space indentation, one
// member per line, `=` of consecutive settings aligned, short blocks kept on
// one line when they were written so and fit, long `Backoff` chains broken.
//
// It works from the lexer's tokens and comments alone: the structure of the
// language shows in its tokens (braces, semicolons, commas, keywords), so the
// formatter needs no syntax tree and can promise, by construction, that it
// changes nothing but white space — every token and every comment comes out
// in the same order with the same text.
package format

import (
	"errors"
	"strconv"
	"strings"

	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/lexer"
	"github.com/wfc-lang/wfc/parser"
)

// Width is the column limit: a block written on one line stays on one line
// only if its line fits, and a `Backoff` chain whose line is longer breaks.
const Width = 120

// indentWidth is the width of one level of indentation (two spaces);
// a continuation line is indented two levels deeper than its member.
const (
	indentWidth = 2
	contLevels  = 2
)

// ErrLex is returned by Layout for source with lexical errors: bytes that
// are not tokens would be lost by re-spacing the tokens.
var ErrLex = errors.New("the source has lexical errors")

// SyntaxError is returned by Source for a file that does not parse: such a
// file is not formatted.
type SyntaxError struct {
	Diags []diag.Diagnostic // the syntax errors, at least one
}

func (e *SyntaxError) Error() string {
	if len(e.Diags) == 1 {
		return "1 syntax error"
	}
	return strconv.Itoa(len(e.Diags)) + " syntax errors"
}

// Source returns the canonical layout of src, the text of the file name. A
// file with syntax errors is returned unchanged with a *SyntaxError.
func Source(name, src string) (string, error) {
	_, ds := parser.Parse([]parser.Source{{Name: name, Src: src}}, parser.Options{Workers: 1})
	var errs []diag.Diagnostic
	for _, d := range ds {
		if d.Severity == diag.Error {
			errs = append(errs, d)
		}
	}
	if len(errs) > 0 {
		return src, &SyntaxError{Diags: diag.Sort(errs, []string{name})}
	}
	lx := lexer.Lex(name, src)
	return Layout(src, &lx)
}

// Layout returns the canonical layout of src given its lexing lx. It needs
// no syntax tree and accepts any token sequence, but refuses (ErrLex) source
// with lexical errors. Line endings follow the source's first line (CRLF
// stays CRLF); a byte order mark is kept.
func Layout(src string, lx *lexer.Result) (string, error) {
	if len(lx.Diags) > 0 {
		return src, ErrLex
	}
	p := &printer{src: src}
	start := 0
	if strings.HasPrefix(src, "\uFEFF") {
		start = 3
	}
	nl := strings.IndexByte(src, '\n')
	p.crlf = nl > 0 && src[nl-1] == '\r'
	p.items(start, lx)
	p.out = make([]byte, 0, len(src)+len(src)/8+16)
	if start > 0 {
		p.out = append(p.out, "\uFEFF"...)
	}
	p.body(-1, len(p.it), 0, false)
	if len(p.out) > start {
		p.out = append(p.out, '\n')
	}
	if p.crlf {
		return strings.ReplaceAll(string(p.out), "\n", "\r\n"), nil
	}
	return string(p.out), nil
}
