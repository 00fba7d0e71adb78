package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/wfc-lang/wfc/diag"
)

// updateDocs rewrites the generated parts of README.md and docs/language.md.
// It is a flag of its own so that regenerating golden files (-update) never
// rewrites documentation by surprise.
var updateDocs = flag.Bool("update-docs", false, "rewrite the generated sections of README.md and docs/language.md")

// generatedSection is a part of a document that is generated from the code
// and kept between two HTML comments.
type generatedSection struct {
	file       string // relative to cmd/wfc
	begin, end string
	render     func() string
}

var generatedSections = []generatedSection{
	{"../../README.md", "<!-- codes:begin -->\n", "<!-- codes:end -->", codeTable},
	{"../../docs/language.md", "<!-- catalogue:begin -->\n", "<!-- catalogue:end -->", codeCatalogue},
}

// codeTable is the README's one-line-per-code table.
func codeTable() string {
	var b strings.Builder
	b.WriteString("| code | severity | meaning |\n|---|---|---|\n")
	for _, c := range diag.Codes {
		fmt.Fprintf(&b, "| %s | %s | %s |\n", c.Code, c.Severity, escapeCell(c.Title))
	}
	return b.String()
}

// codeCatalogue is the reference's catalogue: the table, then per code its
// explanation, as `wfc explain` prints it without the examples.
func codeCatalogue() string {
	var b strings.Builder
	b.WriteString(codeTable())
	for _, c := range diag.Codes {
		fmt.Fprintf(&b, "\n#### %s\n\n%s · %s\n\n%s\n", c.Code, c.Severity, c.Title, c.Explain)
		if f := c.MachineFix(); f != "" {
			fmt.Fprintf(&b, "\nMachine-applicable fix (`wfc check --fix`): %s.\n", f)
		}
	}
	return b.String()
}

func escapeCell(s string) string { return strings.ReplaceAll(s, "|", "\\|") }

// TestGeneratedDocs keeps the tables of diagnostics in README.md and
// docs/language.md in step with the catalogue in diag/codes.go
// (go test ./cmd/wfc -run GeneratedDocs -update-docs rewrites them).
func TestGeneratedDocs(t *testing.T) {
	for _, g := range generatedSections {
		t.Run(strings.TrimPrefix(g.file, "../../"), func(t *testing.T) {
			b, err := os.ReadFile(g.file)
			if err != nil {
				t.Fatal(err)
			}
			s := string(b)
			i, j := strings.Index(s, g.begin), strings.Index(s, g.end)
			if i < 0 || j < i {
				t.Fatalf("%s lacks the markers %q … %q", g.file, g.begin, g.end)
			}
			want := s[:i+len(g.begin)] + g.render() + s[j:]
			if want == s {
				return
			}
			if *updateDocs {
				if err := os.WriteFile(g.file, []byte(want), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			t.Errorf("the generated section of %s is out of date: run go test ./cmd/wfc -run GeneratedDocs -update-docs", g.file)
		})
	}
}

// outsideRefs are what a user of the repository cannot open: the product
// brief and its sources lived outside it.
var outsideRefs = regexp.MustCompile(`LANGUAGE\.md|shared/|(?i:seed 00\d)|§\d`)

// TestNothingPointsOutside: the help of every command, `wfc explain` of every
// code, the documentation and the golden outputs (every message) refer only
// to what the repository holds.
func TestNothingPointsOutside(t *testing.T) {
	texts := map[string]string{}
	root := newRoot(strings.NewReader(""), io.Discard, io.Discard)
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		var out bytes.Buffer
		r := newRoot(strings.NewReader(""), &out, &out)
		r.SetArgs(append(strings.Fields(c.CommandPath())[1:], "--help"))
		_ = r.Execute()
		texts[c.CommandPath()+" --help"] = out.String()
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	for _, c := range diag.Codes {
		texts["wfc explain "+string(c.Code)] = c.Help()
	}
	for _, pattern := range []string{"../../README.md", "../../docs/*.md", "../../docs/*/*.json",
		"../../testdata/*/*.txt", "../../testdata/*/*.json", "../../testdata/formats/*"} {
		files, _ := filepath.Glob(pattern)
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			texts[f] = string(b)
		}
	}
	// Doc comments are documentation too (test files may cite their sources).
	err := filepath.WalkDir("../..", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return err
		}
		b, err := os.ReadFile(p)
		texts[p] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(texts) < 60 {
		t.Fatalf("only %d texts scanned", len(texts))
	}
	for name, s := range texts {
		if m := outsideRefs.FindString(s); m != "" {
			t.Errorf("%s refers to %q, which is not in the repository", name, m)
		}
	}
}

// TestDecisionsInReference: every decision the README lists is also in the
// language reference, which is the complete list (a README bullet's bold
// lead, such as "**Nesting limit.**", must appear in docs/language.md's
// Decisions).
func TestDecisionsInReference(t *testing.T) {
	section := func(file string) string {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		i := strings.Index(s, "\n## Decisions\n")
		if i < 0 {
			t.Fatalf("%s has no Decisions section", file)
		}
		s = s[i+1:]
		if j := strings.Index(s[3:], "\n## "); j >= 0 {
			s = s[:j+3]
		}
		return s
	}
	readme, ref := section("../../README.md"), section("../../docs/language.md")
	leads := regexp.MustCompile(`(?m)^- (\*\*[^*]+\*\*)`).FindAllStringSubmatch(readme, -1)
	if len(leads) < 5 {
		t.Fatalf("found only %d decisions in README.md", len(leads))
	}
	for _, m := range leads {
		if !strings.Contains(ref, m[1]) {
			t.Errorf("README.md decides %s, but docs/language.md's Decisions does not say it", m[1])
		}
	}
}

// TestDocTables: the schedule tables docs/language.md and README.md show are
// what wfc prints.
func TestDocTables(t *testing.T) {
	const capped = "workflow W { Initial = A; event Go();\n" +
		"  state A { subscribe Go(); on Go { Workflow.Once(\"a\", retry: Backoff.Exponential(TimeSpan.FromSeconds(2)).Cap(TimeSpan.FromMinutes(5)).MaxAttempts(12)) { X.Y(); } goto Done; } }\n" +
		"  terminal Done { } }\n"
	runs := []struct {
		args  []string
		stdin string
		docs  []string
	}{
		{[]string{"schedule", "../../testdata/examples/jobflow"}, "", []string{"../../docs/language.md", "../../README.md"}},
		{[]string{"schedule", "--stdin-filename", "flow.wf", "-"}, capped, []string{"../../docs/language.md"}},
	}
	for _, r := range runs {
		var out, errs bytes.Buffer
		if code := run(r.args, strings.NewReader(r.stdin), &out, &errs); code != 0 {
			t.Fatalf("wfc %v: exit %d: %s", r.args, code, errs.String())
		}
		table := strings.ReplaceAll(out.String(), "../../testdata/", "testdata/")
		for _, doc := range r.docs {
			b, err := os.ReadFile(doc)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), table) {
				t.Errorf("%s does not show what wfc %v prints:\n%s", doc, r.args, table)
			}
		}
	}
}

