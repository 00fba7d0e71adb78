package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
