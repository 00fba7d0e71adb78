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

// ErrBinary is returned by Layout for source whose comments or strings hold
// control characters or invalid UTF-8: such text is likely not source, and
// taking white space out of it could make it look binary to the lexer.
var ErrBinary = errors.New("the source has control characters or invalid UTF-8 in a comment or string")

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
	lx, err := parse(name, src)
	if err != nil {
		return src, err
	}
	return Layout(src, lx)
}

// parse lexes src and refuses it if it does not parse.
func parse(name, src string) (*lexer.Result, error) {
	_, ds := parser.Parse([]parser.Source{{Name: name, Src: src}}, parser.Options{Workers: 1})
	var errs []diag.Diagnostic
	for _, d := range ds {
		if d.Severity == diag.Error {
			errs = append(errs, d)
		}
	}
	if len(errs) > 0 {
		return nil, &SyntaxError{Diags: diag.Sort(errs, []string{name})}
	}
	lx := parser.Lex(name, src)
	return &lx, nil
}

// Layout returns the canonical layout of src given its lexing lx. It needs
// no syntax tree and accepts any token sequence, but refuses source with
// lexical errors (ErrLex) or with control characters or invalid UTF-8 in a
// comment or string (ErrBinary). Line endings follow the source's first line (CRLF
// stays CRLF); a byte order mark is kept.
func Layout(src string, lx *lexer.Result) (string, error) {
	p, err := layout(src, lx, false)
	if err != nil {
		return src, err
	}
	return p.result(), nil
}

// layout runs the printer; with track set it records where each item went.
func layout(src string, lx *lexer.Result, track bool) (*printer, error) {
	if len(lx.Diags) > 0 {
		return nil, ErrLex
	}
	p := &printer{src: src}
	if strings.HasPrefix(src, "\uFEFF") {
		p.start = 3
	}
	nl := strings.IndexByte(src, '\n')
	p.eol = "\n"
	if nl > 0 && src[nl-1] == '\r' {
		p.eol = "\r\n"
	}
	p.items(p.start, lx)
	p.pinIgnored(lx.Ignores)
	if p.bad {
		return nil, ErrBinary
	}
	if track {
		p.at = make([][2]int, len(p.it))
	}
	p.out = make([]byte, 0, len(src)+len(src)/8+16)
	if p.start > 0 {
		p.out = append(p.out, "\uFEFF"...)
	}
	p.body(-1, len(p.it), 0, false)
	if len(p.out) > p.start {
		p.out = append(p.out, p.eol...)
	}
	return p, nil
}

// result is the output.
func (p *printer) result() string { return string(p.out) }

// Edit replaces the bytes Off..End (exclusive) of the source with New.
type Edit struct {
	Off, End int
	New      string
}

// Edits returns the changes that turn src into its canonical layout, as the
// smallest white-space edits between tokens and comments, in order; an
// editor can apply them all (whole-document formatting) or only those inside
// a range (range formatting), and each keeps the text around it. A file with
// syntax errors gets a *SyntaxError.
func Edits(name, src string) ([]Edit, error) {
	lx, err := parse(name, src)
	if err != nil {
		return nil, err
	}
	p, err := layout(src, lx, true)
	if err != nil {
		return nil, err
	}
	return p.edits(), nil
}

// edits compares the gaps between items in the source and in the output.
func (p *printer) edits() []Edit {
	src := p.src
	var edits []Edit
	add := func(off, end int, repl string) {
		if src[off:end] != repl {
			edits = append(edits, Edit{Off: off, End: end, New: repl})
		}
	}
	prevSrc, prevOut := p.start, p.start
	for i := range p.it {
		add(prevSrc, int(p.it[i].off), string(p.out[prevOut:p.at[i][0]]))
		prevSrc, prevOut = int(p.it[i].end), p.at[i][1]
	}
	add(prevSrc, len(src), string(p.out[prevOut:]))
	return edits
}
