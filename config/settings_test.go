package config

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/wfc-lang/wfc/diag"
)

func set(codes ...diag.ID) map[diag.ID]bool {
	m := map[diag.ID]bool{}
	for _, c := range codes {
		m[c] = true
	}
	return m
}

func TestParse(t *testing.T) {
	tests := []struct {
		name, text string
		want       diag.Settings
		err        string
	}{
		{"empty", `{}`, diag.Settings{Disable: set(), Error: set()}, ""},
		{"both", `{"$schema": "x", "disable": ["WF203"], "error": ["wf201", "312"]}`,
			diag.Settings{Disable: set("WF203"), Error: set("WF201", "WF312")}, ""},
		{"unknown field", `{"disabled": []}`, diag.Settings{}, `unknown key "disabled"`},
		{"a key in capitals", `{"DISABLE": ["WF203"]}`, diag.Settings{}, `unknown key "DISABLE": keys are written in lower case, "disable"`},
		{"a key twice", `{"disable": ["WF203"], "disable": []}`, diag.Settings{}, `"disable" is given twice`},
		{"null list", `{"disable": null}`, diag.Settings{}, `"disable" is an array of codes, not null`},
		{"null document", `null`, diag.Settings{}, "the settings are a JSON object, not null"},
		{"a list of numbers", `{"error": [203]}`, diag.Settings{}, `"error" holds codes written "WF203", not a number`},
		{"a code twice", `{"error": ["WF203", "wf203"]}`, diag.Settings{}, `"error" names WF203 twice`},
		{"schema not a string", `{"$schema": 1}`, diag.Settings{}, `"$schema" is a string, not a number`},
		{"truncated", `{"disable": ["WF203"]`, diag.Settings{}, "EOF"},
		{"not JSON", `disable: WF203`, diag.Settings{}, "invalid character"},
		{"two values", `{} {}`, diag.Settings{}, "more than one JSON value"},
		{"error code", `{"disable": ["WF101"]}`, diag.Settings{}, "WF101 is an error"},
		{"unknown code", `{"error": ["WF999"]}`, diag.Settings{}, `"WF999" is not a diagnostic code`},
		{"in both", `{"disable": ["WF203"], "error": ["WF203"]}`, diag.Settings{}, "both disabled and made an error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse("wfc.json", []byte(tt.text))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("(-want +got)\n%s", d)
			}
		})
	}
}

func TestOverride(t *testing.T) {
	base := diag.Settings{Disable: set("WF203", "WF204"), Error: set("WF201")}
	over := diag.Settings{Disable: set("WF201"), Error: set("WF203")}
	want := diag.Settings{Disable: set("WF204", "WF201"), Error: set("WF203")}
	if d := cmp.Diff(want, Override(base, over)); d != "" {
		t.Errorf("(-want +got)\n%s", d)
	}
}

// TestFinder: the nearest wfc.json governs, each is read once, and
// concurrent lookups agree.
func TestFinder(t *testing.T) {
	root := t.TempDir()
	write := func(p, s string) {
		p = filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("wfc.json", `{"disable": ["WF203"]}`)
	write("a/b/wfc.json", `{"error": ["WF201"]}`)
	write("bad/wfc.json", `[`)
	f := NewFinder()
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, path, err := f.For(filepath.Join(root, "a/b/c/x.wf"))
			if err != nil || path != filepath.Join(root, "a/b/wfc.json") || !s.Error["WF201"] || s.Disable["WF203"] {
				t.Errorf("a/b/c/x.wf: %v %s %v", s, path, err)
			}
			s, path, err = f.For(filepath.Join(root, "a/y.wf"))
			if err != nil || path != filepath.Join(root, "wfc.json") || !s.Disable["WF203"] {
				t.Errorf("a/y.wf: %v %s %v", s, path, err)
			}
		}()
	}
	wg.Wait()
	if _, path, err := f.For(filepath.Join(root, "bad/z.wf")); err == nil || path != filepath.Join(root, "bad/wfc.json") {
		t.Errorf("bad/z.wf: %s %v, want an error", path, err)
	}
}

// FuzzParse: any file text gives settings or an error, never a panic, and
// accepted settings name only catalogued warnings, none in both lists.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`{}`, `{"disable": ["WF203"], "error": ["201"]}`, `{"error": ["WF101"]}`, `[`, `{"disable": null}`, `{"$schema": 1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := Parse("wfc.json", b)
		if err != nil {
			return
		}
		for _, m := range []map[diag.ID]bool{s.Disable, s.Error} {
			for code := range m {
				c, ok := diag.Lookup(code)
				if !ok || c.Severity != diag.Warning {
					t.Errorf("accepted %q", code)
				}
			}
		}
		for code := range s.Disable {
			if s.Error[code] {
				t.Errorf("%s in both lists", code)
			}
		}
	})
}
