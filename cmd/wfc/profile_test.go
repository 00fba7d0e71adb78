package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProfileCPU: WFC_CPUPROFILE's file is a CPU profile; a path that cannot be written is one line
// on stderr, and the run goes on.
func TestProfileCPU(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cpu.prof")
	var stderr bytes.Buffer
	stop := profileCPU(path, &stderr)
	var out bytes.Buffer
	for range 20 {
		out.Reset()
		if code := run([]string{"check", "--no-cache", "../../testdata/examples/orders"}, nil, &out, &stderr); code != exitOK {
			t.Fatalf("exit %d: %s", code, out.String())
		}
	}
	stop()
	if stderr.Len() != 0 {
		t.Fatalf("stderr: %s", stderr.String())
	}
	// A profile is a gzipped protocol buffer whose string table names the
	// sample and period types.
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("not a profile: %v", err)
	}
	b, err := io.ReadAll(z)
	if err != nil {
		t.Fatalf("not a profile: %v", err)
	}
	for _, s := range []string{"samples", "cpu", "nanoseconds"} {
		if !bytes.Contains(b, []byte(s)) {
			t.Errorf("the profile does not name %q: not a CPU profile", s)
		}
	}

	stderr.Reset()
	stop = profileCPU(filepath.Join(t.TempDir(), "missing", "cpu.prof"), &stderr)
	stop()
	if got := stderr.String(); strings.Count(got, "\n") != 1 || !strings.HasPrefix(got, "wfc: WFC_CPUPROFILE: ") {
		t.Errorf("unwritable path: stderr %q, want one line naming WFC_CPUPROFILE", got)
	}
	if stop := profileCPU("", &stderr); stop == nil {
		t.Error("no path: nil stop")
	}
}
