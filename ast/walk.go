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
	var w walker
	w.walk(n, f, 0)
}

// walker is one Inspect's state: a list of children per depth, reused by
// every node at that depth, so a walk allocates per level of the tree, not
// per node (Inspect runs over every tree the parser builds).
type walker struct{ levels []children }

func (w *walker) walk(n Node, f func(Node) bool, depth int) {
	if isNil(n) || !f(n) {
		return
	}
	if p, ok := n.(parent); ok {
		if depth == len(w.levels) {
			w.levels = append(w.levels, nil)
		}
		c := w.levels[depth][:0]
		p.children(&c)
		c = c.sorted()
		w.levels[depth] = c
		for _, x := range c {
			w.walk(x, f, depth+1)
		}
	}
	f(nil)
}

// Children returns the non-nil direct children of n in source order.
func Children(n Node) []Node {
	var c children
	if p, ok := n.(parent); ok {
		p.children(&c)
	}
	return c.sorted()
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
