package mutate

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// sitesOf type-checks one file of package p and lists its sites as
// "line op old→new".
func sitesOf(t *testing.T, src string) []string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Uses: map[*ast.Ident]types.Object{}}
	if _, err := (&types.Config{}).Check("p", fset, []*ast.File{f}, info); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range Sites(fset, f, []byte(src), info) {
		out = append(out, fmt.Sprintf("%d %s %s→%s", s.Line, s.Op, s.Old, s.New))
	}
	return out
}

func TestSites(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"comparison and negation", "package p\nfunc f(a, b int) bool {\n\tif a < b {\n\t\treturn true\n\t}\n\treturn a == b\n}\n",
			[]string{"3 negate a < b→!(a < b)", "3 boundary <→<=", "4 const true→false", "6 equality ==→!="}},
		{"arithmetic on numbers, not strings", "package p\nfunc f(a int, s string) (int, string) {\n\treturn a * 2, s + \"x\"\n}\n",
			[]string{"3 arith *→/", "3 const 2→3"}},
		{"logical operators", "package p\nfunc f(a, b bool) bool {\n\treturn a && !b\n}\n",
			[]string{"3 logical &&→||"}},
		{"statements that can go", "package p\nvar n int\nfunc g() {}\nfunc f() {\n\tx := 1\n\tg()\n\tn = x\n\tn++\n}\n",
			[]string{"5 const 1→0", "6 delete g()→", "7 delete n = x→", "8 delete n++→"}},
		{"constants and constant expressions stay", "package p\nconst k = 1 << 2\nfunc f() int {\n\treturn k + 3*4\n}\n",
			[]string{"4 const 3→4", "4 const 4→5"}},
		{"a shadowed true is not the constant", "package p\nfunc f() bool {\n\ttrue := false\n\treturn true\n}\n",
			[]string{"3 const false→true"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, sitesOf(t, tc.src)); diff != "" {
				t.Errorf("sites (-want +got):\n%s", diff)
			}
		})
	}
}

func TestApply(t *testing.T) {
	s := Site{Start: 5, End: 6, New: ">="}
	if got := string(s.Apply([]byte("if a > b {"))); got != "if a >= b {" {
		t.Errorf("Apply = %q", got)
	}
}

func TestSampleIsSeededAndOrdered(t *testing.T) {
	var sites []Site
	for i := range 50 {
		sites = append(sites, Site{Start: i})
	}
	a, b := Sample(sites, 10, 7), Sample(sites, 10, 7)
	if diff := cmp.Diff(a, b); diff != "" {
		t.Fatalf("the same seed gave other mutants:\n%s", diff)
	}
	if cmp.Equal(a, Sample(sites, 10, 8)) {
		t.Error("seeds 7 and 8 gave the same sample")
	}
	for i := 1; i < len(a); i++ {
		if a[i-1].Start >= a[i].Start {
			t.Fatalf("sample not in source order: %v", a)
		}
	}
	if len(Sample(sites, 0, 1)) != 50 || len(Sample(sites, 80, 1)) != 50 {
		t.Error("n of 0 or more than the sites must give every site")
	}
}

// TestRun mutates testdata/max, whose test checks Max on two inputs and
// never calls Greet: negating Max's condition is killed, its boundary
// mutant is equivalent (a == b returns the same either way) and survives,
// and so does every change to Greet.
func TestRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and tests each mutant")
	}
	dir, err := filepath.Abs("testdata/max")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOWORK", "off")
	cfg := Config{Dir: dir, Package: ".", Timeout: time.Minute}
	sites, err := Load(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := Baseline(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	results, err := Run(context.Background(), cfg, sites, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range results {
		got = append(got, fmt.Sprintf("%d:%d %s %s", r.Line, r.Col, r.Op, r.Outcome))
	}
	want := []string{"7:5 negate killed", "7:7 boundary survived", "16:2 delete survived", "17:37 arith survived"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}
	if n, j := Score(results); n != 1 || j != 4 {
		t.Errorf("Score = %d of %d, want 1 of 4", n, j)
	}
	src, err := os.ReadFile(filepath.Join(dir, "max.go"))
	if err != nil || len(src) == 0 {
		t.Fatalf("the subject must be untouched: %v", err)
	}
}

func TestScore(t *testing.T) {
	rs := []Result{{Outcome: Killed}, {Outcome: TimedOut}, {Outcome: Survived}, {Outcome: NoBuild}}
	if n, j := Score(rs); n != 2 || j != 3 {
		t.Errorf("Score = %d of %d, want 2 of 3 (a mutant that does not build is not judged)", n, j)
	}
}
