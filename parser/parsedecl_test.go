package parser

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/wfc-lang/wfc/ast"
)

// shape lists every node of n with its kind and range.
func shape(n ast.Node) []string {
	var out []string
	ast.Inspect(n, func(n ast.Node) bool {
		if n != nil {
			out = append(out, fmt.Sprintf("%T %v-%v", n, n.Pos(), n.End()))
		}
		return true
	})
	return out
}

// ParseDecl re-parses one declaration alone to the same tree, with the
// file's positions, and with the diagnostics of that declaration only.
func TestParseDecl(t *testing.T) {
	b, err := os.ReadFile("../testdata/examples/jobflow/jobflow.wf")
	if err != nil {
		t.Fatal(err)
	}
	src := string(b) + "\nenum Broken { A B }\n"
	f, all := parseOne(t, src)
	if len(all) != 1 {
		t.Fatalf("want one diagnostic, got %v", all)
	}
	for i, d := range f.Decls {
		got, ds := ParseDecl(Source{Name: "f.wf", Src: src}, int(d.Pos().Offset)+1)
		if got == nil {
			t.Fatalf("decl %d: nothing parsed", i)
		}
		if diff := cmp.Diff(shape(d), shape(got)); diff != "" {
			t.Errorf("decl %d differs (-whole file +alone):\n%s", i, diff)
		}
		broken := d.DeclName().Name == "Broken"
		if broken != (len(ds) == 1) {
			t.Errorf("decl %s: diagnostics %v", d.DeclName().Name, ds)
		}
	}
	if d, ds := ParseDecl(Source{Name: "f.wf", Src: src}, strings.Index(src, "\n\n")+1); d != nil || ds != nil {
		t.Errorf("between declarations: got %v, %v", d, ds)
	}
}
