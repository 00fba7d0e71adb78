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

// Every node implements Node through its Range; Program spans several files
// and answers the zero position.

func (*Program) Pos() diag.Pos { return diag.Pos{} }
func (*Program) End() diag.Pos { return diag.Pos{} }

func (n *File) Pos() diag.Pos       { return n.Range.Start }
func (n *File) End() diag.Pos       { return n.Range.End }
func (n *Ident) Pos() diag.Pos      { return n.Range.Start }
func (n *Ident) End() diag.Pos      { return n.Range.End }
func (n *Enum) Pos() diag.Pos       { return n.Range.Start }
func (n *Enum) End() diag.Pos       { return n.Range.End }
func (n *Attr) Pos() diag.Pos       { return n.Range.Start }
func (n *Attr) End() diag.Pos       { return n.Range.End }
func (n *Entity) Pos() diag.Pos     { return n.Range.Start }
func (n *Entity) End() diag.Pos     { return n.Range.End }
func (n *TypeRef) Pos() diag.Pos    { return n.Range.Start }
func (n *TypeRef) End() diag.Pos    { return n.Range.End }
func (n *Field) Pos() diag.Pos      { return n.Range.Start }
func (n *Field) End() diag.Pos      { return n.Range.End }
func (n *Security) Pos() diag.Pos   { return n.Range.Start }
func (n *Security) End() diag.Pos   { return n.Range.End }
func (n *Rule) Pos() diag.Pos       { return n.Range.Start }
func (n *Rule) End() diag.Pos       { return n.Range.End }
func (n *Workflow) Pos() diag.Pos   { return n.Range.Start }
func (n *Workflow) End() diag.Pos   { return n.Range.End }
func (n *Setting) Pos() diag.Pos    { return n.Range.Start }
func (n *Setting) End() diag.Pos    { return n.Range.End }
func (n *Param) Pos() diag.Pos      { return n.Range.Start }
func (n *Param) End() diag.Pos      { return n.Range.End }
func (n *Params) Pos() diag.Pos     { return n.Range.Start }
func (n *Params) End() diag.Pos     { return n.Range.End }
func (n *Event) Pos() diag.Pos      { return n.Range.Start }
func (n *Event) End() diag.Pos      { return n.Range.End }
func (n *State) Pos() diag.Pos      { return n.Range.Start }
func (n *State) End() diag.Pos      { return n.Range.End }
func (n *Subscribe) Pos() diag.Pos  { return n.Range.Start }
func (n *Subscribe) End() diag.Pos  { return n.Range.End }
func (n *Milestone) Pos() diag.Pos  { return n.Range.Start }
func (n *Milestone) End() diag.Pos  { return n.Range.End }
func (n *Outcome) Pos() diag.Pos    { return n.Range.Start }
func (n *Outcome) End() diag.Pos    { return n.Range.End }
func (n *Handler) Pos() diag.Pos    { return n.Range.Start }
func (n *Handler) End() diag.Pos    { return n.Range.End }
func (n *Block) Pos() diag.Pos      { return n.Range.Start }
func (n *Block) End() diag.Pos      { return n.Range.End }
func (n *Goto) Pos() diag.Pos       { return n.Range.Start }
func (n *Goto) End() diag.Pos       { return n.Range.End }
func (n *Default) Pos() diag.Pos    { return n.Range.Start }
func (n *Default) End() diag.Pos    { return n.Range.End }
func (n *Case) Pos() diag.Pos       { return n.Range.Start }
func (n *Case) End() diag.Pos       { return n.Range.End }
func (n *CallStmt) Pos() diag.Pos   { return n.Range.Start }
func (n *CallStmt) End() diag.Pos   { return n.Range.End }
func (n *IntLit) Pos() diag.Pos     { return n.Range.Start }
func (n *IntLit) End() diag.Pos     { return n.Range.End }
func (n *DecimalLit) Pos() diag.Pos { return n.Range.Start }
func (n *DecimalLit) End() diag.Pos { return n.Range.End }
func (n *StringLit) Pos() diag.Pos  { return n.Range.Start }
func (n *StringLit) End() diag.Pos  { return n.Range.End }
func (n *BoolLit) Pos() diag.Pos    { return n.Range.Start }
func (n *BoolLit) End() diag.Pos    { return n.Range.End }
func (n *Name) Pos() diag.Pos       { return n.Range.Start }
func (n *Name) End() diag.Pos       { return n.Range.End }
func (n *Selector) Pos() diag.Pos   { return n.Range.Start }
func (n *Selector) End() diag.Pos   { return n.Range.End }
func (n *Call) Pos() diag.Pos       { return n.Range.Start }
func (n *Call) End() diag.Pos       { return n.Range.End }
func (n *Arg) Pos() diag.Pos        { return n.Range.Start }
func (n *Arg) End() diag.Pos        { return n.Range.End }
func (n *Unary) Pos() diag.Pos      { return n.Range.Start }
func (n *Unary) End() diag.Pos      { return n.Range.End }
func (n *Binary) Pos() diag.Pos     { return n.Range.Start }
func (n *Binary) End() diag.Pos     { return n.Range.End }
func (n *Paren) Pos() diag.Pos      { return n.Range.Start }
func (n *Paren) End() diag.Pos      { return n.Range.End }
func (n *Test) Pos() diag.Pos       { return n.Range.Start }
func (n *Test) End() diag.Pos       { return n.Range.End }
