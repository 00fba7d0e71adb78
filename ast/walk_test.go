package ast_test

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/internal/golden"
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

// TestChildrenComplete: for every node of every golden case and example,
// Children returns exactly the non-nil nodes its fields hold (a field of a
// node type, or a list of them), so a field added to a node without its
// line in the node's children method fails here. A declaration's File is
// its parent, not a child.
func TestChildrenComplete(t *testing.T) {
	nodeType := reflect.TypeOf((*ast.Node)(nil)).Elem()
	fileType := reflect.TypeOf(&ast.File{})
	held := func(n ast.Node) int {
		k := 0
		v := reflect.ValueOf(n).Elem()
		for i := 0; i < v.NumField(); i++ {
			f := v.Field(i)
			switch {
			case f.Type() == fileType && v.Type() != reflect.TypeOf(ast.Program{}):
			case f.Type().Implements(nodeType):
				if !f.IsNil() && !f.Elem().IsZero() && !(f.Kind() == reflect.Interface && f.Elem().IsNil()) {
					k++
				}
			case f.Kind() == reflect.Slice && f.Type().Elem().Implements(nodeType):
				for j := 0; j < f.Len(); j++ {
					if e := f.Index(j); !e.IsNil() && !(e.Kind() == reflect.Interface && e.Elem().IsNil()) {
						k++
					}
				}
			}
		}
		return k
	}
	var files []parser.Source
	for _, c := range golden.Cases(t, "../testdata") {
		files = append(files, c.Files...)
	}
	ex, _ := filepath.Glob("../testdata/examples/*/*.wf")
	for _, f := range ex {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, parser.Source{Name: f, Src: string(b)})
	}
	kinds := map[string]bool{}
	for _, f := range files {
		prog, _ := parser.Parse([]parser.Source{f}, parser.Options{Workers: 1})
		ast.Inspect(prog, func(n ast.Node) bool {
			if n == nil {
				return false
			}
			kinds[reflect.TypeOf(n).Elem().Name()] = true
			if got, want := len(ast.Children(n)), held(n); got != want {
				t.Errorf("%s: %T has %d children, its fields hold %d", f.Name, n, got, want)
			}
			return true
		})
	}
	if len(kinds) < 30 {
		t.Errorf("only %d kinds of node reached: %v", len(kinds), kinds)
	}
}
