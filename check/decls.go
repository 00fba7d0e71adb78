package check

import (
	"fmt"
	"strings"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/check/vocab"
	"github.com/wfc-lang/wfc/diag"
)

// Enums, entities, fields, attributes and security rules.

func (c *checker) enum(e *ast.Enum) {
	s := c.newScope("enum member")
	for _, m := range e.Members {
		s.declare(m)
	}
}

// The vocabulary's attributes and security operations, as sets.
var (
	entityAttrs = attrSet(vocab.EntityAttrs)
	fieldAttrs  = attrSet(vocab.FieldAttrs)
	securityOps = wordSet(vocab.SecurityOps)
)

func attrSet(as []vocab.Attr) map[string]bool {
	m := make(map[string]bool, len(as))
	for _, a := range as {
		m[a.Name] = true
	}
	return m
}

func wordSet(ws []string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

func (c *checker) entity(e *ast.Entity) {
	seen := map[string]*ast.Attr{}
	for _, a := range e.Attrs {
		c.attrBasics(a, entityAttrs, "an entity", seen) // WF207 is the rule secondPrincipal's
	}
	fields := c.newScope("field")
	for _, f := range e.Fields {
		fields.declare(f.Name)
		c.typeRef(f.Type)
		seen := map[string]*ast.Attr{}
		for _, a := range f.Attrs {
			if !c.attrBasics(a, fieldAttrs, "a field", seen) {
				continue
			}
			switch a.Name.Name {
			case "Required":
			case "MaxLength", "MinLength":
				if f.Type != nil && f.Type.Name != nil && f.Type.Name.Name != "string" {
					c.report(a.Range, diag.WF110, "`%s` applies to string fields; `%s` is of type `%s`", a.Name.Name, f.Name.Name, f.Type.Name.Name)
					continue
				}
				if len(a.Args) != 1 {
					c.report(a.Range, diag.WF110, "`%s` takes one positive int, as in `%s(80)`", a.Name.Name, a.Name.Name)
					continue
				}
				if ast.HasBad(a.Args[0]) {
					continue
				}
				n, ok := ast.Unparen(a.Args[0]).(*ast.IntLit)
				if !ok || n.Value < 1 {
					c.report(a.Range, diag.WF110, "`%s` takes a positive int, as in `%s(80)`; found `%s`", a.Name.Name, a.Name.Name, ast.Compact(c.file.Text(a.Args[0].Rng())))
				}
			}
		}
	}
	for _, sec := range e.Security {
		for _, r := range sec.Rules {
			for _, op := range r.Ops {
				if !securityOps[op.Name] {
					c.report(op.Range, diag.WF111, "unknown security operation `%s`: the operations are `read`, `create`, `update` and `delete`%s", op.Name, c.didYouMean(op.Range, op.Name, keys(securityOps)))
				}
			}
		}
	}
}

// attrBasics checks an attribute's name, repetition and arity; it returns
// false when the attribute is not worth checking further.
func (c *checker) attrBasics(a *ast.Attr, allowed map[string]bool, on string, seen map[string]*ast.Attr) bool {
	if a.Name == nil {
		return false
	}
	n := a.Name.Name
	if !allowed[n] {
		h := c.didYouMean(a.Name.Range, n, keys(allowed))
		msg := h.String()
		if h.best == "" {
			msg = fmt.Sprintf("; on %s write one of %s", on, quoteList(keys(allowed)))
		}
		attach(c.report(a.Range, diag.WF110, "unknown attribute `%s` on %s%s", n, on, msg), h)
		return false
	}
	if prev, ok := seen[n]; ok {
		d := c.report(a.Range, diag.WF110, "attribute `%s` is given twice; remove this one", n)
		c.related(d, prev.Range, "first given here")
		return false
	}
	seen[n] = a
	if (n == "Principal" || n == "Required") && a.HasArgs {
		c.report(a.Range, diag.WF110, "`%s` takes no arguments: write `[%s]`", n, n)
		return false
	}
	return true
}

// quoteList quotes names for a message: "`A`, `B` and `C"`. Past
// listedNames it names the first ones and counts the rest, so a message
// stays short however many names a program declares.
func quoteList(xs []string) string { return joinList(xs, "and") }

// listedNames is the most names a message lists.
const listedNames = 10

func joinList(xs []string, conj string) string {
	var b strings.Builder
	shown := xs
	if len(xs) > listedNames {
		shown = xs[:listedNames]
	}
	for i, x := range shown {
		switch {
		case i == 0:
		case i == len(xs)-1:
			b.WriteString(" " + conj + " ")
		default:
			b.WriteString(", ")
		}
		b.WriteString("`" + x + "`")
	}
	if rest := len(xs) - len(shown); rest > 0 {
		fmt.Fprintf(&b, " %s %d more", conj, rest)
	}
	return b.String()
}

// typeRef checks that a field or parameter type exists.
func (c *checker) typeRef(t *ast.TypeRef) {
	if t == nil || t.Name == nil {
		return
	}
	n := t.Name.Name
	if builtinTypes[n] {
		return
	}
	if d := c.global(n); d != nil {
		if _, isWF := d.(*ast.Workflow); !isWF {
			return
		}
		c.report(t.Name.Range, diag.WF102, "`%s` is a workflow, not a type: a type is `string`, `int`, `bool`, `decimal`, `DateTime`, `TimeSpan`, an enum or an entity", n)
		return
	}
	c.report(t.Name.Range, diag.WF102, "unknown type `%s`%s", n, c.suggest(t.Name.Range, n, c.typeSet()))
}

// typeSet are the names a type can have, for suggestions (prepared once).
func (c *checker) typeSet() *nameSet {
	c.readFlag(func(u *Uses) { u.AllNames = true })
	if c.types == nil {
		cands := keys(builtinTypes)
		for k, d := range c.decls {
			if _, isWF := d.(*ast.Workflow); !isWF {
				cands = append(cands, k)
			}
		}
		c.types = newNameSet(cands)
	}
	return c.types
}

// memberSet are an enum's members, for suggestions (prepared once per enum).
func (c *checker) memberSet(e *ast.Enum) *nameSet {
	if c.members == nil {
		c.members = map[*ast.Enum]*nameSet{}
	}
	s, ok := c.members[e]
	if !ok {
		names := make([]string, len(e.Members))
		for i, m := range e.Members {
			names[i] = m.Name
		}
		s = newNameSet(names)
		c.members[e] = s
	}
	return s
}

// typeKnown reports whether t names a built-in type or a type declared
// once; a missing name (a syntax error) counts as known, to stay quiet.
func (c *checker) typeKnown(t *ast.TypeRef) bool {
	if t == nil || t.Name == nil {
		return true
	}
	n := t.Name.Name
	return builtinTypes[n] || c.global(n) != nil && !c.dup(n)
}

// typeName resolves a type reference to its name ("" if unknown).
func (c *checker) typeName(t *ast.TypeRef) string {
	if t == nil || t.Name == nil {
		return ""
	}
	s := t.Name.Name
	if t.Optional {
		s += "?"
	}
	return s
}

// enumOf returns the enum a type names, if any.
func (c *checker) enumOf(t *ast.TypeRef) *ast.Enum {
	if t == nil || t.Name == nil {
		return nil
	}
	if c.dup(t.Name.Name) {
		return nil
	}
	e, _ := c.global(t.Name.Name).(*ast.Enum)
	return e
}
