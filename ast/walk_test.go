package ast_test

import (
	"fmt"
	"os"
	"reflect"
	"testing"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/parser"
)

// TestInspectExample walks the language's complete example: every node lies
// inside its parent, siblings come in source order, f(nil) closes every node
// that was entered, and every kind of node the example holds is reached.
func TestInspectExample(t *testing.T) {
	src, err := os.ReadFile("../testdata/examples/jobflow/jobflow.wf")
	if err != nil {
		t.Fatal(err)
	}
	prog, ds := parser.Parse([]parser.Source{{Name: "jobflow.wf", Src: string(src)}}, parser.Options{})
	if len(ds) != 0 {
		t.Fatal(ds)
	}
	var stack []ast.Node
	var last []int32 // end offset of the previous sibling, per depth
	kinds := map[string]bool{}
	ast.Inspect(prog.Files[0], func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			last = last[:len(last)-1]
			return true
		}
		kinds[reflect.TypeOf(n).Elem().Name()] = true
		if n.Pos().Offset > n.End().Offset {
			t.Errorf("%T: Pos %v after End %v", n, n.Pos(), n.End())
		}
		if len(stack) > 0 {
			p := stack[len(stack)-1]
			if n.Pos().Offset < p.Pos().Offset || n.End().Offset > p.End().Offset {
				t.Errorf("%T %v-%v outside its parent %T %v-%v", n, n.Pos(), n.End(), p, p.Pos(), p.End())
			}
			if prev := last[len(last)-1]; n.Pos().Offset < prev {
				t.Errorf("%T at %v before its previous sibling's end %d", n, n.Pos(), prev)
			}
			last[len(last)-1] = n.End().Offset
		}
		stack = append(stack, n)
		last = append(last, n.Pos().Offset)
		return true
	})
	if len(stack) != 0 {
		t.Errorf("%d nodes entered but not closed with f(nil)", len(stack))
	}
	for _, k := range []string{"File", "Enum", "Ident", "Attr", "Entity", "Field", "TypeRef",
		"Security", "Rule", "Workflow", "Setting", "Event", "Params", "Param", "State",
		"Subscribe", "Milestone", "Outcome", "Handler", "Block", "Goto", "Default",
		"Selector", "Call", "Arg", "Name", "IntLit", "BoolLit", "StringLit"} {
		if !kinds[k] {
			t.Errorf("no %s reached", k)
		}
	}
}

// TestInspectSkipsAbsentChildren: optional children left nil (no alias, no
// parameters, a value that failed to parse) are not visited, and returning
// false prunes a subtree.
func TestInspectSkipsAbsentChildren(t *testing.T) {
	id := func(s string, off int32) *ast.Ident {
		return &ast.Ident{Name: s, Range: diag.Range{Start: diag.Pos{Offset: off}, End: diag.Pos{Offset: off + 1}}}
	}
	at := func(lo, hi int32) diag.Range {
		return diag.Range{Start: diag.Pos{Offset: lo}, End: diag.Pos{Offset: hi}}
	}
	st := &ast.State{
		Range:      at(0, 20),
		Name:       id("S", 0),
		Settings:   []*ast.Setting{{Range: at(5, 7), Name: id("Message", 5)}},
		Subscribes: []*ast.Subscribe{{Range: at(3, 4), Event: id("E", 3)}},
		Handlers: []*ast.Handler{{Range: at(8, 12), Name: id("E", 8),
			Body: &ast.Block{Range: at(9, 12), Stmts: []ast.Stmt{&ast.Goto{Range: at(9, 11), Target: id("T", 9)}}}}},
	}
	var got []string
	ast.Inspect(st, func(n ast.Node) bool {
		if n == nil {
			return false
		}
		s := reflect.TypeOf(n).Elem().Name()
		if i, ok := n.(*ast.Ident); ok {
			s += " " + i.Name
		}
		got = append(got, s)
		_, isBlock := n.(*ast.Block)
		return !isBlock
	})
	want := "[State Ident S Subscribe Ident E Setting Ident Message Handler Ident E Block]"
	if fmt.Sprint(got) != want {
		t.Errorf("got  %v\nwant %s", got, want)
	}
}

// TestDecl: every kind of declaration answers its file and range, and
// InFile copies its top node into another file without touching the
// original.
func TestDecl(t *testing.T) {
	src := "enum E { A }\nentity N { string S; }\nworkflow W { Initial = A; state A { } }\ntest \"t\" { Workflow = W; }\n"
	prog, ds := parser.Parse([]parser.Source{{Name: "d.wf", Src: src}}, parser.Options{})
	if len(ds) != 0 {
		t.Fatal(ds)
	}
	f := prog.Files[0]
	if len(f.Decls) != 4 {
		t.Fatalf("%d declarations", len(f.Decls))
	}
	other := &ast.File{Name: "other.wf"}
	for _, d := range f.Decls {
		if d.DeclFile() != f || d.DeclRange() != (diag.Range{Start: d.Pos(), End: d.End()}) {
			t.Errorf("%T: file %v, range %v", d, d.DeclFile(), d.DeclRange())
		}
		c := d.InFile(other)
		if c.DeclFile() != other || d.DeclFile() != f || c.DeclRange() != d.DeclRange() || reflect.TypeOf(c) != reflect.TypeOf(d) {
			t.Errorf("%T: InFile gave %T in %v, original in %v", d, c, c.DeclFile(), d.DeclFile())
		}
	}
}
