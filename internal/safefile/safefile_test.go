//go:build unix

package safefile

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	reg := filepath.Join(dir, "a.wf")
	if err := os.WriteFile(reg, []byte("enum E { A }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo.wf")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	b, _, err := ReadFile(reg, 100)
	if err != nil || string(b) != "enum E { A }\n" {
		t.Fatalf("regular file: %q, %v", b, err)
	}
	if _, _, err := ReadFile(reg, 5); !errors.As(err, new(TooLargeError)) {
		t.Errorf("over the limit: got %v, want TooLargeError", err)
	}
	for _, name := range []string{fifo, dir, "/dev/zero"} {
		done := make(chan error, 1)
		go func() { _, _, err := ReadFile(name, 1<<20); done <- err }()
		select {
		case err := <-done:
			if !errors.As(err, new(NotRegularError)) {
				t.Errorf("%s: got %v, want NotRegularError", name, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: ReadFile blocked", name)
		}
	}
}
