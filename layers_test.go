package wfc_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// floors are the repository's packages by stage, from the ground up
// (docs/architecture.md draws them). A package's non-test files may import
// only packages on a lower floor: nothing imports upward, and nothing
// imports a package beside it on its own floor, so each floor can be read
// knowing only the ones below it. A new package must be given its floor
// here; TestLayers fails until it is.
var floors = [][]string{
	// 0: what every stage reports through, and leaves with no project imports.
	{"diag", "check/timespan", "internal/suggest", "internal/safefile", "internal/scaling",
		"internal/corpus", "internal/ghrunner", "cmd/wfc-mutate/mutate", "lsp/protocol"},
	// 1: the front end's tokens and tree, the vocabulary, configuration, the cache.
	{"lexer", "ast", "check/vocab", "config", "internal/cache"},
	// 2: the parser.
	{"parser"},
	// 3: the checker and its model; the formatter (tokens only); golden files.
	{"check", "format", "internal/golden"},
	// 4: lowering.
	{"codegen"},
	// 5: exports, tools over the model, the runtime.
	{"codegen/temporal", "graph", "interp"},
	// 6: tests in the language; pictures.
	{"wftest", "picture", "interp/interptest"},
	// 7: the driver.
	{"."},
	// 8: the driver's front ends: the language server and the playground.
	{"lsp", "play"},
	// 9: the commands (play/wasm is the playground's WebAssembly main).
	{"cmd/wfc", "cmd/wfc-gen", "cmd/wfc-mutate", "play/wasm"},
}

const modulePath = "github.com/wfc-lang/wfc"

func TestLayers(t *testing.T) {
	floorOf := map[string]int{}
	for i, f := range floors {
		for _, p := range f {
			floorOf[p] = i
		}
	}
	pkgs := map[string][]string{} // package dir → project packages its non-test files import
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != "." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules" || name == "integration" || name == "editors") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, src, parser.ImportsOnly)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		if _, ok := pkgs[dir]; !ok {
			pkgs[dir] = nil
		}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			switch {
			case p == modulePath:
				p = "."
			case strings.HasPrefix(p, modulePath+"/"):
				p = strings.TrimPrefix(p, modulePath+"/")
			default:
				continue
			}
			if !slices.Contains(pkgs[dir], p) {
				pkgs[dir] = append(pkgs[dir], p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) < len(floorOf) {
		t.Fatalf("found %d packages, fewer than the %d floors list: is the walk broken?", len(pkgs), len(floorOf))
	}
	for dir, imports := range pkgs {
		fl, ok := floorOf[dir]
		if !ok {
			t.Errorf("package %s has no floor: give it one in floors (layers_test.go) and docs/architecture.md", dir)
			continue
		}
		for _, p := range imports {
			pf, ok := floorOf[p]
			switch {
			case !ok:
				t.Errorf("%s imports %s, which has no floor", dir, p)
			case pf >= fl:
				t.Errorf("%s (floor %d) imports %s (floor %d): a package imports only what lies below it", dir, fl, p, pf)
			}
		}
	}
	for p := range floorOf {
		if _, ok := pkgs[p]; !ok {
			t.Errorf("floors lists %s, which is not a package (moved or gone?)", p)
		}
	}
}
