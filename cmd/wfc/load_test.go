package main

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestHugeStdinRefusedUnread: standard input redirected from a file larger
// than the limit is refused from its size, before a byte is read (a sparse
// file of 3 GB: reading it would take gigabytes).
func TestHugeStdinRefusedUnread(t *testing.T) {
	p := filepath.Join(t.TempDir(), "huge.wf")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(3 << 30); err != nil {
		t.Skipf("no sparse files here: %v", err)
	}
	if _, err := readStdin(f); !errors.Is(err, errTooLarge) {
		t.Fatalf("readStdin = %v, want errTooLarge", err)
	}
	if off, _ := f.Seek(0, 1); off != 0 {
		t.Errorf("read %d bytes before refusing", off)
	}
}
