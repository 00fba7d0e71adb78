package diag

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"testing"
)

// TestIDsMatchCatalogue: the ID constants of codes.go are exactly the codes
// of the catalogue, in the same order, each constant's value its own name
// (a code added to one list and not the other fails here).
func TestIDsMatchCatalogue(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "codes.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok || len(vs.Names) != 1 || len(vs.Values) != 1 {
			return true
		}
		if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "ID" {
			return true
		}
		lit, ok := vs.Values[0].(*ast.BasicLit)
		if !ok {
			t.Errorf("%s: not a string literal", vs.Names[0].Name)
			return true
		}
		v, _ := strconv.Unquote(lit.Value)
		if v != vs.Names[0].Name {
			t.Errorf("constant %s = %q", vs.Names[0].Name, v)
		}
		ids = append(ids, v)
		return true
	})
	var codes []string
	for _, c := range Codes {
		codes = append(codes, string(c.Code))
	}
	if !slices.Equal(ids, codes) {
		t.Errorf("ID constants %v\n  differ from the catalogue %v", ids, codes)
	}
}
