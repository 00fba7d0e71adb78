// Package parser turns token streams into the syntax tree of package ast.
//
// participle parses one chunk at a time: the token stream of a file is split
// by hand at top-level declarations, a workflow's body at its members and a
// state's body at its items (chunk.go). That gives:
//   - error recovery: participle stops at its first error, but one bad state
//     loses only itself, and a declaration whose body fails still declares
//     its name (marked Bad, so the checker does not cascade);
//   - parallelism: chunks parse on all cores;
//   - a small live heap: participle's tokens exist for one chunk at a time.
//
// A nesting guard runs before participle sees a chunk, and recover() guards
// each chunk, so no input can crash the process.
package parser

import (
	"fmt"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	plexer "github.com/alecthomas/participle/v2/lexer"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/lexer"
)

// MaxNesting is the deepest nesting of brackets and prefix operators the
// parser accepts; deeper input is reported (WF001) instead of parsed.
const MaxNesting = 200

// Source is one input file.
type Source struct {
	Name string
	Src  string
}

// Options tune parsing.
type Options struct {
	// Workers is the number of goroutines parsing chunks; 0 means GOMAXPROCS.
	Workers int
}

// Parse lexes and parses the files of one program. It never fails: every
// problem is a diagnostic, in no particular order (callers sort them).
func Parse(files []Source, opt Options) (*ast.Program, []diag.Diagnostic) {
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	fps := make([]*fileParser, len(files))
	// Lex files in parallel.
	parallel(len(files), workers, func(i int) {
		f := files[i]
		res := lexer.Lex(f.Name, f.Src)
		fp := &fileParser{
			file: &ast.File{Name: f.Name, Src: f.Src},
			src:  f.Src,
			toks: res.Tokens,
		}
		fp.file.Range = diag.Range{Start: diag.Pos{Line: 1, Column: 1}, End: fp.endOfFile()}
		fp.diags.Items = res.Diags
		fp.unterminated = res.Unterminated
		fp.gaps = res.Gaps
		fp.file.Ignores = res.Ignores
		fp.findMisspelledKeywords()
		fp.chunks = fp.splitTop()
		fps[i] = fp
	})
	// Parse all chunks of all files in parallel.
	type job struct{ fp, chunk int }
	var jobs []job
	for i, fp := range fps {
		fp.results = make([]chunkResult, len(fp.chunks))
		for j := range fp.chunks {
			jobs = append(jobs, job{i, j})
		}
	}
	parallel(len(jobs), workers, func(k int) {
		j := jobs[k]
		fp := fps[j.fp]
		fp.results[j.chunk] = fp.parseTopChunk(fp.chunks[j.chunk])
	})
	prog := &ast.Program{}
	var ds []diag.Diagnostic
	for _, fp := range fps {
		fileDiags := fp.diags.Items
		for _, r := range fp.results {
			if r.decl != nil {
				fp.file.Decls = append(fp.file.Decls, r.decl)
			}
			fileDiags = append(fileDiags, r.diags...)
		}
		ds = append(ds, capSyntaxErrors(fp.file, fileDiags)...)
		prog.Files = append(prog.Files, fp.file)
	}
	return prog, ds
}

// MaxSyntaxErrors is how many WF001 one file reports. A file with more is
// hardly source (a binary or a file in another language): reporting
// millions of errors helps nobody, so the rest are counted in one last
// diagnostic and the file's meaning is not checked.
const MaxSyntaxErrors = 1000

func capSyntaxErrors(f *ast.File, ds []diag.Diagnostic) []diag.Diagnostic {
	n := 0
	for _, d := range ds {
		if d.Code == "WF001" {
			n++
		}
	}
	if n <= MaxSyntaxErrors {
		return ds
	}
	f.Overwhelmed = true
	sort.SliceStable(ds, func(i, j int) bool { return ds[i].Range.Start.Offset < ds[j].Range.Start.Offset })
	out := ds[:0]
	kept := 0
	var next *diag.Diagnostic
	for i := range ds {
		d := ds[i]
		if d.Code == "WF001" {
			kept++
			if kept > MaxSyntaxErrors {
				if next == nil {
					next = &ds[i]
					out = append(out, diag.Diagnostic{File: f.Name, Severity: diag.Error, Code: "WF001", Range: d.Range,
						Message: fmt.Sprintf("too many syntax errors: %d more in this file are not reported, and its meaning is not checked; is it workflow source?", n-MaxSyntaxErrors)})
				}
				continue
			}
		}
		out = append(out, d)
	}
	return out
}

