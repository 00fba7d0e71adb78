package parser_test

import (
	"flag"
	"fmt"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/internal/golden"
	"github.com/wfc-lang/wfc/parser"
)

var update = flag.Bool("update", false, "rewrite the golden trees of testdata/recovery")

// TestRecoveryTrees pins the tree the parser builds around syntax errors:
// for every golden case with a syntax error, every node it salvaged, with
// its kind, exact range, name and whether it is marked bad, is compared
// with testdata/recovery/NAME.tree (-update rewrites them). What recovery
// keeps is what the checker then sees, so a salvage that drops a
// milestone, shifts a range or forgets to mark a node bad fails here.
func TestRecoveryTrees(t *testing.T) {
	n := 0
	for _, c := range golden.Cases(t, "../testdata") {
		if len(syntaxWants(c.Files)) == 0 {
			continue
		}
		n++
		t.Run(c.Name, func(t *testing.T) {
			prog, _ := parser.Parse(c.Files, parser.Options{Workers: 1})
			var b strings.Builder
			for _, f := range prog.Files {
				fmt.Fprintf(&b, "file %s\n", f.Name)
				writeTree(&b, f)
			}
			golden.Check(t, filepath.Join("testdata", "recovery", c.Base()+".tree"), b.String(), *update, "parser")
		})
	}
	if n < 20 {
		t.Fatalf("only %d cases with syntax errors", n)
	}
}

// writeTree writes every node of f below it, one a line, indented by depth.
func writeTree(b *strings.Builder, f *ast.File) {
	depth := 0
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			depth--
			return false
		}
		if _, ok := n.(*ast.File); !ok {
			fmt.Fprintf(b, "%s%s\n", strings.Repeat("  ", depth), describe(n))
		}
		depth++
		return true
	})
}

// describe is one node in a line: its kind, range, and the fields that
// say what it holds (a name, a value, an operator, Bad).
func describe(n ast.Node) string {
	v := reflect.ValueOf(n).Elem()
	var extra []string
	for i := 0; i < v.NumField(); i++ {
		f, name := v.Field(i), v.Type().Field(i).Name
		switch f.Kind() {
		case reflect.String:
			if f.String() != "" {
				extra = append(extra, fmt.Sprintf("%s=%q", name, f.String()))
			}
		case reflect.Bool:
			if f.Bool() {
				extra = append(extra, name)
			}
		case reflect.Int, reflect.Int64:
			if name != "Range" && f.Int() != 0 {
				extra = append(extra, fmt.Sprintf("%s=%d", name, f.Int()))
			}
		case reflect.Uint8:
			if f.Uint() != 0 {
				extra = append(extra, fmt.Sprintf("%s=%d", name, f.Uint()))
			}
		}
	}
	sort.Strings(extra)
	return fmt.Sprintf("%s %s %s", v.Type().Name(), rng(n.Pos(), n.End()), strings.Join(extra, " "))
}

func rng(a, b diag.Pos) string {
	return fmt.Sprintf("%d:%d-%d:%d@%d-%d", a.Line, a.Column, b.Line, b.Column, a.Offset, b.Offset)
}
