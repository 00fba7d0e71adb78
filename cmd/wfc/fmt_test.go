package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFmtWriteKeepsCRLF: -w keeps a file's CRLF line ends.
func TestFmtWriteKeepsCRLF(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "crlf.wf")
	if err := os.WriteFile(p, []byte("enum E{A,\r\nB}\r\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"fmt", "-w", p}, nil, &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	got, _ := os.ReadFile(p)
	if want := "enum E {\r\n  A,\r\n  B\r\n}\r\n"; string(got) != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestFmtFailedWriteLeavesOriginal: when the atomic write fails the file is
// intact, no temporary file is left, and the exit status is 2.
func TestFmtFailedWriteLeavesOriginal(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.wf")
	orig := "enum E{A}\n"
	if err := os.WriteFile(p, []byte(orig), 0o644); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("disk full")
	fsys := fileSystem{createTemp: os.CreateTemp, rename: func(string, string) error { return boom }}
	var stdout, stderr bytes.Buffer
	err := runFmt(fmtFlags{write: true}, []string{p}, nil, &stdout, &stderr, fsys)
	var ee exitError
	if !errors.As(err, &ee) || ee.code != exitUsage {
		t.Fatalf("got %v, want exit %d", err, exitUsage)
	}
	if !strings.Contains(stderr.String(), "cannot write "+p+": disk full") {
		t.Errorf("stderr: %q", stderr.String())
	}
	if got, _ := os.ReadFile(p); string(got) != orig {
		t.Errorf("original changed: %q", got)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("left behind: %v", ents)
	}
}

// TestFmtDiffIsMinimal: -d shows only the lines that change, each once.
func TestFmtDiffIsMinimal(t *testing.T) {
	old := "workflow W {\n  Initial = A;\n  Autostart = true;\n  event Go();\n  terminal A { }\n}\n"
	new := "workflow W {\n  Initial   = A;\n  Autostart = true;\n  event Go();\n  terminal A { }\n}\n"
	want := "--- a/w.wf\n+++ b/w.wf\n@@ -1,5 +1,5 @@\n workflow W {\n-  Initial = A;\n+  Initial   = A;\n   Autostart = true;\n   event Go();\n   terminal A { }\n"
	if got := unifiedDiff("w.wf", old, new); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
