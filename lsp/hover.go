package lsp

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/check/vocab"
	"github.com/wfc-lang/wfc/codegen"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/lsp/protocol"
)

// maxHoverRows bounds the schedule table in a hover; the totals stay exact.
const maxHoverRows = 12

// lowering is how the server lowers tables: cut at codegen.SummaryRows
// (more than a hover shows), so a file of many long Linear budgets costs
// what a short one does per keystroke; the totals in inlay hints and
// hovers and the lints stay exact.
func lowering() codegen.Options { return codegen.Options{MaxRows: codegen.SummaryRows} }

// Hover shows, by priority: the schedule of the policy, milestone or step
// under the cursor (below the meaning of the word of the language under
// it, if any: `.MaxAttempts`); the explanation of a diagnostic code (as
// written in a `// wfc:ignore` comment); a word of the language (`Within`,
// `Exhausted`, `read`) from the vocabulary; the declaration of a name, in
// one line.
func (s *Server) Hover(ctx context.Context, p *protocol.HoverParams) (*protocol.Hover, error) {
	sn, o, off, err := s.lookup(ctx, p.TextDocument, p.Position)
	if err != nil || sn == nil || sn.res.Program == nil {
		return nil, err
	}
	name := nameOf(p.TextDocument.URI)
	t := sn.texts[name]
	if t == nil {
		return nil, nil
	}
	md := func(text string, r diag.Range) *protocol.Hover {
		rg := t.rng(r, sn.enc)
		return &protocol.Hover{Contents: &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: text}, Range: &rg}
	}
	word := sn.wordAt(name, off)
	if sc, r := scheduleAt(sn, name, off); sc != nil {
		if word != nil {
			// The word first, then the table it is part of.
			return md(wordMarkdown(word.Builtin.Word)+"\n\n---\n\n"+scheduleMarkdown(sc), word.Ident.Range), nil
		}
		return md(scheduleMarkdown(sc), r), nil
	}
	if code, r := codeAt(t.src, off); code != "" {
		if c, ok := diag.Lookup(diag.ID(code)); ok {
			return md(fmt.Sprintf("**%s** %s\n\n```text\n%s```", c.Code, c.Title, c.Help()), r), nil
		}
	}
	if word != nil {
		return md(wordMarkdown(word.Builtin.Word), word.Ident.Range), nil
	}
	if o != nil {
		return md(codeBlock("wfc", declLine(sn, o)), o.rng), nil
	}
	return nil, nil
}

var codeWord = regexp.MustCompile(`WF[0-9]{3}`)

// codeAt finds a diagnostic code such as WF301 under the cursor.
func codeAt(src string, off int) (string, diag.Range) {
	lo := max(0, off-5)
	hi := min(len(src), off+5)
	for _, m := range codeWord.FindAllStringIndex(src[lo:hi], -1) {
		s, e := lo+m[0], lo+m[1]
		if s <= off && off <= e {
			return src[s:e], byteRange(src, s, e)
		}
	}
	return "", diag.Range{}
}

// byteRange makes a Range from byte offsets (lines and columns are left
// zero: the server converts ranges by offset only).
func byteRange(src string, s, e int) diag.Range {
	return diag.Range{Start: diag.Pos{Offset: int32(s)}, End: diag.Pos{Offset: int32(e)}}
}

// scheduleAt finds the consumer under the cursor: on a milestone's kind,
// anywhere in a policy expression, or on a durable step's call.
func scheduleAt(sn *snapshot, file string, off int) (*codegen.Schedule, diag.Range) {
	for _, sc := range sn.res.Schedules {
		c := sc.Consumer
		if c.FileName() != file {
			continue
		}
		if c.Policy != nil && c.Policy.Expr != nil && contains(c.Policy.Expr.Rng(), off) {
			return sc, c.Policy.Expr.Rng()
		}
		if r, ok := consumerHead(c); ok && contains(r, off) {
			return sc, r
		}
		if c.RetriesValue != nil && contains(c.RetriesValue.Rng(), off) {
			return sc, c.RetriesValue.Rng()
		}
	}
	return nil, diag.Range{}
}

// consumerHead is the milestone's kind (`Finished`) or the step's callee
// (`Workflow.Once`), read from the model's object the consumer belongs to.
func consumerHead(c *check.Consumer) (diag.Range, bool) {
	switch {
	case c.Milestone != nil && c.Milestone.Decl.Kind != nil:
		return c.Milestone.Decl.Kind.Range, true
	case c.Step != nil && c.Step.Decl.Call != nil:
		return c.Step.Decl.Call.Fun.Rng(), true
	}
	return diag.Range{}, false
}

