package parser

import (
	"strings"

	"github.com/alecthomas/participle/v2"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/lexer"
)

// Chunk boundaries. A chunk ends after a `;` or a `}` that brings the
// bracket depth (counted from the chunk's start) back to zero, and a new one
// starts before a word that can only begin a chunk of that level (the
// reserved words `enum entity workflow` at the top, `event state terminal`
// in a workflow, `subscribe on` in a state), whatever the depth: a missing
// `}` then costs one diagnostic, not the rest of the file.

// splitTop splits the whole file into top-level declarations.
func (fp *fileParser) splitTop() []span {
	var out []span
	n := len(fp.toks) - 1 // the last token is EOF
	lo := 0
	var open brackets
	attrsOnly := false // the chunk so far is attribute lists (`[A] [B]`)
	for i := 0; i < n; i++ {
		if fp.kind(i) == lexer.Keyword {
			switch fp.word(i) {
			case "enum", "workflow":
				if i > lo {
					out = append(out, span{lo, i})
				}
				lo, attrsOnly = i, false
				open.reset()
			case "entity":
				if i > lo && !attrsOnly {
					out = append(out, span{lo, i})
					lo = i
					open.reset()
				}
				attrsOnly = false
			}
			continue
		}
		if fp.toks[i].Kind != lexer.Punct {
			continue
		}
		c := fp.bracketAt(i)
		switch {
		case c == '[':
			if open.depth() == 0 && i == lo {
				attrsOnly = true
			}
			open.push(c, i)
		case c == '(' || c == '{':
			open.push(c, i)
		case c == ')' || c == ']':
			open.close(c)
		case c == '}':
			if ok, _ := open.close(c); !ok {
				// A `}` that closes nothing ends the declaration in progress
				// (`enum E A, B }` lacks its `{`: one error, not two); alone,
				// it is a chunk of its own, reported as unexpected.
				out = append(out, span{lo, i + 1})
				lo, attrsOnly = i+1, false
				open.reset()
				continue
			}
			if open.depth() == 0 && !attrsOnly {
				out = append(out, span{lo, i + 1})
				lo = i + 1
			}
		case fp.isPunct(i, ";"):
			if open.depth() == 0 && !attrsOnly {
				out = append(out, span{lo, i + 1})
				lo = i + 1
			}
		}
	}
	if lo < n {
		out = append(out, span{lo, n})
	}
	return out
}

// splitBody splits tokens [lo, hi) of a body into members. starts says which
// reserved words always begin a member. A member ends after a `;` or a `}`
// that closes all it opened; a `}` that closes nothing it opened closes the
// body. After a `)` that closes everything, a name or a reserved word (but
// `as`) starts the next member: only `;`, `{` or `as` may follow a call or a
// parameter list, so the `;` is missing. It returns the members and the index of the `}` that
// closes the body (hi if there is none).
func (fp *fileParser) splitBody(lo, hi int, starts func(string) bool) ([]span, int) {
	var out []span
	start := lo
	var open brackets
	for i := lo; i < hi; i++ {
		if k := fp.kind(i); i > start && (k == lexer.Keyword && starts != nil && starts(fp.word(i)) ||
			open.depth() == 0 && (k == lexer.Ident || k == lexer.Keyword && fp.word(i) != "as") && fp.is(i-1, ")")) {
			out = append(out, span{start, i})
			start = i
			open.reset()
		}
		if fp.toks[i].Kind != lexer.Punct {
			continue
		}
		switch c := fp.bracketAt(i); {
		case isOpener(c):
			open.push(c, i)
		case c == ')' || c == ']':
			open.close(c)
		case c == '}':
			if ok, _ := open.close(c); !ok {
				// No `{` open in this member: the `}` closes the body.
				if i > start {
					out = append(out, span{start, i})
				}
				return out, i
			}
			if open.depth() == 0 {
				out = append(out, span{start, i + 1})
				start = i + 1
			}
		case fp.isPunct(i, ";"):
			if open.depth() == 0 {
				out = append(out, span{start, i + 1})
				start = i + 1
			}
		}
	}
	if start < hi {
		out = append(out, span{start, hi})
	}
	return out, hi
}

