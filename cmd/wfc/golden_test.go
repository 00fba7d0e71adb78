package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/wfc-lang/wfc/diag"
	goldenfile "github.com/wfc-lang/wfc/internal/golden"
	"github.com/wfc-lang/wfc/parser"
)

var update = flag.Bool("update", false, "rewrite golden files")

const testdataDir = "../../testdata"

// loadCase reads a case: a .wf file, or a directory of .wf files forming one
// program. Files are named relative to testdata/ so goldens are stable.
func loadCase(t testing.TB, path string) *loaded {
	t.Helper()
	var files []string
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		ms, _ := filepath.Glob(filepath.Join(path, "*.wf"))
		sort.Strings(ms)
		files = ms
	} else {
		files = []string{path}
	}
	l := &loaded{bytes: diag.Sources{}}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(testdataDir, f)
		name := filepath.ToSlash(rel)
		l.sources = append(l.sources, parser.Source{Name: name, Src: string(b)})
		l.bytes[name] = string(b)
		l.order = append(l.order, name)
	}
	return l
}

// renderText renders diagnostics as `wfc check` does without color.
func renderText(t testing.TB, l *loaded, ds []diag.Diagnostic) []byte {
	var b bytes.Buffer
	if err := diag.WriteText(&b, ds, l.bytes, diag.TextOptions{}); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(&b, diag.Summary(ds, len(l.order)))
	return b.Bytes()
}

func renderJSON(t testing.TB, l *loaded, ds []diag.Diagnostic) []byte {
	var b bytes.Buffer
	if err := diag.WriteJSON(&b, ds, len(l.order)); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

var schemas sync.Map

// fataler is the part of testing.TB that validateJSON needs, so CLI
// scripts can use it too.
type fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

// validateJSON validates doc against a schema of docs/schema.
func validateJSON(t fataler, schemaFile string, doc []byte) {
	t.Helper()
	v, ok := schemas.Load(schemaFile)
	if !ok {
		c := jsonschema.NewCompiler()
		// Every schema is known by its $id, so one may refer to another
		// (test.schema.json holds transcripts).
		others, _ := filepath.Glob("../../docs/schema/*.schema.json")
		for _, o := range others {
			if b, err := os.ReadFile(o); err == nil {
				if doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b)); err == nil {
					_ = c.AddResource("https://github.com/wfc-lang/wfc/docs/schema/"+filepath.Base(o), doc)
				}
			}
		}
		s, err := c.Compile(filepath.Join("../../docs/schema", schemaFile))
		if err != nil {
			t.Fatalf("compiling schema %s: %v", schemaFile, err)
		}
		v, _ = schemas.LoadOrStore(schemaFile, s)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, doc)
	}
	if err := v.(*jsonschema.Schema).Validate(inst); err != nil {
		t.Fatalf("output does not match %s: %v\n%s", schemaFile, err, doc)
	}
}

// golden compares got with the golden file, or rewrites it with -update.
func golden(t *testing.T, file string, got []byte) {
	t.Helper()
	goldenfile.Check(t, file, string(got), *update, "cmd/wfc")
}

// TestCases checks every case's golden text and JSON renderings, as
// `wfc check` prints them; the JSON is validated against the schema. The
// `// want` annotations and the ranges are checked where the diagnostics
// are made, by check's TestCases.
func TestCases(t *testing.T) {
	for _, c := range goldenfile.Cases(t, testdataDir) {
		base := strings.TrimSuffix(c.Path, ".wf")
		t.Run(c.Base(), func(t *testing.T) {
			l := loadCase(t, c.Path)
			a := analyze(l)
			golden(t, base+".txt", renderText(t, l, a.diags))
			js := renderJSON(t, l, a.diags)
			validateJSON(t, "check.schema.json", js)
			golden(t, base+".json", js)
		})
	}
}

// TestExamples: each folder of testdata/examples is one program, meant to
// be checked on its own, and checks with zero diagnostics. Nothing else sits
// there, so that no command mixes two programs by accident.
func TestExamples(t *testing.T) {
	entries, err := os.ReadDir(filepath.Join(testdataDir, "examples"))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) < 2 {
		t.Fatalf("want at least two examples, found %v", entries)
	}
	for _, e := range entries {
		if !e.IsDir() {
			t.Errorf("%s: testdata/examples holds one folder per program, no loose files", e.Name())
			continue
		}
		t.Run(e.Name(), func(t *testing.T) {
			l := loadCase(t, filepath.Join(testdataDir, "examples", e.Name()))
			a := analyze(l)
			if len(a.diags) != 0 {
				t.Errorf("want no diagnostics, got:\n%s", renderText(t, l, a.diags))
			}
		})
	}
}