// parallel runs f(0..n-1) on up to workers goroutines.
func parallel(n, workers int, f func(int)) {
	if n == 0 {
		return
	}
	if workers > n {
		workers = n
	}
	if workers <= 1 {
		for i := 0; i < n; i++ {
			f(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				f(i)
			}
		}()
	}
	wg.Wait()
}

// fileParser holds one file's tokens. Chunks of it are parsed concurrently;
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
}

type chunkResult struct {
	decl  ast.Decl
	diags []diag.Diagnostic
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
	return fp.src[t.Off:t.End]
}

// is reports whether token i is the punctuation or keyword s.
func (fp *fileParser) is(i int, s string) bool {
	t := fp.toks[i]
	if t.Kind == lexer.Ident && fp.kw != nil {
		return fp.kw[i] == s
	}
	return (t.Kind == lexer.Punct || t.Kind == lexer.Keyword) && fp.src[t.Off:t.End] == s
}

// kind is token i's kind, Keyword for a name that misspells one.
func (fp *fileParser) kind(i int) lexer.Kind {
	k := fp.toks[i].Kind
	if k == lexer.Ident && fp.kw != nil && fp.kw[i] != "" {
		return lexer.Keyword
	}
	return k
}

// word is token i's text, or the keyword a misspelled name stands for.
func (fp *fileParser) word(i int) string {
	if k := fp.keywordAt(i); k != "" {
		return k
	}
	return fp.text(i)
}

