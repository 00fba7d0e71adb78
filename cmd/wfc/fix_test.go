package main

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wfc-lang/wfc/diag"
)

const fixable = "workflow W { Initial = A; event Go();\n  state A { subscribe Go(); on Go { Workflow.Once(\"s\", retry: Backoff.Fixed(TimeSpan.FromSeconds(1)).MaxAttempts(2).MaxAttempts(2)) { } goto Done; } }\n  terminal Done { } }\n"

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
			sess := diagnosticsSession(l, nil, "-")
			a := analysisOf(sess.Run(context.Background(), l.sources))
			var out bytes.Buffer
			a, err := fixFiles(l, sess, a, checkFlags{fix: true}, &out, &stderr, fsys)
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
			if count(a.diags, path, "WF303") != 1 {
				t.Errorf("the remaining diagnostics should be those of the unchanged file: %v", codesOf(a.diags))
			}
		})
	}
}

// loadOne loads the file at path, named on the command line.
func loadOne(t *testing.T, path string) *loaded {
	t.Helper()
	var stderr bytes.Buffer
	l := load([]string{path}, nil, "-", &stderr)
	if l.failed || len(l.order) != 1 {
		t.Fatalf("cannot load %s: %s", path, stderr.String())
	}
	return l
}

// TestAtomicWriteKeepsMode: the permission bits and the setuid, setgid and
// sticky bits survive the replacement (the bits used to be dropped).
func TestAtomicWriteKeepsMode(t *testing.T) {
	for _, mode := range []fs.FileMode{0o640, 0o755 | fs.ModeSetuid, 0o750 | fs.ModeSetgid, 0o644 | fs.ModeSticky, 0o777 | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky} {
		t.Run(mode.String(), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "flow.wf")
			if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(path, mode); err != nil {
				t.Fatal(err)
			}
			if info, _ := os.Stat(path); info.Mode()&modeBits != mode {
				t.Skipf("this OS does not let the test set %v", mode)
			}
			l := loadOne(t, path)
			if err := l.write(osFS, l.order[0], "new"); err != nil {
				t.Fatal(err)
			}
			info, _ := os.Stat(path)
			got, _ := os.ReadFile(path)
			if string(got) != "new" || info.Mode()&modeBits != mode {
				t.Errorf("got %q mode %v, want mode %v", got, info.Mode(), mode)
			}
		})
	}
}

// TestWriteKeepsAConcurrentEdit: a file saved (by an editor) after wfc read
// it and before the rename is left as saved, whether the edit changes its
// size, only its content, or neither its size nor its time.
func TestWriteKeepsAConcurrentEdit(t *testing.T) {
	edits := map[string]func(path string) error{
		"longer":    func(p string) error { return os.WriteFile(p, []byte("old, edited"), 0o600) },
		"same size": func(p string) error { return os.WriteFile(p, []byte("OLD"), 0o600) },
		"same size and time": func(p string) error {
			info, err := os.Stat(p)
			if err != nil {
				return err
			}
			if err := os.WriteFile(p, []byte("olD"), 0o600); err != nil {
				return err
			}
			return os.Chtimes(p, info.ModTime(), info.ModTime())
		},
	}
	for name, edit := range edits {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "flow.wf")
			if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
				t.Fatal(err)
			}
			l := loadOne(t, path)
			saved, _ := os.ReadFile(path)
			fsys := fileSystem{rename: os.Rename, createTemp: func(dir, pattern string) (*os.File, error) {
				if err := edit(path); err != nil {
					return nil, err
				}
				saved, _ = os.ReadFile(path)
				return os.CreateTemp(dir, pattern)
			}}
			err := l.write(fsys, l.order[0], "new")
			if !errors.Is(err, errChanged) {
				t.Errorf("write = %v, want errChanged", err)
			}
			if got, _ := os.ReadFile(path); string(got) != string(saved) {
				t.Errorf("the edit was lost: %q, want %q", got, saved)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 1 {
				t.Errorf("temporary files left behind: %v", entries)
			}
		})
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

// TestGuardUntrusted: in a GitHub runner a diff body is framed by
// stop-commands with a fresh random token, and stays byte for byte between
// the frames; elsewhere it is printed as it is.
func TestGuardUntrusted(t *testing.T) {
	body := unifiedDiff("a.wf", "x\n", "::warning::x ##[error]y\n")
	if got := guardUntrusted(body, func(string) string { return "" }); got != body {
		t.Errorf("outside a runner the body changed: %q", got)
	}
	ci := func(k string) string {
		if k == "GITHUB_ACTIONS" {
			return "true"
		}
		return ""
	}
	got, again := guardUntrusted(body, ci), guardUntrusted(body, ci)
	first, rest, _ := strings.Cut(got, "\n")
	token := strings.TrimPrefix(first, "::stop-commands::")
	if len(token) != 32 || strings.TrimSuffix(rest, "::"+token+"::\n") != body {
		t.Errorf("not framed by stop-commands: %q", got)
	}
	if again == got {
		t.Errorf("the token is not random")
	}
}
