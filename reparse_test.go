package wfc

import (
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/internal/corpus"
	"github.com/wfc-lang/wfc/parser"
)

// dump prints a syntax tree, files by name only (they point back at it).
func dump(b *strings.Builder, v reflect.Value, indent string) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		if v.Type() == fileType {
			fmt.Fprintf(b, "file(%s)", v.Interface().(*ast.File).Name)
			return
		}
		dump(b, v.Elem(), indent)
	case reflect.Interface:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		dump(b, v.Elem(), indent)
	case reflect.Slice:
		b.WriteString("[\n")
		for i := 0; i < v.Len(); i++ {
			b.WriteString(indent + "  ")
			dump(b, v.Index(i), indent+"  ")
			b.WriteString("\n")
		}
		b.WriteString(indent + "]")
	case reflect.Struct:
		fmt.Fprintf(b, "%s{", v.Type().Name())
		for i := 0; i < v.NumField(); i++ {
			fmt.Fprintf(b, " %s:", v.Type().Field(i).Name)
			dump(b, v.Field(i), indent)
		}
		b.WriteString(" }")
	default:
		fmt.Fprintf(b, "%v", v.Interface())
	}
}

func dumpFile(f *ast.File) string {
	var b strings.Builder
	dump(&b, reflect.ValueOf(f).Elem(), "")
	return b.String()
}

// TestReparseDeclMatchesFullParse: after random one-character edits, the
// re-parse of one declaration gives the tree a full parse gives, position
// for position, or declines.
func TestReparseDeclMatchesFullParse(t *testing.T) {
	src := corpus.Generate(200, 1)[0].Src
	src = strings.Replace(src, "enum Decision0 { Ok }", "enum Decision0 { Ok } // wfc:ignore WF203 é", 1)
	rng := rand.New(rand.NewSource(1))
	type parsed struct {
		src   string
		file  *ast.File
		diags []diag.Diagnostic
	}
	full := func(s string) *parsed {
		prog, ds := parser.Parse([]parser.Source{{Name: "a.wf", Src: s}}, parser.Options{})
		return &parsed{src: s, file: prog.Files[0], diags: ds}
	}
	old := full(src)
	edits := []string{" ", "\n", "x", "", "é", "}", "{", ";", "\"", "  \n  "}
	took := 0
	for i := 0; i < 300; i++ {
		at := rng.Intn(len(old.src))
		n := rng.Intn(2)
		if at+n > len(old.src) || !utf8Boundary(old.src, at) || !utf8Boundary(old.src, at+n) {
			continue
		}
		next := old.src[:at] + edits[rng.Intn(len(edits))] + old.src[at+n:]
		want := full(next)
		got, ok := reparseDecl(old.file, old.diags, "a.wf", next)
		if ok {
			took++
			if len(want.diags) > 0 {
				t.Fatalf("edit %d: re-parse accepted a text with syntax errors: %v", i, want.diags)
			}
			if d := cmp.Diff(dumpFile(want.file), dumpFile(got)); d != "" {
				t.Fatalf("edit %d at %d: trees differ (-full +reparse):\n%s", i, at, d)
			}
		}
		if len(want.diags) == 0 {
			old = want
		}
	}
	if took < 50 {
		t.Errorf("the re-parse was taken %d times of 300 edits", took)
	}
	t.Logf("re-parsed one declaration for %d of 300 edits", took)
}

func utf8Boundary(s string, i int) bool { return i >= len(s) || s[i] < 0x80 || s[i] >= 0xC0 }
