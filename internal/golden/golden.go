// Package golden is how every package's golden tests compare what a test
// rendered with the file it keeps in testdata, and rewrite that file when
// the test runs with -update: one behaviour, one message, everywhere.
package golden

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Check compares got with the file at path. With update it writes got
// there instead (making the file's folder), so a reviewed change is one
// command: `go test ./<pkg> -update`, which the failure message names.
func Check(t testing.TB, path, got string, update bool, pkg string) {
	t.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./%s -update writes it)", err, pkg)
	}
	if d := cmp.Diff(string(want), got); d != "" {
		t.Errorf("%s differs (-want +got; review, then go test ./%s -update):\n%s", path, pkg, d)
	}
}
