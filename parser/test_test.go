package parser

import (
	"strings"
	"testing"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/diag"
)

// rangeText is the source a range covers.
func rangeText(src string, r diag.Range) string { return src[r.Start.Offset:r.End.Offset] }

// A test declaration: its range, the keyword's, the name's, each setting's
// and statement's, exactly; every node lies inside it (ast.Inspect).
func TestTestDeclaration(t *testing.T) {
	src := "enum E { A }\n\ntest \"escalates \\\"now\\\"\" {\n  Workflow = W;\n  Send(Go(A), at: TimeSpan.FromMinutes(1));\n  Expect.End(Done);\n}\n"
	f, ds := parseOne(t, src)
	if len(ds) != 0 {
		t.Fatal(ds)
	}
	if len(f.Decls) != 2 {
		t.Fatalf("want 2 declarations, got %d", len(f.Decls))
	}
	tt, ok := f.Decls[1].(*ast.Test)
	if !ok {
		t.Fatalf("second declaration is %T", f.Decls[1])
	}
	checks := []struct{ what, got, want string }{
		{"test", rangeText(src, tt.Range), src[strings.Index(src, "test") : strings.LastIndex(src, "}")+1]},
		{"keyword", rangeText(src, tt.Keyword), "test"},
		{"name", rangeText(src, tt.Name.Range), `"escalates \"now\""`},
		{"name value", tt.Name.Value, `escalates "now"`},
		{"setting", rangeText(src, tt.Settings[0].Range), "Workflow = W;"},
		{"stmt 1", rangeText(src, tt.Stmts[0].Range), "Send(Go(A), at: TimeSpan.FromMinutes(1));"},
		{"stmt 2", rangeText(src, tt.Stmts[1].Range), "Expect.End(Done);"},
		{"call 2", rangeText(src, tt.Stmts[1].Call.Range), "Expect.End(Done)"},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: %q, want %q", c.what, c.got, c.want)
		}
	}
	if tt.DeclName() != nil || tt.File != f || tt.Bad {
		t.Errorf("DeclName %v, File %v, Bad %v", tt.DeclName(), tt.File == f, tt.Bad)
	}
	for _, s := range shape(tt) {
		if s == "" {
			t.Error("empty node")
		}
	}
	ast.Inspect(tt, func(n ast.Node) bool {
		if n != nil && (n.Pos().Offset < tt.Pos().Offset || n.End().Offset > tt.End().Offset) {
			t.Errorf("%T %v-%v outside the test", n, n.Pos(), n.End())
		}
		return true
	})
}

// `test` is a keyword only before a string: programs that use it as a name
// parse as before.
func TestTestIsContextual(t *testing.T) {
	src := "enum test { test }\nworkflow W {\n  Initial = test;\n  event test(test test);\n  state test { subscribe test(test test); on test { goto test; } }\n}\n"
	f, ds := parseOne(t, src)
	if len(ds) != 0 {
		t.Fatal(ds)
	}
	for _, d := range f.Decls {
		if _, ok := d.(*ast.Test); ok {
			t.Errorf("a test was read in %q", src)
		}
	}
}

// Errors inside a test are reported at their token and do not reach the
// declarations around it; a test that lost its `}` ends where the next
// declaration begins.
func TestTestRecovery(t *testing.T) {
	tests := []struct {
		src   string
		want  []string // messages, in order (substrings)
		decls int
	}{
		{"test \"a\" { Send(Go()) Expect.State(A); }\nenum E { A }\n", []string{"expected `;`"}, 2},
		{"test \"a\" { Workflow = ; }\nenum E { A }\n", []string{"expected a value after `=`"}, 2},
		{"test \"a\" { x; }\nenum E { A }\n", []string{"`x` is not a test item"}, 2},
		{"test \"a\" { a.b = 1; }\n", []string{"expected a setting's name before `=`"}, 1},
		{"test \"a\" {\n  Send(Go());\ntest \"b\" { }\n", []string{"`}`"}, 2},
		{"test \"a\" { } junk\n", []string{"unexpected `junk`"}, 1},
		{"test \"a\" Send();\n", []string{"expected `{` after `test \"a\"`"}, 1},
	}
	for _, tt := range tests {
		f, ds := parseOne(t, tt.src)
		if len(ds) != len(tt.want) {
			t.Errorf("%q: %d diagnostics %v, want %d", tt.src, len(ds), ds, len(tt.want))
			continue
		}
		for i, d := range ds {
			if !strings.Contains(d.Message, tt.want[i]) {
				t.Errorf("%q: message %q, want it to contain %q", tt.src, d.Message, tt.want[i])
			}
		}
		if len(f.Decls) != tt.decls {
			t.Errorf("%q: %d declarations, want %d", tt.src, len(f.Decls), tt.decls)
		}
	}
}
