package parser

import (
	"fmt"
	"strings"

	"github.com/alecthomas/participle/v2"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/lexer"
)

// Declarations, members and items: each piece the splitter cut is parsed
// here, by participle for its contents and by hand for the shells of
// workflows and states.

// chunkParser parses one top-level chunk and collects its diagnostics.
type chunkParser struct {
	*fileParser
	start int // byte offset where the chunk starts
	diags diag.List
	// scratch is the bracket tracker of checkNesting and splitBody, reset
	// and used again by each (neither holds it across a call of the other).
	scratch brackets
	chunk   span   // the chunk's tokens
	win     window // the fast hand-over of its pieces to participle (stream.go)
	// blamed is 1 + the index of the token that a reported syntax error
	// found after its piece (`found x`), 0 if none: the piece that starts
	// there has had its error (strayed).
	blamed int
	// badBlocks counts the blocks convBlock marked Bad: an item whose
	// conversion raised it holds one (addItemTo).
	badBlocks int
}

// brackets returns the chunk's scratch tracker, empty.
func (cp *chunkParser) brackets() *brackets {
	cp.scratch.reset()
	return &cp.scratch
}

type chunkResult struct {
	decl  ast.Decl
	diags []diag.Diagnostic
}

// parseTopChunk parses one top-level chunk. A panic inside participle (a bug,
// never expected) is reported as a diagnostic rather than crashing wfc.
func (fp *fileParser) parseTopChunk(s span) (res chunkResult) {
	cp := &chunkParser{fileParser: fp, start: int(fp.toks[s.lo].Off), chunk: s}
	defer func() {
		if r := recover(); r != nil {
			cp.syntax(fp.tokRange(s.lo), fmt.Sprintf("wfc could not parse this declaration (internal error: %v); please report it", r))
			res = chunkResult{diags: cp.diags.Items}
		}
	}()
	var d ast.Decl
	p := fp.prodAt(ctxTop, s.lo)
	if fp.is(s.lo, "[") {
		p = prodEntity // attribute lists come before `entity`
	}
	switch p {
	case prodEnum:
		d = cp.parseEnum(s)
	case prodEntity:
		d = cp.parseEntity(s)
	case prodWorkflow:
		d = cp.parseWorkflow(s)
	case prodTest:
		d = cp.parseTest(s)
	default:
		cp.syntax(fp.tokRange(s.lo), "unexpected "+fp.describe(s.lo)+": expected "+prodDecl.want())
	}
	return chunkResult{decl: d, diags: cp.diags.Items}
}

