package parser

import (
	plexer "github.com/alecthomas/participle/v2/lexer"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/lexer"
)

// The second tier of recovery: a container that failed to parse whole (an
// entity, a handler, a subscription, a milestone) is split into its pieces
// and each is parsed on its own, so every independent mistake is reported
// and what parsed still counts. A piece that fails leaves what it names.
//
// A piece the splitter cut (splitBody: a member, an item, a milestone)
// ends at the `}` that closes the first `{` it opens: splitBody tracks the
// same brackets as matching and ends the piece where they all close. So
// when matching finds that `}` inside the piece, nothing follows it there
// (what does is the next piece, reported on its own). Only an entity can
// go on past its `}` (an attribute list before it left open), and
// salvageEntity reports what follows.

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
		if g, err := p.attrs.get().ParseFromLexer(cp.stream(as)); err != nil {
			cp.reportParse(err, as, prodAttrList)
		} else {
			e.Attrs = cp.convAttrs(g.Lists)
		}
	}
	for _, m := range cp.splitMembers(k+3, closeB, grammar[ctxEntity].starts) {
		cp.salvageEntityMember(e, m)
	}
	if closeB+1 < s.hi {
		cp.syntax(cp.errRange(closeB+1), "unexpected "+cp.describe(closeB+1)+" after the end of entity `"+e.Name.Name+"`: expected "+prodDecl.want())
	}
	return true
}

// salvageEntityMember parses one field or security block of an entity
// that failed to parse whole; a security block that fails too is parsed
// rule by rule.
func (cp *chunkParser) salvageEntityMember(e *ast.Entity, m span) {
	if !cp.checkNesting(m) {
		return
	}
	p := getParsers()
	g, err := p.entMember.get().ParseFromLexer(cp.stream(m))
	if err == nil {
		cp.convEntity(&gEntity{Members: []*gEntityMember{g}}, e)
		return
	}
	end := -1
	if cp.is(m.lo, "security") && m.lo+1 < m.hi && cp.is(m.lo+1, "{") {
		end = cp.matching(m.lo+1, m.hi)
	}
	if end <= 0 {
		cp.reportParse(err, m, prodEntity)
		return
	}
	sec := &gSecurity{Pos: plexerPos(cp.toks[m.lo], cp.file.Name), EndPos: plexerPos(cp.toks[end+1], cp.file.Name)}
	for _, r := range cp.splitMembers(m.lo+2, end, nil) {
		gr, err := p.rule.get().ParseFromLexer(cp.stream(r))
		if err != nil {
			cp.reportParse(err, r, prodSecurityRule)
			continue
		}
		sec.Rules = append(sec.Rules, gr)
	}
	cp.convEntity(&gEntity{Members: []*gEntityMember{{Security: sec}}}, e)
}

// plexerPos is the participle position of token t.
func plexerPos(t lexer.Token, file string) plexer.Position {
	return plexer.Position{Filename: file, Offset: int(t.Off), Line: int(t.Line), Column: int(t.Col)}
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
			cp.reportParse(err, ps, prodHandler)
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
		g, err := getParsers().stmt.get().ParseFromLexer(cp.stream(s))
		if err != nil {
			if st := cp.salvageCatch(s); st != nil {
				body.Stmts = append(body.Stmts, st)
				continue
			}
			cp.reportParse(err, s, prodStatement)
			continue
		}
		if st := cp.convStmt(g); st != nil {
			body.Stmts = append(body.Stmts, st)
		}
	}
	return h
}