// keywordAt returns the keyword token i is (or stands for), or "".
func (fp *fileParser) keywordAt(i int) string {
	switch t := fp.toks[i]; t.Kind {
	case lexer.Keyword:
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
	return "`" + shorten(fp.text(i)) + "`"
}

// shorten cuts a long token for a message, at a character boundary: 37
// bytes at most, then "…".
func shorten(s string) string {
	if len(s) <= 40 {
		return s
	}
	cut := 37
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// chunkParser parses one top-level chunk and collects its diagnostics.
type chunkParser struct {
	*fileParser
	start int // byte offset where the chunk starts
	diags diag.List
}

// syntax reports a WF001, unless reportable says it is a consequence.
func (cp *chunkParser) syntax(r diag.Range, msg string) {
	if cp.reportable(r) {
		cp.diags.Errorf(cp.file.Name, r, "WF001", msg)
	}
}

// reportable reports whether a syntax error at r has a cause of its own: not
// when an unterminated string or comment at or before it in the same
// declaration swallowed text (its WF002 is the root cause), nor right after
// bytes the lexer dropped (WF003). Both lookups are binary searches, so a
// file of many errors and many unterminated strings stays linear.
func (cp *chunkParser) reportable(r diag.Range) bool {
	at := int(r.Start.Offset)
	if k := sort.SearchInts(cp.unterminated, cp.start); k < len(cp.unterminated) && cp.unterminated[k] <= at {
		return false
	}
	// A token right after a literal reported as malformed (`1e-400` lexes
	// as `1e` then `-400`): the WF004 there is the root cause.
	if i := cp.indexAt(at); i > 0 && cp.toks[i-1].Bad && int(cp.toks[i-1].End) == at {
		return false
	}
	if len(cp.gaps) > 0 {
		i := cp.indexAt(at)
		prevEnd := 0
		if i > 0 {
			prevEnd = int(cp.toks[i-1].End)
		}
		k := sort.SearchInts(cp.gaps, prevEnd)
		if k < len(cp.gaps) && cp.gaps[k] <= at {
			return false
		}
	}
	return true
}

// parseTopChunk parses one top-level chunk. A panic inside participle (a bug,
// never expected) is reported as a diagnostic rather than crashing wfc.
func (fp *fileParser) parseTopChunk(s span) (res chunkResult) {
	cp := &chunkParser{fileParser: fp, start: int(fp.toks[s.lo].Off)}
	defer func() {
		if r := recover(); r != nil {
			cp.syntax(fp.tokRange(s.lo), fmt.Sprintf("wfc could not parse this declaration (internal error: %v); please report it", r))
			res = chunkResult{diags: cp.diags.Items}
		}
	}()
	var d ast.Decl
	switch {
	case fp.is(s.lo, "enum"):
		d = cp.parseEnum(s)
	case fp.is(s.lo, "entity") || fp.is(s.lo, "["):
		d = cp.parseEntity(s)
	case fp.is(s.lo, "workflow"):
		d = cp.parseWorkflow(s)
	default:
		cp.syntax(fp.tokRange(s.lo), "unexpected "+fp.describe(s.lo)+": expected a declaration (`enum`, `entity` or `workflow`)")
	}
	return chunkResult{decl: d, diags: cp.diags.Items}
}

// checkNesting reports and returns false when tokens [lo, hi) nest deeper
// than MaxNesting (brackets, and prefix operators, which also recurse).
func (cp *chunkParser) checkNesting(s span) bool {
	var open brackets
	unary := 0
	for i := s.lo; i < s.hi; i++ {
		t := cp.toks[i]
		switch {
		case t.Kind != lexer.Punct:
			unary = 0
		case cp.track(&open, i) != 0:
			unary = 0
		case t.End-t.Off == 1 && (cp.src[t.Off] == '!' || cp.src[t.Off] == '-'):
			unary++
		default:
			unary = 0
		}
		if open.depth()+unary > MaxNesting {
			cp.syntax(cp.tokRange(i), fmt.Sprintf("nesting is deeper than %d levels here: wfc stops parsing this declaration; flatten the expression", MaxNesting))
			return false
		}
	}
	return true
}

// nameAfter returns token i as an identifier if it is one.
func (cp *chunkParser) ident(i int) *ast.Ident {
	if i < len(cp.toks) && cp.kind(i) == lexer.Ident {
		return &ast.Ident{Range: cp.tokRange(i), Name: cp.text(i)}
	}
	return nil
}

func (cp *chunkParser) parseEnum(s span) ast.Decl {
	e := &ast.Enum{File: cp.file, Range: cp.spanRange(s.lo, s.hi)}
	e.Name = cp.ident(s.lo + 1)
	if !cp.checkNesting(s) {
		e.Bad = true
		return cp.declOrNil(e, e.Name)
	}
	g, err := getParsers().enum.ParseFromLexer(cp.stream(s))
	if err != nil {
		cp.reportParse(err, s, "enum")
		e.Bad = true
	}
	if err == nil {
		// The grammar accepts `A, , B` so that a trailing comma needs no
		// backtracking; an empty member is reported here.
		for i := s.lo + 1; i+1 < s.hi; i++ {
			if cp.is(i, ",") && cp.is(i+1, ",") {
				cp.syntax(cp.tokRange(i+1), "expected an enum member name or `}` after `,`, found `,`")
				e.Bad = true
				break
			}
		}
	}
	if g != nil {
		for _, m := range g.Members {
			if id := cp.name(m.Name); id != nil {
				e.Members = append(e.Members, id)
			}
		}
	}
	return cp.declOrNil(e, e.Name)
}

// declOrNil returns d unless it has no name to declare.
func (cp *chunkParser) declOrNil(d ast.Decl, name *ast.Ident) ast.Decl {
	if name == nil {
		return nil
	}
	return d
}

func (cp *chunkParser) parseEntity(s span) ast.Decl {
	e := &ast.Entity{File: cp.file, Range: cp.spanRange(s.lo, s.hi)}
	for i := s.lo; i < s.hi; i++ {
		if cp.is(i, "entity") {
			e.Name = cp.ident(i + 1)
			break
		}
	}
	if !cp.checkNesting(s) {
		e.Bad = true
		return cp.declOrNil(e, e.Name)
	}
	g, err := getParsers().entity.ParseFromLexer(cp.stream(s))
	if err != nil {
		e.Bad = true
		// Recover member by member; if the shape is too broken to split,
		// report participle's one error.
		if cp.salvageEntity(s, e) {
			return cp.declOrNil(e, e.Name)
		}
		cp.reportParse(err, s, "entity")
	}
	if g != nil {
		cp.convEntity(g, e)
	}
	return cp.declOrNil(e, e.Name)
}

// salvageEntity re-parses `[attrs] entity Name { members }` piece by piece:
// the attributes, then each field or security block on its own, and a
// security block's rules one by one. It reports what each piece gets wrong.
func (cp *chunkParser) salvageEntity(s span, e *ast.Entity) bool {
	k := s.lo
	for k < s.hi && !cp.is(k, "entity") {
		k++
	}
	if k+2 >= s.hi || e.Name == nil || !cp.is(k+2, "{") {
		return false
	}
	closeB := cp.matching(k+2, s.hi)
	if closeB < 0 {
		return false
	}
	p := getParsers()
	if k > s.lo {
		as := span{s.lo, k}
		if g, err := p.attrs.ParseFromLexer(cp.stream(as)); err != nil {
			cp.reportParse(err, as, "attribute list")
		} else {
			e.Attrs = cp.convAttrs(g.Lists)
		}
	}
	for _, m := range cp.splitMembers(k+3, closeB, func(w string) bool { return w == "security" }) {
		if !cp.checkNesting(m) {
			continue
		}
		g, err := p.entMember.ParseFromLexer(cp.stream(m))
		if err == nil {
			cp.convEntity(&gEntity{Members: []*gEntityMember{g}}, e)
			continue
		}
		if cp.is(m.lo, "security") && m.lo+1 < m.hi && cp.is(m.lo+1, "{") {
			if end := cp.matching(m.lo+1, m.hi); end > 0 {
				sec := &gSecurity{Pos: plexerPos(cp.toks[m.lo], cp.file.Name), EndPos: plexerPos(cp.toks[end+1], cp.file.Name)}
				for _, r := range cp.splitMembers(m.lo+2, end, nil) {
					gr, err := p.rule.ParseFromLexer(cp.stream(r))
					if err != nil {
						cp.reportParse(err, r, "security rule")
						continue
					}
					sec.Rules = append(sec.Rules, gr)
				}
				cp.convEntity(&gEntity{Members: []*gEntityMember{{Security: sec}}}, e)
				if end+1 < m.hi {
					cp.syntax(cp.errRange(end+1), "unexpected "+cp.describe(end+1)+" after the security block: expected a field (`Type Name;`), `security { … }` or `}`")
				}
				continue
			}
		}
		cp.reportParse(err, m, "entity")
	}
	if closeB+1 < s.hi {
		cp.syntax(cp.errRange(closeB+1), "unexpected "+cp.describe(closeB+1)+" after the end of entity `"+e.Name.Name+"`: expected a declaration (`enum`, `entity` or `workflow`)")
	}
	return true
}

// plexerPos is the participle position of token t.
func plexerPos(t lexer.Token, file string) plexer.Position {
	return plexer.Position{Filename: file, Offset: int(t.Off), Line: int(t.Line), Column: int(t.Col)}
}

// reportParse turns a participle error into a WF001 in the language's words.
func (cp *chunkParser) reportParse(err error, s span, what string) {
	off := -1
	msg := err.Error()
	if pe, ok := err.(interface {
		Position() plexer.Position
		Message() string
	}); ok {
		off = pe.Position().Offset
		msg = pe.Message()
	}
	i := s.hi
	if off >= 0 {
		if k := cp.indexAt(off); k < s.hi && int(cp.toks[k].Off) == off {
			i = k
		}
	}
	expect := ""
	if k := strings.LastIndex(msg, "(expected "); k >= 0 && strings.HasSuffix(msg, ")") {
		expect = msg[k+len("(expected ") : len(msg)-1]
	}
	var want, after string
	if ee, ok := err.(*expectError); ok {
		want, after = ee.want, ee.after
	} else {
		want, after = cp.expectation(i, s, expect, what)
	}
	if cp.reportUnclosed(i, s, want) {
		return
	}
	if strings.HasPrefix(want, "`;`") && i > s.lo {
		text := "expected " + want
		if cp.kind(i-1) != lexer.Punct {
			text += " after " + after
		}
		cp.missingSemicolon(i, text)
		return
	}
	text := "expected " + want
	if after != "" {
		text += " after " + after
	}
	cp.syntax(cp.errRange(i), text+", found "+cp.describe(i))
}

// errRange is the range of token i, or an empty range where the file ends.
func (cp *chunkParser) errRange(i int) diag.Range {
	if cp.toks[i].Kind == lexer.EOF {
		p := cp.startOf(i)
		return diag.Range{Start: p, End: p}
	}
	return cp.tokRange(i)
}
