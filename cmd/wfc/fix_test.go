package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wfc-lang/wfc/diag"
)

const fixable = "workflow W { Initial = A; event Go();\n  state A { subscribe Go(); on Go { goto Done; Mail.Send(); } }\n  terminal Done { } }\n"

// TestFailedWriteLeavesOriginal: when the rename (or the temporary file)
// fails, the original is intact, no temporary file is left, and the exit
// status says a path could not be written.
func TestFailedWriteLeavesOriginal(t *testing.T) {
	boom := errors.New("disk full")
	cases := map[string]fileSystem{
		"rename fails": {createTemp: os.CreateTemp, rename: func(string, string) error { return boom }},
		"create fails": {createTemp: func(string, string) (*os.File, error) { return nil, boom }, rename: os.Rename},
	}
	for name, fsys := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "flow.wf")
			if err := os.WriteFile(path, []byte(fixable), 0o600); err != nil {
				t.Fatal(err)
			}
			var stderr bytes.Buffer
			l := load([]string{path}, nil, "-", &stderr)
			a := analyze(l)
			var out bytes.Buffer
			a, err := fixFiles(l, a, checkFlags{fix: true}, &out, &stderr, fsys)
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := os.ReadFile(path); string(got) != fixable {
				t.Errorf("the original changed:\n%s", got)
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != 1 {
				t.Errorf("temporary files left behind: %v", entries)
			}
			if !strings.Contains(stderr.String(), "could not fix") || !strings.Contains(stderr.String(), "disk full") {
				t.Errorf("stderr does not say what failed: %q", stderr.String())
			}
			if !l.failed {
				t.Errorf("a failed write must make the exit status 2")
			}
			if count(a.diags, path, "WF202") != 1 {
				t.Errorf("the remaining diagnostics should be those of the unchanged file: %v", codesOf(a.diags))
			}
		})
	}
}

func TestAtomicWriteKeepsMode(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "flow.wf")
	if err := os.WriteFile(path, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := osFS.writeAtomic(path, "new"); err != nil {
		t.Fatal(err)
	}
	info, _ := os.Stat(path)
	got, _ := os.ReadFile(path)
	if string(got) != "new" || info.Mode().Perm() != 0o640 {
		t.Errorf("got %q mode %v", got, info.Mode())
	}
}

func TestUnifiedDiff(t *testing.T) {
	old := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\n"
	new := "a\nb\nC\nd\ne\nf\ng\nh\ni\nj\nk\nm\n"
	want := "--- a/x\n+++ b/x\n@@ -1,6 +1,6 @@\n a\n b\n-c\n+C\n d\n e\n f\n@@ -9,5 +9,4 @@\n i\n j\n k\n-l\n m\n"
	if got := unifiedDiff("x", old, new); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// TestUnifiedDiffIsMinimal: two changes with one unchanged line between them
// keep that line as context (the diff --fix --diff used to print removed and
// added it again), and a name with a line break cannot forge a header.
func TestUnifiedDiffIsMinimal(t *testing.T) {
	old := "a\nb\nc\nd\ne\n"
	new := "a\nB\nc\nD\ne\n"
	want := "--- a/x\\ny\n+++ b/x\\ny\n@@ -1,5 +1,5 @@\n a\n-b\n+B\n c\n-d\n+D\n e\n"
	if got := unifiedDiff("x\ny", old, new); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// FuzzKeepLineEndings: in a CRLF file, any edit adjusted by keepLineEndings
// leaves every line break a CRLF.
func FuzzKeepLineEndings(f *testing.F) {
	f.Add("a // x\nb\n", uint16(1), uint16(6), "")
	f.Add("a\nb\nc\n", uint16(0), uint16(2), "x\ny\n")
	f.Fuzz(func(t *testing.T, text string, start, end uint16, newText string) {
		if strings.Contains(text, "\r") || strings.Contains(newText, "\r") || !strings.Contains(text, "\n") {
			return
		}
		src := strings.ReplaceAll(text, "\n", "\r\n")
		s, e := int(start)%(len(src)+1), int(end)%(len(src)+1)
		if s > e {
			s, e = e, s
		}
		// Edits start and end on character boundaries of the CRLF text, as
		// the checker's do: never between a CR and its LF at the start.
		if s > 0 && s < len(src) && src[s-1] == '\r' {
			return
		}
		edit := diag.Edit{Range: diag.Range{Start: diag.Pos{Offset: int32(s)}, End: diag.Pos{Offset: int32(e)}}, NewText: newText}
		out, err := diag.ApplyEdits(src, keepLineEndings(src, []diag.Edit{edit}))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(strings.ReplaceAll(out, "\r\n", ""), "\n") {
			t.Errorf("a bare LF in %q (edit %d-%d %q of %q)", out, s, e, newText, src)
		}
	})
}
