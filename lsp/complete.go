package lsp

import (
	"context"
	"strings"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/check/vocab"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/lexer"
	"github.com/wfc-lang/wfc/lsp/protocol"
	"github.com/wfc-lang/wfc/parser"
)

// What the language offers in each place: the words that start a piece
// there, from the parser's grammar table (parser.StartWords), and the
// settings, from the vocabulary; completion adds only the two-word forms and
// the statements that start with a name (`terminal error`, `default`,
// `Workflow.Once`).
var (
	topKeywords   = parser.StartWords(parser.PlaceTop)
	workflowItems = append(append(vocab.Names(vocab.WorkflowSettings), parser.StartWords(parser.PlaceWorkflow)...), "terminal error")
	stateItems    = parser.StartWords(parser.PlaceState)
	statements    = append(parser.StartWords(parser.PlaceStatements), "default", "Workflow.Once")
	// The language's vocabulary (package vocab), shared with the checker.
	milestoneKinds   = vocab.MilestoneKinds()
	milestoneSetting = vocab.Names(vocab.MilestoneSettings)
	factories        = vocab.FactoryNames()
	policyMembers    = vocab.MemberNames()
	timeSpanMethods  = vocab.TimeSpanMembers()
	stepArgs         = func() []string {
		var out []string
		for _, a := range vocab.StepArgNames() {
			out = append(out, a+":")
		}
		return out
	}()
	testWords = func() []string {
		var out []string
		for _, t := range vocab.TestStatements {
			out = append(out, t.Qualified)
		}
		return out
	}()
)

// callBefore is the dotted name of the call whose `(` is the innermost
// one still open in s, or "".
func callBefore(s string) string {
	depth := 0
	for i := len(s) - 1; i >= 0; i-- {
		switch s[i] {
		case ')':
			depth++
		case '(':
			if depth == 0 {
				j := i
				for j > 0 && (isIdentByte(s[j-1]) || s[j-1] == '.') {
					j--
				}
				return s[j:i]
			}
			depth--
		case '{', '}', ';':
			if depth == 0 {
				return ""
			}
		}
	}
	return ""
}

// testAt is the test whose body holds off, or nil.
func testAt(f *ast.File, off int) *ast.Test {
	if f == nil {
		return nil
	}
	for _, d := range f.Decls {
		if t, ok := d.(*ast.Test); ok && int(t.Range.Start.Offset) < off && off < int(t.Range.End.Offset) {
			return t
		}
	}
	return nil
}

// catchAt is the catch whose braces hold off outside its cases' blocks,
// where a case's label goes; nil elsewhere.
func catchAt(f *ast.File, off int) *ast.Catch {
	var found *ast.Catch
	in := func(r diag.Range) bool { return int(r.Start.Offset) < off && off < int(r.End.Offset) }
	ast.Inspect(f, func(n ast.Node) bool {
		ct, ok := n.(*ast.Catch)
		if !ok {
			return found == nil
		}
		if !in(ct.Range) || int(ct.Keyword.End.Offset) >= off {
			return true
		}
		for _, cc := range ct.Cases {
			if cc.Body != nil && in(cc.Body.Range) {
				return true // inside a case: its statements
			}
		}
		found = ct
		return false
	})
	return found
}

// catchLabels are what a catch's case may name: the reasons, `default`,
// and the error kinds of the enums the step's policy names.
func catchLabels(ix *index, ct *ast.Catch) []string {
	out := []string{}
	for _, c := range check.Causes {
		out = append(out, c.String())
	}
	out = append(out, "default")
	if ix == nil || ix.prog == nil {
		return out
	}
	for _, w := range ix.prog.Workflows {
		for _, s := range w.Steps {
			if s.Decl.Catch != ct || s.Consumer == nil || s.Consumer.Policy == nil {
				continue
			}
			p := s.Consumer.Policy
			seen := map[*check.Enum]bool{}
			for _, k := range append(append([]*check.EnumMember{}, p.NonRetryable...), p.RetryOn...) {
				if seen[k.Enum] {
					continue
				}
				seen[k.Enum] = true
				for _, m := range k.Enum.Members {
					out = append(out, m.Ident.Name)
				}
			}
		}
	}
	return out
}

// stepEndsAt reports whether a durable step's block (without a catch)
// ends at offset end: `catch` may follow it.
func stepEndsAt(f *ast.File, end int) bool {
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		if cs, ok := n.(*ast.CallStmt); ok && cs.Body != nil && cs.Catch == nil && int(cs.Body.Range.End.Offset) == end {
			found = true
		}
		return !found
	})
	return found
}