// wordMarkdown explains a word of the language's vocabulary, from the
// table the checker reads (check/vocab): its signature, what it is, where
// it is written and what it means.
func wordMarkdown(w vocab.Word) string {
	return fmt.Sprintf("%s\n\n%s, written in %s.\n\n%s", codeBlock("wfc", w.Signature), capitalise(w.Kind.String()), w.Context, w.Sentence())
}

func capitalise(s string) string { return vocab.Capitalise(s) }

// scheduleMarkdown renders the `wfc schedule` table of one consumer.
func scheduleMarkdown(s *codegen.Schedule) string {
	var b strings.Builder
	c := s.Consumer
	f := check.FormatTicks
	fmt.Fprintf(&b, "**%s**\n\n", codeSpan(codegen.Place(c))) // names are user text
	fmt.Fprintf(&b, "- policy: %s\n- budget: %s\n", codegen.PolicyWords(s), codegen.BudgetWords(s))
	if !c.IsStep() {
		fmt.Fprintf(&b, "- window: %s\n", codegen.WindowWords(s))
	} else if s.Duration > 0 {
		fmt.Fprintf(&b, "- attempt: takes %s\n", f(s.Duration))
	}
	jit := s.Jitter != nil
	if jit {
		b.WriteString("\n| attempt | wait | least | most | starts | latest |\n|---:|---:|---:|---:|---:|---:|\n")
	} else {
		b.WriteString("\n| attempt | wait | starts |\n|---:|---:|---:|\n")
	}
	for i, r := range s.Rows {
		if i == maxHoverRows {
			if s.Truncated {
				b.WriteString("\n… more rows (`wfc schedule` shows them)\n")
			} else {
				fmt.Fprintf(&b, "\n… %d more rows (`wfc schedule` shows them all)\n", len(s.Rows)-i)
			}
			break
		}
		att := fmt.Sprint(r.From)
		if r.To > r.From {
			att = fmt.Sprintf("%d–%d", r.From, r.To)
		}
		wait, lo, hi := f(r.Wait), f(r.Min), f(r.Max)
		if r.From == 1 {
			wait, lo, hi = "–", "–", "–"
		}
		if jit {
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", att, wait, lo, hi, f(r.Starts), f(r.StartsLatest))
		} else {
			fmt.Fprintf(&b, "| %s | %s | %s |\n", att, wait, f(r.Starts))
		}
	}
	if jit && s.GivesUpLatest != s.GivesUp {
		fmt.Fprintf(&b, "\ngives up at %s, %s at the latest\n", f(s.GivesUp), f(s.GivesUpLatest))
	} else {
		fmt.Fprintf(&b, "\ngives up at %s\n", f(s.GivesUp))
	}
	return b.String()
}

// declLine is a name's declaration in one line.
func declLine(sn *snapshot, o *occurrence) string {
	decl := o
	for _, d := range sn.all(o.sym) {
		if d.def {
			decl = d
			break
		}
	}
	src := sn.texts[decl.file]
	text := func(r diag.Range) string {
		if src == nil || int(r.End.Offset) > len(src.src) {
			return ""
		}
		return oneLine(src.src[r.Start.Offset:r.End.Offset])
	}
	qual := o.sym.name
	switch d := decl.decl.(type) {
	case *ast.Enum:
		if o.sym.kind == kMember {
			return fmt.Sprintf("%s  // member of enum %s", qual, d.Name.Name)
		}
		return text(d.Range)
	case *ast.Entity:
		return fmt.Sprintf("entity %s { %d fields }", d.Name.Name, len(d.Fields))
	case *ast.Field:
		return text(d.Range) + "  // field of " + strings.SplitN(qual, ".", 2)[0]
	case *ast.Workflow:
		return fmt.Sprintf("workflow %s { %d events, %d states }", d.Name.Name, len(d.Events), len(d.States))
	case *ast.Event:
		return text(d.Range) + "  // in workflow " + strings.SplitN(qual, ".", 2)[0]
	case *ast.State:
		kw := map[ast.StateKind]string{ast.Normal: "state", ast.Terminal: "terminal", ast.TerminalError: "terminal error"}[d.Kind]
		return fmt.Sprintf("%s %s  // in workflow %s", kw, d.Name.Name, strings.SplitN(qual, ".", 2)[0])
	case *ast.Subscribe:
		return fmt.Sprintf("subscribe %s as %s", d.Event.Name, d.Alias.Name)
	case *ast.CallStmt:
		return fmt.Sprintf("Workflow.Once(%q)  // durable step", strings.SplitN(qual, ".", 2)[1])
	}
	return qual
}

// oneLine squeezes whitespace and cuts long text.
func oneLine(s string) string {
	s = ast.Compact(s)
	if r := []rune(s); len(r) > 120 {
		s = string(r[:119]) + "…"
	}
	return s
}