// TestReadmeTesting runs the worked example of README.md's "Testing and
// running workflows": its two files, written to a directory, give the
// output shown for `wfc test -cover .`, and with the first test's end moved
// to 40 minutes the failure shown for `wfc test -run approved .`.
func TestReadmeTesting(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.Index(s, "\n## Testing and running workflows\n")
	if i < 0 {
		t.Fatal("README.md has no section Testing and running workflows")
	}
	s = s[i+1:]
	s = s[:strings.Index(s[3:], "\n## ")+3]
	files := map[string]string{}
	for _, m := range regexp.MustCompile("(?s)```wf\n// ([a-z_]+\\.wf)\n(.*?)```").FindAllStringSubmatch(s, -1) {
		files[m[1]] = m[2]
	}
	if len(files) != 2 {
		t.Fatalf("want the program and its tests in the section, found %d files", len(files))
	}
	outputs := map[string]string{}
	for _, m := range regexp.MustCompile("(?s)```\n\\$ wfc (test [^\n]*)\n(.*?)```").FindAllStringSubmatch(s, -1) {
		outputs[m[1]] = m[2]
	}
	elapsed := regexp.MustCompile(`\(\d+\.\d\ds\)`)
	runs := []struct {
		cmd      string
		edit     [2]string
		wantExit int
	}{
		{"test -cover .", [2]string{}, 0},
		{"test -run approved .", [2]string{"Expect.End(Published, at: TimeSpan.FromMinutes(45));", "Expect.End(Published, at: TimeSpan.FromMinutes(40));"}, exitFound},
	}
	for _, r := range runs {
		want, ok := outputs[r.cmd]
		if !ok {
			t.Fatalf("README.md does not show `wfc %s`", r.cmd)
		}
		dir := t.TempDir()
		for name, src := range files {
			if r.edit[0] != "" {
				if !strings.Contains(src, r.edit[0]) && strings.HasSuffix(name, "_test.wf") {
					t.Fatalf("%s lacks %q", name, r.edit[0])
				}
				src = strings.Replace(src, r.edit[0], r.edit[1], 1)
			}
			if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		wd, _ := os.Getwd()
		if err := os.Chdir(dir); err != nil {
			t.Fatal(err)
		}
		var out, errs bytes.Buffer
		code := run(strings.Fields(r.cmd), strings.NewReader(""), &out, &errs)
		if err := os.Chdir(wd); err != nil {
			t.Fatal(err)
		}
		if code != r.wantExit {
			t.Errorf("wfc %s: exit %d, want %d: %s", r.cmd, code, r.wantExit, errs.String())
		}
		if got := elapsed.ReplaceAllString(out.String(), "(0.00s)"); got != want {
			t.Errorf("README.md shows for wfc %s:\n%s\nwfc prints:\n%s", r.cmd, want, got)
		}
	}
}
