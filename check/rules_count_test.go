package check

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	wast "github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/diag"
)

// TestRuleFiles checks what docs/contributing.md promises about rules: a rule
// is one file (rule_*.go, one rule each), listed once in rules, with one
// hook, a scope and its catalogued codes, each code reported by one rule
// and wanted by a golden case under testdata/cases.
func TestRuleFiles(t *testing.T) {
	files, _ := filepath.Glob("rule_*.go")
	var decls int
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, d := range af.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, sp := range g.Specs {
				if v, ok := sp.(*ast.ValueSpec); ok && len(v.Values) == 1 {
					if cl, ok := v.Values[0].(*ast.CompositeLit); ok {
						if id, ok := cl.Type.(*ast.Ident); ok && id.Name == "rule" {
							n++
						}
					}
				}
			}
		}
		if n != 1 {
			t.Errorf("%s declares %d rules, want 1", f, n)
		}
		decls += n
	}
	if decls != len(rules) {
		t.Errorf("%d rules in rule_*.go files, %d in rules", decls, len(rules))
	}
	cases := wantedCodes(t)
	seen := map[diag.ID]string{}
	for _, r := range rules {
		hooks := 0
		for _, set := range []bool{r.workflow != nil, r.state != nil, r.milestone != nil, r.handler != nil, r.block != nil, r.entity != nil} {
			if set {
				hooks++
			}
		}
		if hooks != 1 || r.scope == 0 || len(r.codes) == 0 || r.name == "" {
			t.Errorf("rule %q: %d hooks, scope %d, %d codes; want one hook, a scope and codes", r.name, hooks, r.scope, len(r.codes))
		}
		for _, code := range r.codes {
			if other, dup := seen[code]; dup {
				t.Errorf("%s is reported by rules %q and %q", code, other, r.name)
			}
			seen[code] = r.name
			if _, ok := diag.Lookup(code); !ok {
				t.Errorf("rule %q reports %s, which is not in the catalogue", r.name, code)
			}
			if !cases[code] {
				t.Errorf("rule %q: no golden case under testdata/cases wants %s", r.name, code)
			}
		}
	}
}

// wantedCodes are the codes some golden case's `// want` names.
func wantedCodes(t *testing.T) map[diag.ID]bool {
	re := regexp.MustCompile(`// want((?:\s+WF\d{3})+)`)
	out := map[diag.ID]bool{}
	err := filepath.WalkDir("../testdata/cases", func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".wf") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, m := range re.FindAllStringSubmatch(string(b), -1) {
			for _, c := range strings.Fields(m[1]) {
				out[diag.ID(c)] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestPartialRecheckScope: whether the editor may re-check only the edited
// workflows is read from the rules' declared scopes. Today no rule reads
// across workflows; a rule declared with program scope, added to the list,
// makes the answer no (and lsp's TestRecheckAsksRuleScopes shows
// the server then checks the whole program).
func TestPartialRecheckScope(t *testing.T) {
	if !PartialRecheckSafe() {
		t.Fatal("no rule reads across workflows, yet a partial re-check is refused")
	}
	wide := &rule{name: "across workflows", codes: []diag.ID{diag.WF201}, scope: scopeProgram,
		workflow: func(*checker, *walk, *wast.Workflow) {}}
	if partialSafe(append(append([]*rule{}, rules...), wide)) {
		t.Error("a program-wide rule still allows a partial re-check")
	}
	types := &rule{name: "types only", codes: []diag.ID{diag.WF207}, scope: scopeTypes}
	if !partialSafe([]*rule{types}) {
		t.Error("a rule over the types alone refuses a partial re-check")
	}
}
