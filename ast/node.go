package ast

import "github.com/wfc-lang/wfc/diag"

// Node is any node of the tree. Pos is where its text starts and End where
// it ends (exclusive), so tools that only need a node's extent — the
// checker's positions, the fixer, the formatter, the language server — can
// ask any node without a type switch.
type Node interface {
	Pos() diag.Pos
	End() diag.Pos
}

// Every node implements Node through its Range, and a node with children
// lists them (children, read by Children and Inspect); both are written
// beside the node's type, so a node is declared in one place.

// parent is a node with children: it adds each, nil or not, to c.
type parent interface {
	children(c *children)
}
