package ast

import (
	"reflect"
	"slices"
)

// Inspect walks the tree rooted at n in source order, go/ast style: it calls
// f(n); if that returns true, it inspects each non-nil child of n and then
// calls f(nil). A nil n (or a nil pointer held in an interface) is skipped.
//
// Children are visited in the order they were written, not the order of the
// struct fields: a workflow's settings, events and states are kept in three
// lists, but a formatter or a "first use" rule needs them interleaved as in
// the file.
func Inspect(n Node, f func(Node) bool) {
	if isNil(n) || !f(n) {
		return
	}
	for _, c := range Children(n) {
		Inspect(c, f)
	}
	f(nil)
}

// Children returns the non-nil direct children of n in source order.
func Children(n Node) []Node {
	var c children
	switch n := n.(type) {
	case *Program:
		for _, x := range n.Files {
			c.add(x)
		}
	case *File:
		for _, x := range n.Decls {
			c.add(x)
		}
	case *Enum:
		c.add(n.Name)
		addAll(&c, n.Members)
	case *Attr:
		c.add(n.Name)
		addExprs(&c, n.Args)
	case *Entity:
		addAll(&c, n.Attrs)
		c.add(n.Name)
		addAll(&c, n.Fields)
		addAll(&c, n.Security)
	case *TypeRef:
		c.add(n.Name)
	case *Field:
		addAll(&c, n.Attrs)
		c.add(n.Type)
		c.add(n.Name)
	case *Security:
		addAll(&c, n.Rules)
	case *Rule:
		addAll(&c, n.Ops)
		c.add(n.When)
	case *Workflow:
		c.add(n.Name)
		addAll(&c, n.Settings)
		addAll(&c, n.Events)
		addAll(&c, n.States)
	case *Test:
		c.add(n.Name)
		addAll(&c, n.Settings)
		addAll(&c, n.Stmts)
	case *Setting:
		c.add(n.Name)
		c.add(n.Value)
	case *Param:
		c.add(n.Type)
		c.add(n.Name)
	case *Params:
		addAll(&c, n.List)
	case *Event:
		c.add(n.Name)
		c.add(n.Params)
	case *State:
		c.add(n.Name)
		addAll(&c, n.Settings)
		addAll(&c, n.Subscribes)
		addAll(&c, n.Handlers)
	case *Subscribe:
		c.add(n.Event)
		c.add(n.Params)
		c.add(n.Alias)
		addAll(&c, n.Milestones)
	case *Milestone:
		c.add(n.Kind)
		addAll(&c, n.Settings)
		addAll(&c, n.Outcomes)
	case *Outcome:
		c.add(n.Name)
		c.add(n.Body)
	case *Handler:
		c.add(n.Name)
		c.add(n.Params)
		c.add(n.Body)
	case *Block:
		for _, s := range n.Stmts {
			c.add(s)
		}
	case *Goto:
		c.add(n.Target)
	case *Default:
		c.add(n.Body)
	case *Case:
		c.add(n.Label)
		c.add(n.Body)
	case *CallStmt:
		c.add(n.Call)
		c.add(n.Body)
	default:
		exprChildren(&c, n)
	}
	return c.sorted()
}

func exprChildren(c *children, n Node) {
	switch n := n.(type) {
	case *Selector:
		c.add(n.X)
		c.add(n.Sel)
	case *Call:
		c.add(n.Fun)
		addAll(c, n.Args)
	case *Arg:
		c.add(n.Label)
		c.add(n.Value)
	case *Unary:
		c.add(n.X)
	case *Binary:
		c.add(n.X)
		c.add(n.Y)
	case *Paren:
		c.add(n.X)
	}
}

// children collects child nodes, dropping nil ones.
type children []Node

func (c *children) add(n Node) {
	if !isNil(n) {
		*c = append(*c, n)
	}
}

func addAll[T Node](c *children, xs []T) {
	for _, x := range xs {
		c.add(x)
	}
}

func addExprs(c *children, xs []Expr) {
	for _, x := range xs {
		c.add(x)
	}
}

// sorted puts children written in separate lists back in source order. Files
// of a Program are all at the zero position and keep their order; most nodes
// are already sorted, so this rarely moves anything.
func (c children) sorted() []Node {
	less := func(a, b Node) int { return int(a.Pos().Offset) - int(b.Pos().Offset) }
	if !slices.IsSortedFunc(c, less) {
		slices.SortStableFunc(c, less)
	}
	return c
}

// isNil reports whether n is nil or a typed nil pointer (an absent optional
// child such as a missing alias, stored in an interface).
func isNil(n Node) bool {
	if n == nil {
		return true
	}
	v := reflect.ValueOf(n)
	return v.Kind() == reflect.Pointer && v.IsNil()
}
