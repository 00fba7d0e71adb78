package lexer

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"testing"
)

// TestKeywordsList: Keywords lists exactly the words of isKeyword's switch
// (read from lexer.go's syntax tree), and each lexes as a keyword.
func TestKeywordsList(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "lexer.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var cases []string
	ast.Inspect(f, func(n ast.Node) bool {
		fd, ok := n.(*ast.FuncDecl)
		if !ok || fd.Name.Name != "isKeyword" {
			return true
		}
		ast.Inspect(fd, func(n ast.Node) bool {
			if cc, ok := n.(*ast.CaseClause); ok {
				for _, e := range cc.List {
					if lit, ok := e.(*ast.BasicLit); ok {
						s, _ := strconv.Unquote(lit.Value)
						cases = append(cases, s)
					}
				}
			}
			return true
		})
		return false
	})
	if len(cases) == 0 {
		t.Fatal("isKeyword has no cases in lexer.go: has the keyword table moved? Keywords must follow it")
	}
	if !slices.Equal(cases, Keywords()) {
		t.Errorf("Keywords() = %v, isKeyword accepts %v", Keywords(), cases)
	}
	for _, w := range Keywords() {
		if toks := Lex("k.wf", w).Tokens; toks[0].Kind != Keyword {
			t.Errorf("%q lexes as %v", w, toks[0].Kind)
		}
	}
}