// Completion offers what can stand at the cursor: keywords and settings of
// the enclosing block, states after `goto`, events after `subscribe`,
// slots after `on`, `Backoff.` factories and members, `TimeSpan.` methods,
// outcomes per milestone and enum members as case labels.
func (s *Server) Completion(ctx context.Context, p *protocol.CompletionParams) (protocol.CompletionResult, error) {
	sn, err := s.ck.snapshot(ctx)
	if err != nil || sn.res.prog == nil {
		return nil, err
	}
	name := nameOf(p.TextDocument.URI)
	t := sn.texts[name]
	if t == nil {
		return nil, nil
	}
	off, err := t.offset(p.Position, sn.enc)
	if err != nil {
		return nil, protocol.Errorf(protocol.CodeInvalidParams, "wfc lsp: %v", err)
	}
	var file *ast.File
	for _, f := range sn.res.prog.Files {
		if f.Name == name {
			file = f
		}
	}
	if inStringOrComment(name, t.src, off) {
		return nil, nil // as gopls: nothing to complete in prose
	}
	words, kind := completions(sn.index(), file, t.src, off)
	items := make(protocol.CompletionItemSlice, 0, len(words))
	for _, w := range words {
		items = append(items, protocol.CompletionItem{Label: w, Kind: kind})
	}
	return items, nil
}

