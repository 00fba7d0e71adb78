package parser

import (
	"sort"
	"unicode/utf8"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/lexer"
)

// fileParser holds one file's tokens and answers questions about them:
// text, kind, keyword (misspellings included) and exact ranges. Chunks of it are parsed concurrently;
// each chunk reports into its own chunkParser, so fileParser is read-only
// once split.
type fileParser struct {
	file    *ast.File
	src     string
	toks    []lexer.Token
	diags   diag.List // lexical diagnostics
	chunks  []span
	results []chunkResult
	// unterminated: offsets of unterminated strings and comments (lexer).
	unterminated []int
	// gaps: offsets of bytes the lexer dropped (WF003).
	gaps []int
	// kw maps the index of a name that misspells a keyword to that keyword
	// (keywords.go); nil in a file without one.
	kw map[int]string
	// respelt maps the offset of a name written with letters that only
	// look Latin to the Latin name it is read as (lexer.Result.Respelt).
	respelt map[uint32]string
	// inserted holds the text of the zero-width tokens the repairs
	// inserted that are not `{`: a `}` (braces.go), a `;` (foreign.go);
	// nil in a file without one.
	inserted map[int]string
	// names maps the index of a reserved word that stands where a name
	// belongs to the name it is read as (reserved.go); nil in a file
	// without one.
	names map[int]string
}

// span is a half-open range of token indices [lo, hi).
type span struct{ lo, hi int }

func (fp *fileParser) endOfFile() diag.Pos {
	t := fp.toks[len(fp.toks)-1]
	return diag.MakePos(int(t.Line), int(t.Col), int(t.Off))
}

// text returns the source text of token i.
func (fp *fileParser) text(i int) string {
	t := fp.toks[i]
	if t.Off == t.End && t.Kind == lexer.Punct {
		return fp.virtualText(i) // inserted by repairBraces
	}
	if fp.respelt != nil && (t.Kind == lexer.Ident || t.Kind == lexer.Punct) {
		if s, ok := fp.respelt[t.Off]; ok {
			return s // a name written with look-alike letters, another language's form
		}
	}
	return fp.src[t.Off:t.End]
}

// is reports whether token i is the punctuation or keyword s.
func (fp *fileParser) is(i int, s string) bool {
	t := fp.toks[i]
	if t.Kind == lexer.Ident && fp.kw != nil {
		return fp.kw[i] == s
	}
	if t.Kind == lexer.Keyword && fp.names != nil && fp.names[i] != "" {
		return false
	}
	return (t.Kind == lexer.Punct || t.Kind == lexer.Keyword) && fp.text(i) == s
}

// kind is token i's kind, Keyword for a name that misspells one.
func (fp *fileParser) kind(i int) lexer.Kind {
	k := fp.toks[i].Kind
	if k == lexer.Ident && fp.kw != nil && fp.kw[i] != "" {
		return lexer.Keyword
	}
	if k == lexer.Keyword && fp.names != nil && fp.names[i] != "" {
		return lexer.Ident
	}
	return k
}

// word is token i's text, or the keyword a misspelled name stands for.
func (fp *fileParser) word(i int) string {
	if k := fp.keywordAt(i); k != "" {
		return k
	}
	if fp.names != nil && fp.names[i] != "" {
		return fp.names[i]
	}
	return fp.text(i)
}

// keywordAt returns the keyword token i is (or stands for), or "".
func (fp *fileParser) keywordAt(i int) string {
	switch t := fp.toks[i]; t.Kind {
	case lexer.Keyword:
		if fp.names != nil && fp.names[i] != "" {
			return ""
		}
		return fp.src[t.Off:t.End]
	case lexer.Ident:
		if fp.kw != nil {
			return fp.kw[i]
		}
	}
	return ""
}

func (fp *fileParser) startOf(i int) diag.Pos {
	t := fp.toks[i]
	return diag.MakePos(int(t.Line), int(t.Col), int(t.Off))
}

func (fp *fileParser) endOf(i int) diag.Pos {
	t := fp.toks[i]
	s := fp.src[t.Off:t.End]
	n := len(s)
	for k := 0; k < len(s); k++ {
		if s[k] >= utf8.RuneSelf {
			n = utf8.RuneCountInString(s)
			break
		}
	}
	return diag.MakePos(int(t.Line), int(t.Col)+n, int(t.End))
}

func (fp *fileParser) tokRange(i int) diag.Range {
	return diag.Range{Start: fp.startOf(i), End: fp.endOf(i)}
}

// spanRange is the range from the start of token lo to the end of token hi-1.
func (fp *fileParser) spanRange(lo, hi int) diag.Range {
	if hi <= lo {
		return diag.Range{Start: fp.startOf(lo), End: fp.startOf(lo)}
	}
	return diag.Range{Start: fp.startOf(lo), End: fp.endOf(hi - 1)}
}

// indexAt returns the index of the first token starting at or after off.
func (fp *fileParser) indexAt(off int) int {
	return sort.Search(len(fp.toks), func(i int) bool { return int(fp.toks[i].Off) >= off })
}

// describe names token i for a message: `x`, or "end of file".
func (fp *fileParser) describe(i int) string {
	t := fp.toks[i]
	if t.Kind == lexer.EOF {
		return "end of file"
	}
	return "`" + diag.Shorten(fp.text(i)) + "`"
}
