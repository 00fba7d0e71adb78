//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/wfc-lang/wfc/internal/corpus"
)

// TestPeakRSS runs the built command on a 500,000-line file and holds its
// peak resident memory to 30 bytes per input byte.
func TestPeakRSS(t *testing.T) {
	if testing.Short() {
		t.Skip("builds wfc and checks 13 MB")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "wfc")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	src := corpus.Generate(500000, 1)[0].Src
	file := filepath.Join(dir, "big.wf")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "check", file)
	cmd.Env = append(os.Environ(), "GOGC=", "GOMEMLIMIT=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("wfc check: %v\n%s", err, out[:min(len(out), 2000)])
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		t.Skip("no rusage on this system")
	}
	rss := ru.Maxrss * 1024 // KB on Linux
	ratio := float64(rss) / float64(len(src))
	t.Logf("peak RSS %d MB for %d MB of input: %.1f×", rss>>20, len(src)>>20, ratio)
	if ratio > 30 {
		t.Errorf("peak RSS is %.1f× the input, want at most 30×", ratio)
	}
}
