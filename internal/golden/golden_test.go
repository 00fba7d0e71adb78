package golden

import (
	"os"
	"path/filepath"
	"testing"
)

// recorder is a testing.TB that keeps whether the check failed.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Errorf(string, ...any) { r.failed = true }
func (r *recorder) Fatalf(string, ...any) { r.failed = true }
func (r *recorder) Helper()               {}

// TestCheck: -update writes the file (and its folder); then the same text
// passes and another fails; a missing file fails.
func TestCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "x.golden")
	r := &recorder{TB: t}
	Check(r, path, "missing", false, "pkg")
	if !r.failed {
		t.Error("a missing golden file passed")
	}
	Check(t, path, "one\n", true, "pkg")
	if b, err := os.ReadFile(path); err != nil || string(b) != "one\n" {
		t.Fatalf("-update wrote %q, %v", b, err)
	}
	r = &recorder{TB: t}
	Check(r, path, "one\n", false, "pkg")
	if r.failed {
		t.Error("the same text failed")
	}
	Check(r, path, "two\n", false, "pkg")
	if !r.failed {
		t.Error("another text passed")
	}
}
