package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestCacheUntrusted: a cache directory others could have written to — a
// relative WFC_CACHE (inside a checkout, say), a directory others can
// write, a secret others can read — is not used: the run prints what
// --no-cache prints, with one line more on stderr that says why, and
// writes nothing there. --no-cache and WFC_CACHE=off say nothing.
func TestCacheUntrusted(t *testing.T) {
	proj := t.TempDir()
	t.Chdir(proj)
	src := "workflow W { Initial = A; event Go(); event Ping();\n  state A { subscribe Go(); subscribe Ping(); on Go { goto Done; } }\n  terminal Done { } }\n"
	writeTree(t, proj, map[string]string{"w.wf": src})
	want := runWfc("check", "--no-cache", "w.wf")
	untrusted := func(what, dir, why string) {
		t.Helper()
		t.Setenv("WFC_CACHE", dir)
		before := len(entries(t, dir))
		for range 2 {
			got := runWfc("check", "w.wf")
			extra, ok := strings.CutPrefix(got.stderr, want.stderr)
			if got.stdout != want.stdout || got.status != want.status || !ok {
				t.Errorf("%s: %+v\nwant %+v", what, got, want)
				continue
			}
			if !strings.HasPrefix(extra, "wfc: result cache not used: "+dir+": ") || !strings.Contains(extra, why) ||
				!strings.HasSuffix(extra, "; set WFC_CACHE to a directory of your own, or WFC_CACHE=off\n") || strings.Count(extra, "\n") != 1 {
				t.Errorf("%s: stderr says %q, want one line about %q", what, extra, why)
			}
		}
		if es := entries(t, dir); len(es) != before {
			t.Errorf("%s: %d entries written", what, len(es)-before)
		}
		for _, args := range [][]string{{"check", "--no-cache", "w.wf"}, {"check", "--fix", "w.wf"}} {
			if got := runWfc(args...); got.stderr != want.stderr {
				t.Errorf("%s, %v: stderr %q", what, args, got.stderr)
			}
		}
	}
	untrusted("a relative WFC_CACHE", ".wfc-cache", "a relative path")
	if _, err := os.Stat(".wfc-cache"); err == nil {
		t.Error("a relative WFC_CACHE was made")
	}
	if runtime.GOOS == "windows" {
		return // no Unix modes
	}
	open := filepath.Join(t.TempDir(), "open")
	os.Mkdir(open, 0o700)
	os.Chmod(open, 0o777)
	untrusted("a directory all can write", open, "others can write to it (mode 0777)")
	t.Setenv("WFC_CACHE", "off")
	if got := runWfc("check", "w.wf"); got != want {
		t.Errorf("WFC_CACHE=off: %+v", got)
	}
	mine := filepath.Join(t.TempDir(), "mine")
	t.Setenv("WFC_CACHE", mine)
	if got := runWfc("check", "w.wf"); got != want {
		t.Fatalf("a private cache: %+v", got)
	}
	if err := os.Chmod(filepath.Join(mine, "wfc-cache-secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	untrusted("a secret all can read", mine, "wfc-cache-secret can be read or written by others (mode 0644)")
}

// TestCacheForgedAndRestored: an entry copied from another cache (another
// user's, or planted by someone who could write the directory but does not
// hold its secret) is a miss, while the whole directory copied — a CI
// cache saved and restored, secret included — is served from.
func TestCacheForgedAndRestored(t *testing.T) {
	proj := t.TempDir()
	t.Chdir(proj)
	writeTree(t, proj, map[string]string{"w.wf": "workflow W { Initial = A; event Go();\n  state A { subscribe Go(); on Go { goto Done; } }\n  terminal Done { } }\n"})
	want := runWfc("check", "--no-cache", "w.wf")
	theirs, ours := filepath.Join(t.TempDir(), "theirs"), filepath.Join(t.TempDir(), "ours")
	t.Setenv("WFC_CACHE", theirs)
	runWfc("check", "w.wf")
	es := entries(t, theirs)
	if len(es) != 1 {
		t.Fatalf("%d entries", len(es))
	}
	plant(t, theirs, es[0], exitOK, "forged\n")
	t.Setenv("WFC_CACHE", ours)
	runWfc("check", "--format", "json", "w.wf") // makes the cache, and its secret
	forged, err := os.ReadFile(filepath.Join(theirs, es[0]))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ours, es[0]), forged, 0o600); err != nil {
		t.Fatal(err)
	}
	if got := runWfc("check", "w.wf"); got != want {
		t.Errorf("another cache's entry was served: %+v\nwant %+v", got, want)
	}
	// Their whole directory, restored elsewhere: their entries are good.
	restored := filepath.Join(t.TempDir(), "restored")
	copyTree(t, theirs, restored)
	t.Setenv("WFC_CACHE", restored)
	if got := runWfc("check", "w.wf"); got.stdout != "forged\n" {
		t.Errorf("a restored cache was not served from: %+v", got)
	}
}

// copyTree copies directory src to dst, subdirectories and modes kept, as actions/cache's tar
// restores a cache.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	info, err := os.Stat(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(dst, info.Mode().Perm()); err != nil {
		t.Fatal(err)
	}
	des, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, de := range des {
		if de.IsDir() { // the driver's per-file entries (wfc.FilesDir)
			copyTree(t, filepath.Join(src, de.Name()), filepath.Join(dst, de.Name()))
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, de.Name()))
		if err != nil {
			t.Fatal(err)
		}
		fi, _ := de.Info()
		if err := os.WriteFile(filepath.Join(dst, de.Name()), b, fi.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
}
