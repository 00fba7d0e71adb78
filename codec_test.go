package wfc

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// entryUnits are the units of a session's run over the golden cases, each
// case its own program: every kind of diagnostic, fix, ignore and summary.
func entryUnits(t testing.TB) []*unit {
	paths, _ := filepath.Glob("testdata/cases/*.wf")
	if len(paths) == 0 {
		t.Fatal("no cases")
	}
	var out []*unit
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		s := NewSession(Options{DiagnosticsOnly: true, Workers: 1})
		s.Run(context.Background(), []Source{{Name: filepath.Base(p), Src: string(b)}})
		for _, u := range s.units {
			out = append(out, u)
		}
	}
	return out
}

func same(s string) string { return s }

// TestCodecRoundTrip: what the cache keeps of a file reads back as it was
// written, nil slices and empty ones apart (JSON prints them differently).
func TestCodecRoundTrip(t *testing.T) {
	for _, u := range entryUnits(t) {
		b, ok := encodeEntry(u, same)
		if !ok {
			t.Fatalf("%s: not encoded", u.name)
		}
		var got unit
		if !decodeEntry(b, &got, same) {
			t.Fatalf("%s: not decoded", u.name)
		}
		for _, c := range []struct {
			what      string
			want, got any
		}{
			{"summary", u.sum, got.sum}, {"syntax", u.syntax, got.syntax}, {"ignores", u.ignores, got.ignores},
			{"scopes", u.scopes, got.scopes}, {"diagnostics", u.diags, got.diags}, {"lints", u.lints, got.lints},
			{"direct", u.direct, got.direct}, {"deps", u.deps, got.deps},
		} {
			if d := cmp.Diff(c.want, c.got); d != "" {
				t.Errorf("%s: %s differ (-written +read):\n%s", u.name, c.what, d)
			}
		}
		// Cut short, or with a byte flipped, it is not an entry (or one
		// that reads without panicking).
		for _, n := range []int{0, 1, len(b) / 2, len(b) - 1} {
			var v unit
			if decodeEntry(b[:n], &v, same) {
				t.Errorf("%s: %d of %d bytes decoded", u.name, n, len(b))
			}
		}
	}
}

// FuzzDecodeEntry: any bytes decode or fail, never panic or allocate
// without bound; what decodes encodes back to the same bytes.
func FuzzDecodeEntry(f *testing.F) {
	for i, u := range entryUnits(f) {
		if i%10 == 0 {
			b, _ := encodeEntry(u, same)
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var u unit
		if !decodeEntry(b, &u, same) {
			return
		}
		again, ok := encodeEntry(&u, same)
		if !ok {
			t.Fatal("a decoded entry does not encode")
		}
		var v unit
		if !decodeEntry(again, &v, same) {
			t.Fatal("an entry encoded again does not decode")
		}
		if d := cmp.Diff(u.sum, v.sum); d != "" {
			t.Fatalf("summary differs after a round trip:\n%s", d)
		}
	})
}
