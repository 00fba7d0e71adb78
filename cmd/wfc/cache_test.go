package main

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wfc-lang/wfc"
	"github.com/wfc-lang/wfc/internal/cache"
	"github.com/wfc-lang/wfc/internal/corpus"
)

// cacheRun is one `wfc` run: its output and exit status.
type cacheRun struct {
	stdout, stderr string
	status         int
}

func runWfc(args ...string) cacheRun {
	var stdout, stderr bytes.Buffer
	status := run(args, strings.NewReader(""), &stdout, &stderr)
	return cacheRun{stdout.String(), stderr.String(), status}
}

// entries lists the cache directory's entries (their names are their keys).
func entries(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var names []string
	for _, de := range des {
		if _, err := hex.DecodeString(de.Name()); err == nil && len(de.Name()) == 64 {
			names = append(names, de.Name())
		}
	}
	return names
}

// plant replaces the entry named name with a marked output of the same
// exit status, so that a run served from it can be told from a run that
// computed its output.
func plant(t *testing.T, dir, name string, status int, mark string) {
	t.Helper()
	c, err := cache.Open(dir, cache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var k cache.Key
	if _, err := hex.Decode(k[:], []byte(name)); err != nil {
		t.Fatal(err)
	}
	if err := c.Put(k, append([]byte{byte(status)}, mark...)); err != nil {
		t.Fatal(err)
	}
}

// writeTree writes files (name → content) under dir, removing what else
// was there.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	des, _ := os.ReadDir(dir)
	for _, de := range des {
		os.RemoveAll(filepath.Join(dir, de.Name()))
	}
	for name, src := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCacheNeverStale walks a project through edits — a shared enum, one
// workflow, wfc.json, a file renamed without a change, the options — and
// runs `wfc check` on each state, cached and with --no-cache. Every entry
// the cache holds is then replaced by a marked output: a state seen before
// must be served its mark (the cache is used), and a state never seen must
// print what --no-cache prints (nothing stale is ever served).
func TestCacheNeverStale(t *testing.T) {
	cacheDir := filepath.Join(t.TempDir(), "cache")
	t.Setenv("WFC_CACHE", cacheDir)
	model, flow := mustRead(t, "model.wf"), mustRead(t, "fulfilment.wf")
	proj := t.TempDir()
	t.Chdir(proj)
	unhandled := "workflow Extra { Initial = A; event Go(); event Ping();\n  state A { subscribe Go(); subscribe Ping(); on Go { goto Done; } }\n  terminal Done { } }\n"
	type state struct {
		name  string
		files map[string]string
		args  []string
	}
	base := map[string]string{"orders/model.wf": model, "orders/fulfilment.wf": flow, "orders/extra.wf": unhandled}
	with := func(edits ...string) map[string]string {
		m := map[string]string{}
		for k, v := range base {
			m[k] = v
		}
		for i := 0; i < len(edits); i += 2 {
			if edits[i+1] == "" {
				delete(m, edits[i])
				continue
			}
			m[edits[i]] = edits[i+1]
		}
		return m
	}
	check := []string{"check", "orders"}
	states := []state{
		{"as given", base, check},
		{"the shared enum loses a member", with("orders/model.wf", strings.Replace(model, "Declined, ", "", 1)), check},
		{"as given, again", base, check},
		{"the shared enum renames a member", with("orders/model.wf", strings.Replace(model, "Declined", "Refused", 1)), check},
		{"one workflow edited", with("orders/extra.wf", strings.Replace(unhandled, "on Go {", "on Go { Mail.Send(1);", 1)), check},
		{"one workflow edited back", base, check},
		{"wfc.json disables WF203", with("orders/wfc.json", `{"disable": ["WF203"]}`), check},
		{"wfc.json makes WF203 an error", with("orders/wfc.json", `{"error": ["WF203"]}`), check},
		{"wfc.json above the project", with("wfc.json", `{"error": ["WF203"]}`), check},
		{"wfc.json with the same settings respelt", with("orders/wfc.json", `{ "error": [ "203" ] }`), check},
		{"a file renamed, content unchanged", with("orders/extra.wf", "", "orders/xtra.wf", unhandled), check},
		{"a file moved to a directory", with("orders/extra.wf", "", "orders/sub/extra.wf", unhandled), check},
		{"as given, --strict", base, []string{"check", "--strict", "orders"}},
		{"as given, --disable WF203", base, []string{"check", "--disable", "WF203", "orders"}},
		{"as given, --error WF203", base, []string{"check", "--error", "WF203", "orders"}},
		{"as given, json", base, []string{"check", "--format", "json", "orders"}},
		{"as given, sarif", base, []string{"check", "--format", "sarif", "orders"}},
		{"as given, github", base, []string{"check", "--format", "github", "orders"}},
		{"as given, color", base, []string{"check", "--color", "always", "orders"}},
		{"as given, files named", base, []string{"check", "orders/model.wf", "orders/fulfilment.wf", "orders/extra.wf"}},
		{"as given, files named in another order", base, []string{"check", "orders/extra.wf", "orders/model.wf", "orders/fulfilment.wf"}},
		{"as given, one file left out", base, []string{"check", "orders/model.wf", "orders/fulfilment.wf"}},
		{"as given, named by an absolute path", base, []string{"check", filepath.Join(proj, "orders")}},
	}
	seen := map[string]string{}     // a state's inputs → its mark
	marked := map[string]cacheRun{} // a mark → the output it stands for
	for round := range 2 {
		for i, st := range states {
			writeTree(t, proj, st.files)
			inputs := fmt.Sprint(st.args, st.files)
			fresh := runWfc(append([]string{st.args[0], "--no-cache"}, st.args[1:]...)...)
			before := entries(t, cacheDir)
			got := runWfc(st.args...)
			if was, ok := marked[got.stdout]; ok {
				// Served from the cache: right only if the entry's own
				// run printed what this one must (two spellings of the
				// same settings, say).
				if was != fresh {
					t.Errorf("round %d, %s: served a stale entry:\n%+v\nwant\n%+v", round, st.name, was, fresh)
				}
				continue
			}
			if _, ok := seen[inputs]; ok {
				t.Errorf("round %d, %s: a state seen before was not served from the cache:\n%s", round, st.name, got.stdout)
				continue
			}
			if got != fresh {
				t.Errorf("round %d, %s: cached run differs from --no-cache:\n%+v\nwant\n%+v", round, st.name, got, fresh)
				continue
			}
			added := entries(t, cacheDir)
			added = slices.DeleteFunc(added, func(n string) bool { return slices.Contains(before, n) })
			if len(added) != 1 {
				t.Fatalf("%s: a new state added %d entries, want 1", st.name, len(added))
			}
			mark := fmt.Sprintf("planted for state %d\n", i)
			plant(t, cacheDir, added[0], got.status, mark)
			seen[inputs], marked[mark] = mark, fresh
		}
	}
	if len(seen) < 15 { // some states differ from others only in how settings are spelt
		t.Errorf("only %d states computed", len(seen))
	}
}

func mustRead(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "examples", "orders", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestCacheHitIsIdentical: a run served from the cache prints what the run
// that filled it printed, byte for byte, on stdout and stderr, and exits
// the same, in every format, clean or not, strict or not.
func TestCacheHitIsIdentical(t *testing.T) {
	cacheDir := filepath.Join(t.TempDir(), "cache")
	t.Setenv("WFC_CACHE", cacheDir)
	dir := t.TempDir()
	t.Chdir(dir)
	writeTree(t, dir, map[string]string{
		"clean.wf": "workflow C { Initial = A; event Go();\n  state A { subscribe Go(); on Go { goto Done; } }\n  terminal Done { } }\n",
		"warn.wf":  "workflow W { Initial = A; event Go(); event Ping();\n  state A { subscribe Go(); subscribe Ping(); on Go { goto Done; } }\n  terminal Done { } }\n",
		"err.wf":   "workflow E { Initial = A; event Go();\n  state A { subscribe Go(); on Go { goto Nowhere; } }\n  terminal Done { } }\n",
	})
	old := time2000()
	for _, file := range []string{"clean.wf", "warn.wf", "err.wf"} {
		for _, format := range formats {
			for _, strict := range []bool{false, true} {
				args := []string{"check", "--format", format, file}
				if strict {
					args = append(args, "--strict")
				}
				first := runWfc(args...)
				es := entries(t, cacheDir)
				for _, e := range es {
					os.Chtimes(filepath.Join(cacheDir, e), old, old)
				}
				second := runWfc(args...)
				if second != first {
					t.Errorf("%v: the second run differs:\n%+v\nwant\n%+v", args, second, first)
				}
				if fresh := runWfc(append([]string{"check", "--no-cache"}, args[1:]...)...); fresh != first {
					t.Errorf("%v: --no-cache differs:\n%+v\nwant\n%+v", args, fresh, first)
				}
				// The hit marked its entry used: it was read.
				hit := false
				for _, e := range es {
					if info, err := os.Stat(filepath.Join(cacheDir, e)); err == nil && info.ModTime().After(old) {
						hit = true
					}
				}
				if !hit {
					t.Errorf("%v: the second run did not read the cache", args)
				}
			}
		}
	}
	if n := len(entries(t, cacheDir)); n != 3*len(formats)*2 {
		t.Errorf("%d entries, want one per file, format and strictness (%d)", n, 3*len(formats)*2)
	}
}

// TestCacheBypassed: nothing is stored with --no-cache or WFC_CACHE=off,
// for standard input, for --fix, or for a run with an unreadable path or
// an invalid wfc.json; and a damaged entry is a miss that the run repairs.
func TestCacheBypassed(t *testing.T) {
	cacheDir := filepath.Join(t.TempDir(), "cache")
	t.Setenv("WFC_CACHE", cacheDir)
	dir := t.TempDir()
	t.Chdir(dir)
	src := "workflow W { Initial = A; event Go(); event Ping();\n  state A { subscribe Go(); subscribe Ping(); on Go { goto Done; } }\n  terminal Done { } }\n"
	writeTree(t, dir, map[string]string{"w.wf": src, "bad/w.wf": src, "bad/wfc.json": `{"disabled": []}`})
	for _, args := range [][]string{
		{"check", "--no-cache", "w.wf"},
		{"check", "-"},
		{"check", "--stdin-filename", "w.wf", "-"},
		{"check", "--fix", "w.wf"},
		{"check", "--fix", "--diff", "w.wf"},
		{"check", "w.wf", "missing.wf"},
		{"check", "bad/w.wf"},
	} {
		var stdout, stderr bytes.Buffer
		run(args, strings.NewReader(src), &stdout, &stderr)
		if es := entries(t, cacheDir); len(es) != 0 {
			t.Fatalf("%v stored %d entries", args, len(es))
		}
	}
	t.Setenv("WFC_CACHE", "off")
	runWfc("check", "w.wf")
	if _, err := os.Stat(cacheDir); err == nil && len(entries(t, cacheDir)) != 0 {
		t.Fatal("WFC_CACHE=off stored an entry")
	}
	t.Setenv("WFC_CACHE", cacheDir)
	want := runWfc("check", "w.wf")
	es := entries(t, cacheDir)
	if len(es) != 1 {
		t.Fatalf("%d entries after one run", len(es))
	}
	p := filepath.Join(cacheDir, es[0])
	good, _ := os.ReadFile(p)
	for what, b := range map[string][]byte{
		"truncated": good[:len(good)-5],
		"corrupt":   bytes.Replace(good, []byte("warning"), []byte("wArning"), 1),
		"empty":     {},
		"other key": bytes.Replace(good, good[13:45], bytes.Repeat([]byte{7}, 32), 1),
	} {
		os.WriteFile(p, b, 0o600)
		if got := runWfc("check", "w.wf"); got != want {
			t.Errorf("%s entry: %+v\nwant %+v", what, got, want)
		}
		if b, _ := os.ReadFile(p); !bytes.Equal(b, good) {
			t.Errorf("%s entry: not repaired", what)
		}
	}
	// A file that is not the cache's at the entry's path is a miss, and
	// the cache leaves it as it is.
	os.WriteFile(p, []byte("not an entry"), 0o600)
	if got := runWfc("check", "w.wf"); got != want {
		t.Errorf("a foreign file: %+v\nwant %+v", got, want)
	}
	if b, _ := os.ReadFile(p); string(b) != "not an entry" {
		t.Errorf("a foreign file at the entry's path was replaced")
	}
	os.WriteFile(p, good, 0o600)
	// An intact entry of an exit status a check never stores (2) is a miss.
	plant(t, cacheDir, es[0], exitUsage, "planted")
	if got := runWfc("check", "w.wf"); got != want {
		t.Errorf("an entry of exit status 2: %+v", got)
	}
	// A cache directory that cannot be made: the run goes on without it.
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o600)
	t.Setenv("WFC_CACHE", filepath.Join(file, "cache"))
	if got := runWfc("check", "w.wf"); got != want {
		t.Errorf("with an impossible cache directory: %+v", got)
	}
}

func time2000() time.Time { return time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC) }

