package parser

import (
	"strings"

	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/internal/suggest"
	"github.com/wfc-lang/wfc/lexer"
)

// Misspelled and capitalised keywords (`evnet`, `Sate`, C#'s `State`, `On`,
// `Goto`) are found before any parsing, in one pass over a file's tokens that
// follows the nesting of declarations, members and statements (context). A
// name that stands where a keyword may start something, is followed by the
// shape that keyword needs (`Name(`, `Name {`, `Name;`…) and is close to the
// keyword ignoring case, is reported once ("unknown keyword `evnet`; did you
// mean `event`?", with a fix) and from then on read as that keyword
// (fileParser.kw): the splitter, the shells and participle all see `event`,
// so the name is declared and nothing downstream cascades.

// context is what a `{ … }` holds, for choosing the keywords that may start
// a piece inside it.
type context uint8

const (
	ctxTop context = iota
	ctxWorkflow
	ctxState
	ctxEntity
	ctxSecurity
	ctxSubscribe // milestones
	ctxMilestone // a milestone's settings and outcomes
	ctxStmts
	ctxTest  // a test's settings and calls
	ctxOther // enum members, a misplaced block…
	ctxCount
)

// The keywords that may start a piece in each context, with the shape of
// the tokens that must follow them, are the items of the context's row of
// the grammar table (productions.go). The shapes, for its fits column:

func shapeNameBrace(fp *fileParser, i int) bool { return fp.isIdent(i) && fp.isPunct(i+1, "{") }
func shapeNameParen(fp *fileParser, i int) bool { return fp.isIdent(i) && fp.isPunct(i+1, "(") }
func shapeNameSemi(fp *fileParser, i int) bool  { return fp.isIdent(i) && fp.isPunct(i+1, ";") }
func shapeBrace(fp *fileParser, i int) bool     { return fp.isPunct(i, "{") }
func shapeHandler(fp *fileParser, i int) bool   { return shapeNameBrace(fp, i) || shapeNameParen(fp, i) }
func shapeTerminal(fp *fileParser, i int) bool {
	return shapeNameBrace(fp, i) || fp.isIdent(i) && fp.text(i) == "error" && shapeNameBrace(fp, i+1)
}
func shapeOps(fp *fileParser, i int) bool {
	return fp.isIdent(i) && (fp.isPunct(i+1, ",") || fp.isPunct(i+1, ";") || fp.is(i+1, "when"))
}

// isIdent reports whether token i is a name.
func (fp *fileParser) isIdent(i int) bool { return i < len(fp.toks) && fp.toks[i].Kind == lexer.Ident }

// isPunct reports whether token i is the punctuation s.
func (fp *fileParser) isPunct(i int, s string) bool {
	return i < len(fp.toks) && fp.toks[i].Kind == lexer.Punct && fp.text(i) == s
}

// findMisspelledKeywords walks the file once, tracking what each `{` opens,
// and records in fp.kw every name that stands for a keyword.
func (fp *fileParser) findMisspelledKeywords() {
	stack := []context{ctxTop}
	lead := -1 // first token of the piece in progress at this level
	for i := 0; i < len(fp.toks)-1; i++ {
		ctx := stack[len(stack)-1]
		if lead < 0 {
			lead = i
			if fp.isIdent(i) && ctx != ctxOther {
				fp.guessKeyword(i, ctx)
			}
		}
		if fp.toks[i].Kind != lexer.Punct {
			continue
		}
		switch fp.text(i) {
		case "{":
			stack = append(stack, inner(ctx, fp.leadWord(lead)))
			lead = -1
		case "}":
			if len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
			lead = -1
		case ";":
			lead = -1
		case "[":
			if ctx == ctxTop || ctx == ctxEntity {
				lead = -1 // attributes come before the keyword or type
			}
		}
	}
}

// leadWord is the keyword (or the name) that starts the piece at lead.
func (fp *fileParser) leadWord(lead int) string {
	if lead < 0 {
		return ""
	}
	if k := fp.keywordAt(lead); k != "" {
		return k
	}
	return fp.text(lead)
}

// inner is the context of a `{` opened in ctx by a piece starting with
// word: the grammar table's inner column for the item word starts, or the
// container's innerOther (a milestone's body, an outcome's, a case's).
func inner(ctx context, word string) context { return grammar[ctx].innerOf(word) }

// foreignKeyword is another language's word for a keyword, where the
// keyword's shape follows it: read as the keyword and reported, with the
// fix that writes it.
type foreignKeyword struct {
	keyword string
	fits    func(fp *fileParser, i int) bool
	msg     string
}

// foreignKeywords are, per context, the other languages' words for its
// keywords: `else { … }` where a handler's `default { … }` belongs (an
// `else` that ends an `if` chain is that chain's: foreign.go).
var foreignKeywords = [ctxCount]map[string]foreignKeyword{
	ctxStmts: {"else": {"default", shapeBrace,
		"`else` is not a case: the block for what no case takes (a handler's members, a catch's reasons and kinds) is `default { … }`"}},
}

// guessKeyword records token i as the keyword it misspells, if one of those
// allowed in ctx is close and its shape follows.
func (fp *fileParser) guessKeyword(i int, ctx context) {
	word := fp.text(i)
	if f, ok := foreignKeywords[ctx][word]; ok && f.fits(fp, i+1) {
		if fp.kw == nil {
			fp.kw = map[int]string{}
		}
		fp.kw[i] = f.keyword
		r := fp.tokRange(i)
		d := fp.diags.Add(fp.file.Name, r, diag.WF001, f.msg)
		d.Fixes = []diag.Fix{{Title: "write `" + f.keyword + "`", MachineApplicable: true,
			Edits: []diag.Edit{{File: fp.file.Name, Range: r, NewText: f.keyword}}}}
		return
	}
	best, bestDist := "", 3
	for _, k := range grammar[ctx].items {
		if k.contextual || !k.fits(fp, i+1) {
			continue
		}
		if d := keywordDistance(word, k.word); d < bestDist {
			best, bestDist = k.word, d
		}
	}
	if best == "" {
		return
	}
	if fp.kw == nil {
		fp.kw = map[int]string{}
	}
	fp.kw[i] = best
	r := fp.tokRange(i)
	msg := "unknown keyword `" + word + "`; did you mean `" + best + "`?"
	caseOnly := strings.EqualFold(word, best)
	if caseOnly {
		msg = "unknown keyword `" + word + "`: keywords are lower case; did you mean `" + best + "`?"
	}
	d := fp.diags.Add(fp.file.Name, r, diag.WF001, msg)
	d.Fixes = []diag.Fix{{Title: "replace `" + word + "` with `" + best + "`", MachineApplicable: caseOnly,
		Edits: []diag.Edit{{File: fp.file.Name, Range: r, NewText: best}}}}
}

// keywordDistance is the edit distance (suggest.Distance, as the checker
// uses for every "did you mean") between a word
// and a keyword, ignoring case, or 3 (too far) when the word is not close
// enough to be that keyword misspelled: one edit for keywords of up to four
// letters, two for longer ones.
func keywordDistance(word, kw string) int {
	limit := 2
	if len(kw) <= 4 {
		limit = 1
	}
	if d := len(word) - len(kw); d > limit || -d > limit || len(word) > maxWord {
		return 3
	}
	w := strings.ToLower(word)
	if w == kw {
		return 0
	}
	if d := suggest.Distance(w, kw, limit); d <= limit {
		return d
	}
	return 3
}

// maxWord bounds the words compared: the longest keyword and two more.
const maxWord = len("subscribe") + 2
