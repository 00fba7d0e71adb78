package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/wfc-lang/wfc/config"
	"github.com/wfc-lang/wfc/diag"
)

// TestSettingsPerDirectoryAsFinder: the settings kept per directory are,
// for every spelling of a name (`a/sub/`, `a/sub/..`, `./x.wf`, absolute or
// relative), the ones the settings finder gives that name, in any order of
// the names: no name's spelling makes it share another directory's.
func TestSettingsPerDirectoryAsFinder(t *testing.T) {
	root := t.TempDir()
	write := func(p, s string) {
		t.Helper()
		p = filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("wfc.json", `{"disable": ["WF203"]}`)
	write("a/sub/wfc.json", `{"error": ["WF203"]}`)
	write("a/sub/u.wf", "")
	write("a/x.wf", "")
	t.Chdir(filepath.Join(root, "a"))
	names := []string{
		"sub/", "sub/..", "sub/u.wf", "./sub/u.wf", "x.wf", "sub/../x.wf", ".", "..", "-",
		filepath.Join(root, "a", "sub") + string(filepath.Separator), filepath.Join(root, "a", "sub", "u.wf"),
	}
	for _, order := range [][]string{names, reversed(names)} {
		l := &loaded{order: order}
		applySettings(l, diag.Settings{}, io.Discard)
		finder := config.NewFinder()
		for _, name := range order {
			s, _, _ := finder.For(name)
			want := config.Override(s, diag.Settings{})
			if diff := cmp.Diff(want, l.settings(name)); diff != "" {
				t.Errorf("%q (order starting %q): settings differ from the finder's (-want +got):\n%s", name, order[0], diff)
			}
		}
	}
}

func reversed(s []string) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[len(s)-1-i] = x
	}
	return out
}
