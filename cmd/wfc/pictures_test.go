package main

import (
	"os"
	"path/filepath"
	"testing"
)

// docsPictures are the pictures README.md and docs/language.md show, each
// with the command that makes it (run from the repository's root).
var docsPictures = []struct {
	file string
	args []string
}{
	{"docs/jobflow.schedule.svg", []string{"schedule", "--format", "svg", "testdata/examples/jobflow/jobflow.wf"}},
	{"docs/capped.schedule.svg", []string{"schedule", "--format", "svg", "docs/capped.wf"}},
}

// TestDocsPicturesUpToDate runs each command that made a picture in the
// docs and compares its output with the file (go test ./cmd/wfc -run
// DocsPictures -update rewrites them), so a change to the renderer or to
// the lowering shows up in the docs' pictures.
func TestDocsPicturesUpToDate(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	for _, p := range docsPictures {
		r := runWfc(p.args...)
		if r.status != 0 || r.stderr != "" {
			t.Fatalf("wfc %v: status %d, stderr %q", p.args, r.status, r.stderr)
		}
		golden(t, p.file, []byte(r.stdout))
		if _, err := os.Stat(p.file); err != nil {
			t.Error(err)
		}
	}
}