// copyDir copies the regular files below src to dst, as a CI cache
// restores a directory: new files, new times.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o700)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o600)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestFileCacheRestoredInCI: the cache directory saved after one CI run and
// restored for the next (actions/cache, README "The result cache") keeps
// each file's entry: the next run, with one file of 20 edited, checks
// that file alone (it stores one entry, the others are read) and prints
// what --no-cache prints.
func TestFileCacheRestoredInCI(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	files := map[string]string{}
	for _, f := range corpus.Generate(2000, 20) {
		files["flows/"+f.Name] = f.Src
	}
	files["flows/gen0003.wf"] += "workflow Late { Initial = A; event Go(); event Ping();\n  state A { subscribe Go(); subscribe Ping(); on Go { goto B; } }\n  terminal B { } }\n"
	writeTree(t, dir, files)
	first := filepath.Join(t.TempDir(), "cache")
	t.Setenv("WFC_CACHE", first)
	if got := runWfc("check", "flows"); got.status != exitOK {
		t.Fatalf("first run: %+v", got)
	}
	if n := len(entries(t, filepath.Join(first, wfc.FilesDir))); n != 20 {
		t.Fatalf("the first run stored %d file entries, want 20", n)
	}
	restored := filepath.Join(t.TempDir(), "restored")
	copyDir(t, first, restored)
	t.Setenv("WFC_CACHE", restored)
	p := filepath.Join(dir, "flows", "gen0011.wf")
	b, _ := os.ReadFile(p)
	if err := os.WriteFile(p, bytes.Replace(b, []byte("goto Running;"), []byte("goto Runing;"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	before := entries(t, filepath.Join(restored, wfc.FilesDir))
	got := runWfc("check", "flows")
	if want := runWfc("check", "--no-cache", "flows"); got != want {
		t.Errorf("over the restored cache:\n%+v\nwant (--no-cache)\n%+v", got, want)
	}
	if got.status != exitFound || !strings.Contains(got.stdout, "Runing") {
		t.Errorf("the edit's error is not reported: %+v", got)
	}
	if n := len(entries(t, filepath.Join(restored, wfc.FilesDir))) - len(before); n != 1 {
		t.Errorf("the run stored %d new entries, want 1 (only the edited file checked)", n)
	}
}