// body splits the `{ … }` opened at token open into members and parses each
// with parse; it reports a missing `}` (returning -1) and anything between
// the `}` and hi (the rest of the chunk). what names the container ("state
// `S`"); after completes the message about what follows it.
func (cp *chunkParser) body(open, hi int, starts func(string) bool, what, after string, parse func(span)) int {
	members, closeAt := cp.splitBody(open+1, hi, starts)
	for _, m := range members {
		parse(m)
	}
	if closeAt >= hi {
		cp.unclosed(openBracket{'{', open}, "expected `}` to close "+what+", found "+cp.describe(hi), cp.errRange(hi), what)
		return -1
	}
	if closeAt+1 < hi {
		cp.syntax(cp.errRange(closeAt+1), "unexpected "+cp.describe(closeAt+1)+" "+after)
	}
	return closeAt
}

func workflowMemberStart(s string) bool { return s == "event" || s == "state" || s == "terminal" }
func stateItemStart(s string) bool      { return s == "subscribe" || s == "on" }

// parseWorkflow parses `workflow Name { members }` by hand and each member
// with participle.
func (cp *chunkParser) parseWorkflow(s span) ast.Decl {
	w := &ast.Workflow{File: cp.file, Range: cp.spanRange(s.lo, s.hi)}
	w.Name = cp.ident(s.lo + 1)
	if w.Name == nil {
		cp.syntax(cp.errRange(s.lo+1), "expected the workflow's name after `workflow`, found "+cp.describe(s.lo+1))
		return nil
	}
	open := s.lo + 2
	if open >= s.hi || !cp.is(open, "{") {
		cp.syntax(cp.errRange(min(open, s.hi)), "expected `{` after `workflow "+w.Name.Name+"`, found "+cp.describe(min(open, s.hi)))
		w.Bad = true
		return w
	}
	closeAt := cp.body(open, s.hi, workflowMemberStart, "workflow `"+w.Name.Name+"`",
		"after the end of workflow `"+w.Name.Name+"`: expected a declaration (`enum`, `entity` or `workflow`)",
		func(m span) { cp.parseWorkflowMember(w, m) })
	if closeAt < 0 {
		w.Bad = true
	} else {
		w.Range = cp.spanRange(s.lo, closeAt+1)
	}
	return w
}