// checkNesting reports and returns false when tokens [lo, hi) nest deeper
// than MaxNesting (brackets, and prefix operators, which also recurse).
func (cp *chunkParser) checkNesting(s span) bool {
	open := cp.brackets()
	unary := 0
	for i := s.lo; i < s.hi; i++ {
		t := cp.toks[i]
		switch {
		case t.Kind != lexer.Punct:
			unary = 0
		case cp.track(open, i) != 0:
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

// ident returns token i as an identifier if it is one.
func (cp *chunkParser) ident(i int) *ast.Ident {
	if i < len(cp.toks) && cp.kind(i) == lexer.Ident {
		return &ast.Ident{Range: cp.tokRange(i), Name: cp.word(i)}
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
	g, err := parsePiece(cp, getParsers().enum.get(), s)
	if err != nil {
		cp.reportParse(err, s, prodEnum)
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
		e.Members = g.Members.List
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
	g, err := parsePiece(cp, getParsers().entity.get(), s)
	if err != nil {
		e.Bad = true
		// Recover member by member; if the shape is too broken to split,
		// report participle's one error.
		if cp.salvageEntity(s, e) {
			return cp.declOrNil(e, e.Name)
		}
		cp.reportParse(err, s, prodEntity)
	}
	if g != nil {
		cp.convEntity(g, e)
	}
	return cp.declOrNil(e, e.Name)
}

// body splits the `{ … }` opened at token open into members and parses each
// with parse; it reports a missing `{` after head (the keyword and name
// before it) or a missing `}` (returning -1 for either) and anything between
// the `}` and hi (the rest of the chunk). what names the container ("state
// `S`"); after completes the message about what follows it.
func (cp *chunkParser) body(open, hi int, head string, starts func(string) bool, what, after string, parse func(span)) int {
	if open >= hi || !cp.is(open, "{") {
		at := min(open, hi)
		msg := "expected `{` after `" + head + "`, found " + cp.describe(at)
		if at < hi && cp.isPunct(at, ":") {
			msg += ": a body is written in braces, not with Python's `:` and indentation"
		}
		cp.syntax(cp.errRange(at), msg)
		return -1
	}
	members, closeAt := cp.splitBody(open+1, hi, starts)
	for _, m := range members {
		parse(m)
	}
	if closeAt >= hi {
		cp.unclosedBrace(open, hi, openBracket{c: '{', tok: open}, what)
		return -1
	}
	if closeAt+1 < hi {
		cp.syntax(cp.errRange(closeAt+1), "unexpected "+cp.describe(closeAt+1)+" "+after)
	}
	return closeAt
}

// parseWorkflow parses `workflow Name { members }` by hand and each member
// with participle.
func (cp *chunkParser) parseWorkflow(s span) ast.Decl {
	w := &ast.Workflow{File: cp.file, Range: cp.spanRange(s.lo, s.hi)}
	w.Name = cp.ident(s.lo + 1)
	if w.Name == nil {
		cp.syntax(cp.errRange(s.lo+1), "expected the workflow's name after `workflow`, found "+cp.describe(s.lo+1))
		return nil
	}
	closeAt := cp.body(s.lo+2, s.hi, "workflow "+w.Name.Name, workflowMemberStart, "workflow `"+w.Name.Name+"`",
		"after the end of workflow `"+w.Name.Name+"`: expected "+prodDecl.want(),
		func(m span) { cp.parseWorkflowMember(w, m) })
	if closeAt < 0 {
		w.Bad = true
	} else {
		w.Range = cp.spanRange(s.lo, closeAt+1)
	}
	return w
}

func (cp *chunkParser) parseWorkflowMember(w *ast.Workflow, m span) {
	p := cp.prodAt(ctxWorkflow, m.lo)
	if p == prodState {
		if st := cp.parseState(m); st != nil {
			w.States = append(w.States, st)
			if st.Bad {
				w.Bad = true
			}
		} else {
			w.Bad = true
		}
		return
	}
	if !cp.checkNesting(m) {
		w.Bad = true
		cp.salvageMember(w, m)
		return
	}
	g, err := parsePiece(cp, getParsers().member.get(), m)
	if err != nil && cp.strayed(m, ctxWorkflow) {
		w.Bad = true
		return
	}
	if err != nil {
		cp.reportParse(err, m, p)
		w.Bad = true
		cp.salvageMember(w, m)
		return
	}
	(*g).addTo(cp, w, cp.spanRange(m.lo, m.hi))
}

// parseState parses `state|terminal [error] Name { items }` by hand and each
// item with participle.
func (cp *chunkParser) parseState(m span) *ast.State {
	st := &ast.State{Range: cp.spanRange(m.lo, m.hi)}
	i := m.lo + 1
	kw := "state"
	if cp.is(m.lo, "terminal") {
		kw = "terminal"
		st.Kind = ast.Terminal
		if i < m.hi && cp.kind(i) == lexer.Ident && cp.text(i) == "error" && i+1 < m.hi && cp.kind(i+1) == lexer.Ident {
			st.Kind = ast.TerminalError
			kw = "terminal error"
			i++
		}
	}
	st.Name = cp.ident(i)
	if i >= m.hi || st.Name == nil {
		cp.syntax(cp.errRange(min(i, m.hi)), "expected a state name after `"+kw+"`, found "+cp.describe(min(i, m.hi)))
		return nil
	}
	closeAt := cp.body(i+1, m.hi, kw+" "+st.Name.Name, stateItemStart, "state `"+st.Name.Name+"`",
		"after state `"+st.Name.Name+"`: expected "+prodMember.want(),
		func(it span) { cp.parseStateItem(st, it) })
	if closeAt < 0 {
		st.Bad = true
	} else {
		st.Range = cp.spanRange(m.lo, closeAt+1)
	}
	return st
}

func (cp *chunkParser) parseStateItem(st *ast.State, it span) {
	if cp.misplacedMilestone(st, it) {
		st.Bad = true
		return
	}
	if cp.checkNesting(it) {
		g, err := parsePiece(cp, getParsers().stateItem.get(), it)
		if err == nil {
			(*g).addItemTo(cp, st, cp.spanRange(it.lo, it.hi))
			return
		}
		if cp.strayed(it, ctxState) {
			st.Bad = true
			return
		}
		if cp.salvageStateItem(st, it) {
			return
		}
		cp.reportParse(err, it, cp.prodAt(ctxState, it.lo))
	}
	st.Bad = true
	cp.declareStateItem(st, it)
}

// misplacedMilestone reports a milestone written directly in a state
// (`Finished { … }` without its `subscribe`) as one error, rather than as a
// setting without `=` and an unknown setting.
func (cp *chunkParser) misplacedMilestone(st *ast.State, it span) bool {
	if cp.kind(it.lo) != lexer.Ident || it.lo+1 >= it.hi || !cp.isPunct(it.lo+1, "{") {
		return false
	}
	name := cp.text(it.lo)
	for _, kind := range [...]string{"Assigned", "Finished"} {
		if keywordDistance(name, strings.ToLower(kind)) < 3 {
			cp.syntax(cp.tokRange(it.lo), "milestone `"+name+"` cannot stand directly in state `"+st.Name.Name+
				"`: a milestone hangs off a subscription, as in `subscribe Event(…) { "+kind+" { … } }` in this state")
			return true
		}
	}
	return false
}

// parseParams parses the parameter list that is exactly span ps.
func (cp *chunkParser) parseParams(ps span) (*ast.Params, error) {
	var g params
	lex := cp.stream(ps)
	if err := g.Parse(lex); err != nil {
		return nil, err
	}
	if t := lex.Peek(); !t.EOF() {
		return nil, &participle.UnexpectedTokenError{Unexpected: *t}
	}
	return cp.convParams(&g), nil
}