// completions decides from the text before the cursor and the enclosing
// nodes what may come next.
func completions(ix *index, f *ast.File, src string, off int) ([]string, protocol.CompletionItemKind) {
	before := src[:off]
	word := len(before)
	for word > 0 && isIdentByte(before[word-1]) {
		word--
	}
	lead := strings.TrimRight(before[:word], " \t")
	switch {
	case strings.HasSuffix(before[:word], "Backoff."):
		return factories, protocol.CompletionItemKindMethod
	case strings.HasSuffix(before[:word], "TimeSpan."):
		return timeSpanMethods, protocol.CompletionItemKindMethod
	case strings.HasSuffix(before[:word], ")."):
		return policyMembers, protocol.CompletionItemKindMethod
	}
	prev := lastWord(lead)
	if callBefore(before[:word]) == "Workflow.Once" && (strings.HasSuffix(lead, ",") || strings.HasSuffix(lead, "(")) {
		return stepArgs, protocol.CompletionItemKindProperty
	}
	if testAt(f, off) != nil {
		return testWords, protocol.CompletionItemKindMethod
	}
	if ct := catchAt(f, off); ct != nil {
		return catchLabels(ix, ct), protocol.CompletionItemKindEnumMember
	}
	w, st, sub, ms, h := enclosing(f, off)
	if h != nil && strings.HasSuffix(lead, "}") && stepEndsAt(f, len(lead)) {
		return append([]string{vocab.CatchName}, statements...), protocol.CompletionItemKindKeyword
	}
	switch {
	case prev == "goto" && w != nil:
		return stateNames(w), protocol.CompletionItemKindEnumMember
	case prev == "subscribe" && w != nil:
		var out []string
		for _, e := range w.Events {
			out = append(out, e.Name.Name)
		}
		return out, protocol.CompletionItemKindEvent
	case prev == "on" && st != nil:
		var out []string
		for _, sb := range st.Subscribes {
			out = append(out, sb.Slot().Name)
		}
		return out, protocol.CompletionItemKindEvent
	case h != nil:
		return append(caseLabels(ix, w, st, h), statements...), protocol.CompletionItemKindKeyword
	case ms != nil && ms.Kind != nil:
		var outcomes []string
		if k, ok := vocab.MilestoneOf(ms.Kind.Name); ok {
			outcomes = k.Outcomes()
		}
		return append(append([]string{}, milestoneSetting...), outcomes...), protocol.CompletionItemKindProperty
	case sub != nil:
		return milestoneKinds, protocol.CompletionItemKindProperty
	case st != nil && st.Kind == ast.TerminalError:
		return vocab.Names(vocab.TerminalErrorSettings), protocol.CompletionItemKindProperty
	case st != nil && st.Kind == ast.Terminal:
		return nil, protocol.CompletionItemKindKeyword
	case st != nil:
		return stateItems, protocol.CompletionItemKindKeyword
	case w != nil:
		return workflowItems, protocol.CompletionItemKindKeyword
	}
	if insideAny(f, off) {
		return nil, protocol.CompletionItemKindKeyword
	}
	return topKeywords, protocol.CompletionItemKindKeyword
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

func lastWord(s string) string {
	i := len(s)
	for i > 0 && isIdentByte(s[i-1]) {
		i--
	}
	return s[i:]
}

// inside reports whether off lies strictly within r (after its first byte).
func inside(r struct{ lo, hi int32 }, off int) bool { return int(r.lo) < off && off < int(r.hi) }

// enclosing finds the workflow, state, subscription, milestone and handler
// body around off (the innermost ones; nil where there is none).
func enclosing(f *ast.File, off int) (w *ast.Workflow, st *ast.State, sub *ast.Subscribe, ms *ast.Milestone, h *ast.Handler) {
	in := func(lo, hi int32) bool { return int(lo) < off && off < int(hi) }
	if f == nil {
		return
	}
	for _, d := range f.Decls {
		if wf, ok := d.(*ast.Workflow); ok && in(wf.Range.Start.Offset, wf.Range.End.Offset) {
			w = wf
		}
	}
	if w == nil {
		return
	}
	for _, s := range w.States {
		if in(s.Range.Start.Offset, s.Range.End.Offset) {
			st = s
		}
	}
	if st == nil {
		return
	}
	for _, sb := range st.Subscribes {
		if in(sb.Range.Start.Offset, sb.Range.End.Offset) {
			sub = sb
			for _, m := range sb.Milestones {
				if in(m.Range.Start.Offset, m.Range.End.Offset) {
					ms = m
					for _, o := range m.Outcomes {
						if o.Body != nil && in(o.Body.Range.Start.Offset, o.Body.Range.End.Offset) {
							return w, st, sub, ms, &ast.Handler{Body: o.Body}
						}
					}
				}
			}
		}
	}
	for _, hd := range st.Handlers {
		if hd.Body != nil && in(hd.Body.Range.Start.Offset, hd.Body.Range.End.Offset) {
			h = hd
		}
	}
	return
}

func insideAny(f *ast.File, off int) bool {
	if f == nil {
		return false
	}
	for _, d := range f.Decls {
		var r struct{ lo, hi int32 }
		switch d := d.(type) {
		case *ast.Enum:
			r.lo, r.hi = d.Range.Start.Offset, d.Range.End.Offset
		case *ast.Entity:
			r.lo, r.hi = d.Range.Start.Offset, d.Range.End.Offset
		case *ast.Workflow:
			r.lo, r.hi = d.Range.Start.Offset, d.Range.End.Offset
		}
		if inside(r, off) {
			return true
		}
	}
	return false
}

func stateNames(w *ast.Workflow) []string {
	var out []string
	for _, s := range w.States {
		out = append(out, s.Name.Name)
	}
	return out
}

// caseLabels are the members of the handler's enum parameter (through its
// subscription's event when the handler lists no parameters).
func caseLabels(ix *index, w *ast.Workflow, st *ast.State, h *ast.Handler) []string {
	if h.Name == nil || w == nil {
		return nil
	}
	ps := h.Params
	if ps == nil {
		ev := h.Name.Name
		for _, sb := range st.Subscribes {
			if sb.Slot().Name == h.Name.Name {
				ev = sb.Event.Name
			}
		}
		for _, e := range w.Events {
			if e.Name.Name == ev {
				ps = e.Params
			}
		}
	}
	if ps == nil {
		return nil
	}
	e := enumParam(ix, ps)
	if e == nil {
		return nil
	}
	var out []string
	for _, m := range e.Members {
		out = append(out, m.Ident.Name)
	}
	return out
}

// enumParam is the model's enum of the first enum-typed parameter of ps.
func enumParam(ix *index, ps *ast.Params) *check.Enum {
	if ps == nil || ix.prog == nil {
		return nil
	}
	for _, p := range ps.List {
		if p.Type == nil || p.Type.Name == nil {
			continue
		}
		if e, ok := ix.prog.Info.Uses[p.Type.Name].(*check.Enum); ok {
			return e
		}
	}
	return nil
}

// inStringOrComment reports whether off lies inside a string literal or a
// comment of src (after its opening quote or `//`, up to its end; a line
// comment runs to the end of its line, where the cursor still is in it).
func inStringOrComment(name, src string, off int) bool {
	res := lexer.Lex(name, src)
	for _, c := range res.Comments {
		if int(c.Off) < off && off <= int(c.End) {
			return true
		}
	}
	for _, t := range res.Tokens {
		if t.Kind == lexer.String && int(t.Off) < off && (off < int(t.End) || src[t.End-1] != '"' || t.End-t.Off == 1) {
			return true
		}
	}
	return false
}
