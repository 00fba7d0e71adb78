// Package parser turns source files into the syntax tree of package ast.
//
// # How it parses
//
// The lexer (package lexer) turns a file into tokens. One pass over them
// (keywords.go) finds names that misspell a keyword (`evnet`, `State`),
// reports each once and reads it as the keyword from then on. The splitter
// (split.go) then cuts the tokens into pieces and participle parses each
// piece with the grammar of grammar.go: declarations, members and statements
// are participle productions; names, types, parameter and attribute lists
// and expressions are participle Parseable leaves read by hand (expr.go,
// leaves.go) whose value is the ast node itself, so they are not written
// twice. The remaining grammar structs are converted to ast in convert.go,
// which is where two shapes sharing a prefix are told apart (a setting and
// an outcome, a case and a call).
//
// # How it recovers
//
// There is one recovery mechanism: synchronise at `;`, at a `}` that closes
// what the piece opened, and at the keywords that start a declaration
// (`enum` `entity` `workflow`), a workflow member (`event` `state`
// `terminal`) or a state item (`subscribe` `on`), and where a new line
// starts `Name =` (a setting: no value continues that way) or a name follows
// a `)`; a missing `;` or `}` thus costs one diagnostic, not what follows.
// The file, a workflow's body and a state's body are always split there and
// each piece parsed alone; a smaller
// container (an entity, a handler, a subscription, a milestone, a security
// block) is parsed whole, and split the same way only when that fails
// (recover.go), since one participle call is cheaper and most code is right.
// A piece that fails is reported once, at the token where it stopped
// matching, in words chosen where the expectation is known (report.go,
// messages.go: a missing `;` right after the token that needs it, a missing
// `}` with its opening bracket, the `{` whose indentation shows it lost its
// `}` when one does); it leaves a node marked Bad that still declares its
// name, so the checker neither cascades nor complains about what it cannot
// see. A syntax error that follows from a lexical one (an
// unterminated string, a malformed number, dropped bytes) is not reported.
//
// Declarations parse in parallel. Participle's tokens live for one
// declaration at a time: its pieces are handed over from one window of its
// tokens (stream.go; a declaration of more than 2,048 tokens gets a window
// per stretch of them, and a piece larger than that a window of its own),
// and a piece that does not parse cleanly from it is parsed again from a
// stream of its own, so every error is the piece's own. One bracket
// tracker (brackets.go) serves the splitter, the nesting guard and the
// messages, and is linear on any input; the nesting guard runs before
// participle sees a piece, and recover() guards each declaration, so no
// input can crash the process.
package parser

import (
	"fmt"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/diag"
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
	// A file of few declarations is lexed and parsed in one job, and its
	// tokens are garbage as soon as the job ends: 100,000 small files never
	// hold all their tokens at once. A file of many declarations is lexed
	// in the first pass and its declarations are parsed in the second, in
	// parallel with every other's, so one huge file still uses every core.
	small := func(fp *fileParser) bool { return len(fp.chunks) <= smallFileChunks }
	parallel(len(files), workers, func(i int) {
		fp := newFileParser(files[i])
		fps[i] = fp
		fp.results = make([]chunkResult, len(fp.chunks))
		if small(fp) {
			for j := range fp.chunks {
				fp.results[j] = fp.parseTopChunk(fp.chunks[j])
			}
			fp.release()
		}
	})
	// Parse the chunks of the large files in parallel.
	type job struct{ fp, chunk int }
	var jobs []job
	for i, fp := range fps {
		if small(fp) {
			continue
		}
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

// smallFileChunks is the most top-level declarations a file may have to be
// parsed in the same job that lexes it.
const smallFileChunks = 16

// release drops what only parsing needed (the tokens and the maps over
// them), once every chunk is parsed.
func (fp *fileParser) release() {
	fp.toks, fp.kw, fp.names, fp.chunks, fp.inserted, fp.respelt = nil, nil, nil, nil, nil, nil
}

// newFileParser lexes a file, finds its misspelled keywords and splits it
// into top-level declarations.
func newFileParser(f Source) *fileParser {
	res := Lex(f.Name, f.Src)
	fp := &fileParser{
		respelt:      res.Respelt,
		file:         &ast.File{Name: f.Name, Src: f.Src, Ignores: res.Ignores},
		src:          f.Src,
		toks:         res.Tokens,
		unterminated: res.Unterminated,
		gaps:         res.Gaps,
	}
	fp.file.Range = diag.Range{Start: diag.Pos{Line: 1, Column: 1}, End: fp.endOfFile()}
	fp.diags.Items = res.Diags
	fp.repairBraces()
	fp.foreignForms()
	fp.reservedNames()
	fp.findMisspelledKeywords()
	fp.chunks = fp.splitTop()
	return fp
}

// ParseDecl parses again the one top-level declaration of file f that
// contains byte offset off, for a tool that re-parses only what an edit
// touched (the language server). The file is lexed whole (lexing is cheap)
// so positions are the file's; only that declaration is parsed. It returns
// nil when no declaration covers off (white space between declarations),
// the diagnostics of that declaration (lexical and syntax), and the
// declaration's File is a fresh *ast.File for f: a caller that keeps its own
// tree sets it.
func ParseDecl(f Source, off int) (ast.Decl, []diag.Diagnostic) {
	fp := newFileParser(f)
	for _, s := range fp.chunks {
		lo, hi := int(fp.toks[s.lo].Off), int(fp.toks[s.hi-1].End)
		if off < lo || off >= hi {
			continue
		}
		r := fp.parseTopChunk(s)
		var ds []diag.Diagnostic
		for _, d := range fp.diags.Items {
			if at := int(d.Range.Start.Offset); at >= lo && at < hi {
				ds = append(ds, d)
			}
		}
		return r.decl, append(ds, r.diags...)
	}
	return nil, nil
}

// MaxSyntaxErrors is how many WF001 one file reports. A file with more is
// hardly source (a binary or a file in another language): reporting
// millions of errors helps nobody, so the rest are counted in one last
// diagnostic and the file's meaning is not checked.
const MaxSyntaxErrors = 1000

func capSyntaxErrors(f *ast.File, ds []diag.Diagnostic) []diag.Diagnostic {
	n := 0
	for _, d := range ds {
		if d.Code == diag.WF001 {
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
		if d.Code == diag.WF001 {
			kept++
			if kept > MaxSyntaxErrors {
				if next == nil {
					next = &ds[i]
					out = append(out, diag.New(f.Name, d.Range, diag.WF001,
						fmt.Sprintf("too many syntax errors: %d more in this file are not reported, and its meaning is not checked; is it workflow source?", n-MaxSyntaxErrors)))
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
