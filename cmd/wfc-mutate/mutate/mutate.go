// Package mutate finds the places in a Go package where a small change to
// the code (a mutant) should make the package's own tests fail, and applies
// one such change at a time. The runner (run.go) builds each mutant through
// `go test -overlay`, so the working tree is never touched.
//
// The operators are the classic statement-level ones: flip a comparison at
// its boundary, swap an arithmetic or logical operator, negate a
// condition, delete a statement, change a constant. Each site is typed by
// the package's own type information, so arithmetic on strings or
// comparisons of non-ordered values are never proposed, and most mutants
// compile. A mutant that still fails to build is reported as such and
// left out of the score.
package mutate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strconv"
)

// Op is a kind of mutation.
type Op int

// The operators, in the order a report lists them.
const (
	Boundary Op = iota // < ↔ <=, > ↔ >=
	Equality           // == ↔ !=
	Arith              // + ↔ -, * ↔ /, % → *
	Logical            // && ↔ ||
	Negate             // if c → if !(c)
	Delete             // drop a statement
	Const              // 0 ↔ 1, n → n+1, true ↔ false
)

var opNames = [...]string{"boundary", "equality", "arith", "logical", "negate", "delete", "const"}

func (o Op) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	return "op(" + strconv.Itoa(int(o)) + ")"
}

// Site is one mutant: replace the bytes [Start, End) of File with New.
type Site struct {
	File       string // absolute path
	Start, End int    // byte offsets in File
	Line, Col  int    // 1-based, of Start (Col counts bytes, as go/token)
	Op         Op
	Old, New   string
}

func (s Site) String() string {
	return fmt.Sprintf("%s:%d:%d %s %q → %q", s.File, s.Line, s.Col, s.Op, s.Old, s.New)
}

// Apply returns src with the site's change made.
func (s Site) Apply(src []byte) []byte {
	out := make([]byte, 0, len(src)+len(s.New))
	out = append(out, src[:s.Start]...)
	out = append(out, s.New...)
	return append(out, src[s.End:]...)
}

// Sites lists every mutant of one parsed file, in source order. info must
// hold Types and Uses for the file (it decides which operators apply).
func Sites(fset *token.FileSet, f *ast.File, src []byte, info *types.Info) []Site {
	tf := fset.File(f.Pos())
	v := &finder{fset: fset, tf: tf, src: src, info: info}
	ast.Inspect(f, v.visit)
	sort.SliceStable(v.out, func(i, j int) bool { return v.out[i].Start < v.out[j].Start })
	return v.out
}

type finder struct {
	fset *token.FileSet
	tf   *token.File
	src  []byte
	info *types.Info
	out  []Site
}

func (v *finder) add(op Op, from, to token.Pos, repl string) {
	start, end := v.tf.Offset(from), v.tf.Offset(to)
	p := v.fset.Position(from)
	v.out = append(v.out, Site{
		File: p.Filename, Start: start, End: end, Line: p.Line, Col: p.Column,
		Op: op, Old: string(v.src[start:end]), New: repl,
	})
}

func (v *finder) visit(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.GenDecl:
		// Constants and package-level variables: changing them mostly
		// breaks the build (array sizes, typed constants) or tests the
		// test's own copy; statements are where behaviour lives.
		return n.Tok != token.CONST
	case *ast.BinaryExpr:
		v.binary(n)
	case *ast.IfStmt:
		v.add(Negate, n.Cond.Pos(), n.Cond.End(), "!("+v.text(n.Cond)+")")
	case *ast.BlockStmt:
		v.block(n)
	case *ast.BasicLit:
		v.literal(n)
	case *ast.Ident:
		v.boolean(n)
	}
	return true
}

func (v *finder) text(n ast.Node) string {
	return string(v.src[v.tf.Offset(n.Pos()):v.tf.Offset(n.End())])
}

// swaps gives the replacement of each binary operator and its family.
var swaps = map[token.Token]struct {
	to string
	op Op
}{
	token.LSS: {"<=", Boundary}, token.LEQ: {"<", Boundary},
	token.GTR: {">=", Boundary}, token.GEQ: {">", Boundary},
	token.EQL: {"!=", Equality}, token.NEQ: {"==", Equality},
	token.ADD: {"-", Arith}, token.SUB: {"+", Arith},
	token.MUL: {"/", Arith}, token.QUO: {"*", Arith}, token.REM: {"*", Arith},
	token.LAND: {"||", Logical}, token.LOR: {"&&", Logical},
}

func (v *finder) binary(b *ast.BinaryExpr) {
	s, ok := swaps[b.Op]
	if !ok {
		return
	}
	if s.op == Arith && !v.numeric(b.X) {
		return // string concatenation
	}
	if v.constant(b) {
		return // a constant expression: changing it may not compile
	}
	v.add(s.op, b.OpPos, b.OpPos+token.Pos(len(b.Op.String())), s.to)
}

func (v *finder) numeric(e ast.Expr) bool {
	tv, ok := v.info.Types[e]
	if !ok {
		return false
	}
	basic, ok := tv.Type.Underlying().(*types.Basic)
	return ok && basic.Info()&types.IsNumeric != 0
}

func (v *finder) constant(e ast.Expr) bool {
	tv, ok := v.info.Types[e]
	return ok && tv.Value != nil
}

// block proposes deleting each statement that can go without leaving the
// code unbuildable: calls, assignments to existing variables, increments,
// sends, and returns that are not the last statement.
func (v *finder) block(b *ast.BlockStmt) {
	for _, st := range b.List {
		switch st := st.(type) {
		case *ast.ExprStmt, *ast.IncDecStmt, *ast.SendStmt:
			v.add(Delete, st.Pos(), st.End(), "")
		case *ast.AssignStmt:
			if st.Tok != token.DEFINE {
				v.add(Delete, st.Pos(), st.End(), "")
			}
		}
	}
}

func (v *finder) literal(l *ast.BasicLit) {
	if l.Kind != token.INT {
		return
	}
	n, err := strconv.ParseInt(l.Value, 0, 64)
	if err != nil {
		return
	}
	repl := strconv.FormatInt(n+1, 10)
	if n == 1 {
		repl = "0"
	}
	v.add(Const, l.Pos(), l.End(), repl)
}

func (v *finder) boolean(id *ast.Ident) {
	if id.Name != "true" && id.Name != "false" {
		return
	}
	if obj, ok := v.info.Uses[id]; !ok || obj.Parent() != types.Universe {
		return
	}
	repl := "true"
	if id.Name == "true" {
		repl = "false"
	}
	v.add(Const, id.Pos(), id.End(), repl)
}