func (cp *chunkParser) parseWorkflowMember(w *ast.Workflow, m span) {
	if cp.is(m.lo, "state") || cp.is(m.lo, "terminal") {
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
	g, err := getParsers().member.ParseFromLexer(cp.stream(m))
	if err != nil {
		what := "workflow member"
		if cp.is(m.lo, "event") {
			what = "event"
		} else if cp.kind(m.lo) == lexer.Ident {
			what = "setting"
		}
		cp.reportParse(err, m, what)
		w.Bad = true
		cp.salvageMember(w, m)
		return
	}
	switch {
	case g.Event != nil:
		w.Events = append(w.Events, cp.convEvent(g.Event))
	case g.Setting != nil:
		w.Settings = append(w.Settings, cp.convSetting(g.Setting))
	}
}

// salvageMember still declares an event whose declaration failed to parse,
// so uses of it do not cascade.
func (cp *chunkParser) salvageMember(w *ast.Workflow, m span) {
	if cp.is(m.lo, "event") {
		if id := cp.ident(m.lo + 1); id != nil {
			w.Events = append(w.Events, &ast.Event{Range: cp.spanRange(m.lo, m.hi), Name: id, Bad: true})
		}
	} else if id := cp.ident(m.lo); id != nil {
		// `Initial A;`: still a setting named Initial, so no WF108 follows.
		w.Settings = append(w.Settings, &ast.Setting{Range: cp.spanRange(m.lo, m.hi), Name: id})
	}
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
	open := i + 1
	if open >= m.hi || !cp.is(open, "{") {
		cp.syntax(cp.errRange(min(open, m.hi)), "expected `{` after `"+kw+" "+st.Name.Name+"`, found "+cp.describe(min(open, m.hi)))
		st.Bad = true
		return st
	}
	closeAt := cp.body(open, m.hi, stateItemStart, "state `"+st.Name.Name+"`",
		"after state `"+st.Name.Name+"`: expected a workflow member (`Name = value;`, `event`, `state` or `terminal`)",
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
	ok := cp.checkNesting(it)
	if ok {
		g, err := getParsers().stateItem.ParseFromLexer(cp.stream(it))
		if err == nil {
			switch {
			case g.Subscribe != nil:
				st.Subscribes = append(st.Subscribes, cp.convSubscribe(g.Subscribe))
			case g.Handler != nil:
				st.Handlers = append(st.Handlers, cp.convHandler(g.Handler))
			case g.Setting != nil:
				st.Settings = append(st.Settings, cp.convSetting(g.Setting))
			}
			return
		}
		// A handler whose body failed: recover statement by statement, so
		// every broken statement is reported and the others still count.
		if cp.is(it.lo, "on") {
			if h := cp.salvageHandler(it); h != nil {
				st.Bad = true
				st.Handlers = append(st.Handlers, h)
				return
			}
		}
		if cp.is(it.lo, "subscribe") {
			if sub := cp.salvageSubscribe(it); sub != nil {
				st.Bad = true
				st.Subscribes = append(st.Subscribes, sub)
				return
			}
		}
		what := "state item"
		switch {
		case cp.is(it.lo, "subscribe"):
			what = "subscription"
		case cp.is(it.lo, "on"):
			what = "handler"
		case cp.kind(it.lo) == lexer.Ident:
			what = "setting"
		}
		cp.reportParse(err, it, what)
	}
	st.Bad = true
	// Salvage: the item still declares what it names.
	switch {
	case cp.is(it.lo, "subscribe"):
		if ev := cp.ident(it.lo + 1); ev != nil {
			sub := &ast.Subscribe{Range: cp.spanRange(it.lo, it.hi), Event: ev, Bad: true}
			var open brackets
			for k := it.lo; k < it.hi-1; k++ {
				if open.depth() == 0 && cp.is(k, "as") {
					sub.Alias = cp.ident(k + 1)
					break
				}
				cp.track(&open, k)
			}
			st.Subscribes = append(st.Subscribes, sub)
		}
	case cp.is(it.lo, "on"):
		if name := cp.ident(it.lo + 1); name != nil {
			st.Handlers = append(st.Handlers, &ast.Handler{Range: cp.spanRange(it.lo, it.hi), Name: name, Bad: true})
		}
	default:
		if id := cp.ident(it.lo); id != nil {
			st.Settings = append(st.Settings, &ast.Setting{Range: cp.spanRange(it.lo, it.hi), Name: id})
		}
	}
}

// salvageHandler re-parses `on Name[(params)] { statements }` piece by
// piece after the whole failed: the header, then each statement of the
// body on its own. It returns nil when the shape is too broken to split
// (then the caller reports the original error).
func (cp *chunkParser) salvageHandler(it span) *ast.Handler {
	name := cp.ident(it.lo + 1)
	if name == nil {
		return nil
	}
	h := &ast.Handler{Range: cp.spanRange(it.lo, it.hi), Name: name, Bad: true}
	open := it.lo + 2
	if open < it.hi && cp.is(open, "(") {
		closeP := cp.matching(open, it.hi)
		if closeP < 0 {
			return nil
		}
		ps := span{open, closeP + 1}
		if g, err := cp.parseParams(ps); err != nil {
			cp.reportParse(err, ps, "handler")
		} else {
			h.Params = g
		}
		open = closeP + 1
	}
	if open >= it.hi || !cp.is(open, "{") {
		return nil
	}
	closeB := cp.matching(open, it.hi)
	if closeB < 0 {
		return nil
	}
	body := &ast.Block{Range: cp.spanRange(open, closeB+1), Bad: true}
	h.Body = body
	for _, s := range cp.splitStatements(open+1, closeB) {
		if !cp.checkNesting(s) {
			continue
		}
		g, err := getParsers().stmt.ParseFromLexer(cp.stream(s))
		if err != nil {
			cp.reportParse(err, s, "statement")
			continue
		}
		if st := cp.convStmt(g); st != nil {
			body.Stmts = append(body.Stmts, st)
		}
	}
	if closeB+1 < it.hi {
		cp.syntax(cp.errRange(closeB+1), "unexpected "+cp.describe(closeB+1)+" after the body of `on "+name.Name+"`: expected a state item (`subscribe …`, `on …`) or `}`")
	}
	return h
}

// splitStatements splits a block body [lo, hi), whose brackets balance,
// into statements (see splitBody).
func (cp *chunkParser) splitStatements(lo, hi int) []span { return cp.splitMembers(lo, hi, nil) }

// splitMembers is splitStatements where the reserved words starts says
// always begin a new piece (`security` in an entity).
func (cp *chunkParser) splitMembers(lo, hi int, starts func(string) bool) []span {
	out, _ := cp.splitBody(lo, hi, starts)
	return out
}

// salvageSubscribe re-parses `subscribe E(params) [as A] { milestones }`
// piece by piece: the parameters, then each milestone, and a broken
// milestone's settings and outcomes one by one. It returns nil when the
// shape is too broken to split.
func (cp *chunkParser) salvageSubscribe(it span) *ast.Subscribe {
	ev := cp.ident(it.lo + 1)
	if ev == nil || it.lo+2 >= it.hi || !cp.is(it.lo+2, "(") {
		return nil
	}
	closeP := cp.matching(it.lo+2, it.hi)
	if closeP < 0 {
		return nil
	}
	p := getParsers()
	sub := &ast.Subscribe{Range: cp.spanRange(it.lo, it.hi), Event: ev, Bad: true}
	ps := span{it.lo + 2, closeP + 1}
	if g, err := cp.parseParams(ps); err != nil {
		cp.reportParse(err, ps, "subscription")
	} else {
		sub.Params = g
	}
	open := closeP + 1
	if open+1 < it.hi && cp.is(open, "as") {
		sub.Alias = cp.ident(open + 1)
		if sub.Alias == nil {
			return nil
		}
		open += 2
	}
	if open >= it.hi || !cp.is(open, "{") {
		return nil
	}
	closeB := cp.matching(open, it.hi)
	if closeB < 0 {
		return nil
	}
	for _, m := range cp.splitMembers(open+1, closeB, nil) {
		if !cp.checkNesting(m) {
			continue
		}
		g, err := p.milestone.ParseFromLexer(cp.stream(m))
		if err == nil {
			sub.Milestones = append(sub.Milestones, cp.convMilestone(g))
			continue
		}
		kind := cp.ident(m.lo)
		var end int
		if kind != nil && m.lo+1 < m.hi && cp.is(m.lo+1, "{") {
			end = cp.matching(m.lo+1, m.hi)
		}
		if kind == nil || end <= 0 {
			cp.reportParse(err, m, "milestone")
			continue
		}
		ms := &ast.Milestone{Range: cp.spanRange(m.lo, end+1), Kind: kind, Bad: true}
		for _, item := range cp.splitMembers(m.lo+2, end, nil) {
			gi, err := p.mitem.ParseFromLexer(cp.stream(item))
			if err != nil {
				cp.reportParse(err, item, "milestone item")
				continue
			}
			cp.addMItem(ms, gi)
		}
		sub.Milestones = append(sub.Milestones, ms)
		if end+1 < m.hi {
			cp.syntax(cp.errRange(end+1), "unexpected "+cp.describe(end+1)+" after milestone `"+kind.Name+"`: expected another milestone or `}`")
		}
	}
	if closeB+1 < it.hi {
		cp.syntax(cp.errRange(closeB+1), "unexpected "+cp.describe(closeB+1)+" after the subscription: expected a state item (`subscribe …`, `on …`) or `}`")
	}
	return sub
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
	return (*ast.Params)(&g), nil
}