// salvageCatch re-parses a durable step whose catch failed to parse: the
// step on its own, then the catch's cases one by one, each broken one
// reported; the step still counts (its name, its policy), its catch marked
// Bad. It returns nil when the piece is not a step and its catch.
func (cp *chunkParser) salvageCatch(s span) ast.Stmt {
	// The catch's word: a `catch` after a `}` that closes all it opened.
	at := -1
	open := cp.brackets()
	for k := s.lo; k < s.hi-1; k++ {
		if cp.track(open, k) != 0 && open.depth() == 0 && cp.isPunct(k, "}") && cp.fileParser.catchNext(k) {
			at = k + 1
			break
		}
	}
	if at < 0 || at+1 >= s.hi {
		return nil
	}
	closeB := cp.matching(at+1, s.hi)
	if closeB < 0 {
		return nil
	}
	head := span{s.lo, at}
	g, err := getParsers().stmt.get().ParseFromLexer(cp.stream(head))
	if err != nil {
		return nil
	}
	st, ok := cp.convStmt(g).(*ast.CallStmt)
	if !ok || st.Body == nil {
		return nil
	}
	kw := cp.tokRange(at)
	ct := &ast.Catch{Range: cp.spanRange(at, closeB+1), Keyword: kw, Bad: true}
	for _, piece := range cp.splitStatements(at+2, closeB) {
		gc, err := getParsers().catchCase.get().ParseFromLexer(cp.stream(piece))
		if err != nil {
			if off, _ := participleFailure(err); off == int(cp.toks[piece.lo].Off) {
				cp.syntax(cp.errRange(piece.lo), "expected "+catchCaseWant+", found "+cp.describe(piece.lo))
			} else {
				cp.reportParse(err, piece, prodStatement)
			}
			continue
		}
		tmp := cp.convCatch(&gCatch{Cases: []*gCatchCase{gc}})
		ct.Cases = append(ct.Cases, tmp.Cases...)
	}
	st.Catch, st.Range = ct, cp.spanRange(s.lo, closeB+1)
	return st
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
	sub := &ast.Subscribe{Range: cp.spanRange(it.lo, it.hi), Event: ev, Bad: true}
	ps := span{it.lo + 2, closeP + 1}
	if g, err := cp.parseParams(ps); err != nil {
		cp.reportParse(err, ps, prodSubscription)
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
		if ms := cp.salvageMilestone(m); ms != nil {
			sub.Milestones = append(sub.Milestones, ms)
		}
	}
	return sub
}

// salvageStateItem splits a handler or a subscription that failed to parse
// whole into its pieces (statements; parameters and milestones), so every
// broken piece is reported and the others still count.
func (cp *chunkParser) salvageStateItem(st *ast.State, it span) bool {
	switch cp.prodAt(ctxState, it.lo) {
	case prodHandler:
		if h := cp.salvageHandler(it); h != nil {
			st.Bad = true
			st.Handlers = append(st.Handlers, h)
			return true
		}
	case prodSubscription:
		if sub := cp.salvageSubscribe(it); sub != nil {
			st.Bad = true
			st.Subscribes = append(st.Subscribes, sub)
			return true
		}
	}
	return false
}

// declareStateItem adds what a state item that failed to parse still
// names: the subscription (and its alias), the handler or the setting.
func (cp *chunkParser) declareStateItem(st *ast.State, it span) {
	switch cp.prodAt(ctxState, it.lo) {
	case prodSubscription:
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
	case prodHandler:
		if name := cp.ident(it.lo + 1); name != nil {
			st.Handlers = append(st.Handlers, &ast.Handler{Range: cp.spanRange(it.lo, it.hi), Name: name, Bad: true})
		}
	default:
		if id := cp.ident(it.lo); id != nil {
			st.Settings = append(st.Settings, &ast.Setting{Range: cp.spanRange(it.lo, it.hi), Name: id})
		}
	}
}

// salvageMilestone parses one milestone of a subscription that failed to
// parse whole; if the milestone fails too, its settings and outcomes are
// parsed one by one.
func (cp *chunkParser) salvageMilestone(m span) *ast.Milestone {
	if !cp.checkNesting(m) {
		return nil
	}
	p := getParsers()
	g, err := p.milestone.get().ParseFromLexer(cp.stream(m))
	if err == nil {
		return cp.convMilestone(g)
	}
	kind := cp.ident(m.lo)
	var end int
	if kind != nil && m.lo+1 < m.hi && cp.is(m.lo+1, "{") {
		end = cp.matching(m.lo+1, m.hi)
	}
	if kind == nil || end <= 0 {
		cp.reportParse(err, m, prodMilestone)
		return nil
	}
	ms := &ast.Milestone{Range: cp.spanRange(m.lo, end+1), Kind: kind, Bad: true}
	for _, item := range cp.splitMembers(m.lo+2, end, nil) {
		gi, err := p.mitem.get().ParseFromLexer(cp.stream(item))
		if err != nil {
			cp.reportParse(err, item, prodMilestoneItem)
			continue
		}
		cp.addMItem(ms, gi)
	}
	return ms
}
