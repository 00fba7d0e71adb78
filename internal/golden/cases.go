package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/parser"
)

// The golden cases of testdata/cases, as every package's tests read them:
// the parser's (its syntax codes), the checker's (every code, through the
// driver), the root package's (every fix applied) and the command's (the
// text and JSON renderings). One reader, one reading of `// want`, one
// check of ranges: a case means the same to each of them.

// Case is one golden case: a .wf file, or a folder of .wf files read as
// one program.
type Case struct {
	// Name is the file's or the folder's name in testdata/cases
	// ("wf101_duplicate.wf", "multi_file").
	Name string
	// Path is the file or folder, as found from the test's directory.
	Path string
	// Files are the program's sources, named relative to testdata
	// ("cases/wf101_duplicate.wf"), so renderings do not depend on where
	// the test runs.
	Files []parser.Source
}

// Base is the case's name without `.wf`: the stem of its golden renderings
// and the name of its subtest.
func (c Case) Base() string { return strings.TrimSuffix(c.Name, ".wf") }

// Sources maps each file's name to its text.
func (c Case) Sources() diag.Sources {
	m := diag.Sources{}
	for _, f := range c.Files {
		m[f.Name] = f.Src
	}
	return m
}

// Cases reads every case of testdata/cases, in name order; testdata is
// the repository's testdata folder as seen from the test ("../testdata").
func Cases(t testing.TB, testdata string) []Case {
	t.Helper()
	dir := filepath.Join(testdata, "cases")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []Case
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		var files []string
		switch {
		case e.IsDir():
			files, _ = filepath.Glob(filepath.Join(p, "*.wf"))
			slices.Sort(files)
		case strings.HasSuffix(e.Name(), ".wf"):
			files = []string{p}
		default:
			continue // a rendering (.txt, .json)
		}
		c := Case{Name: e.Name(), Path: p}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			rel, err := filepath.Rel(testdata, f)
			if err != nil {
				t.Fatal(err)
			}
			c.Files = append(c.Files, parser.Source{Name: filepath.ToSlash(rel), Src: string(b)})
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		t.Fatalf("no cases in %s", dir)
	}
	return out
}

// WantRE is a `// want` annotation: the codes a line must report.
var WantRE = regexp.MustCompile(`// want((?:\s+WF\d{3})+)`)

// Wants returns "file:line: CODE" for every code the `// want` annotations
// of files name and keep accepts (nil keeps all), sorted.
func Wants(files []parser.Source, keep func(diag.ID) bool) []string {
	var out []string
	for _, s := range files {
		for i, line := range strings.Split(s.Src, "\n") {
			for _, m := range WantRE.FindAllStringSubmatch(line, -1) {
				for _, code := range strings.Fields(m[1]) {
					if keep == nil || keep(diag.ID(code)) {
						out = append(out, fmt.Sprintf("%s:%d: %s", s.Name, i+1, code))
					}
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// Wanted reports whether some `// want` annotation of text names code.
func Wanted(text string, code diag.ID) bool {
	for _, m := range WantRE.FindAllStringSubmatch(text, -1) {
		if slices.Contains(strings.Fields(m[1]), string(code)) {
			return true
		}
	}
	return false
}

// Got returns "file:line: CODE" for every diagnostic, sorted: what Wants
// is compared with.
func Got(ds []diag.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%s:%d: %s", d.File, d.Range.Start.Line, d.Code))
	}
	slices.Sort(out)
	return out
}

// CheckRanges asserts that every range of ds (its own, its related
// locations', its fix edits') lies inside its file, is ordered, and has a
// line and column that agree with its offset (columns count code points;
// lines end at LF, CR LF or a lone CR, as the lexer counts them).
func CheckRanges(t testing.TB, srcs diag.Sources, ds []diag.Diagnostic) {
	t.Helper()
	in := func(file string, r diag.Range, what string) {
		src, ok := srcs[file]
		if !ok {
			t.Errorf("%s names unknown file %q", what, file)
			return
		}
		if r.Start.Offset < 0 || int(r.End.Offset) > len(src) || r.Start.Offset > r.End.Offset ||
			r.Start.Line < 1 || r.Start.Column < 1 || r.End.Line < r.Start.Line {
			t.Errorf("%s has range %+v outside %s (%d bytes)", what, r, file, len(src))
			return
		}
		before := src[:r.Start.Offset]
		line := int32(strings.Count(before, "\n")+strings.Count(before, "\r")-strings.Count(before, "\r\n")) + 1
		lineStart := strings.LastIndexAny(before, "\r\n") + 1
		if lineStart == 0 && strings.HasPrefix(src, "\uFEFF") && r.Start.Offset >= 3 {
			lineStart = 3 // a byte order mark takes no column
		}
		col := int32(utf8.RuneCountInString(src[lineStart:r.Start.Offset])) + 1
		if line != r.Start.Line || col != r.Start.Column {
			t.Errorf("%s starts at offset %d = %d:%d but says %d:%d", what, r.Start.Offset, line, col, r.Start.Line, r.Start.Column)
		}
	}
	for _, d := range ds {
		in(d.File, d.Range, string(d.Code))
		for _, r := range d.Related {
			in(r.File, r.Range, string(d.Code)+" related")
		}
		for _, f := range d.Fixes {
			for _, e := range f.Edits {
				in(e.File, e.Range, string(d.Code)+" fix")
			}
		}
	}
}
