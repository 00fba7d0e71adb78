package wfc_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/wfc-lang/wfc"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/parser"
)

// FuzzRun: any text through the whole pipeline, split in two files at a
// fuzzed point (so cross-file paths run too): never a panic, the same
// result twice, and every fix's edits apply to their file.
func FuzzRun(f *testing.F) {
	for _, c := range diag.Codes {
		f.Add(c.Wrong, uint16(0))
	}
	f.Add(overAnHour, uint16(40))
	f.Add("// wfc:ignore wf312 WF306, WF1\nworkflow W { Initial = A; state A { } }", uint16(3))
	f.Fuzz(func(t *testing.T, src string, cut uint16) {
		k := int(cut) % (len(src) + 1)
		files := []parser.Source{{Name: "a.wf", Src: src[:k]}, {Name: "b.wf", Src: src[k:]}}
		opt := wfc.Options{Workers: 1, Settings: func(file string) diag.Settings {
			return diag.Settings{Error: map[diag.ID]bool{"WF312": file == "a.wf"}, Disable: map[diag.ID]bool{"WF306": true}}
		}}
		r1 := wfc.Run(context.Background(), files, opt)
		r2 := wfc.Run(context.Background(), files, opt)
		if diff := cmp.Diff(r1.Diagnostics, r2.Diagnostics); diff != "" {
			t.Fatalf("two runs differ:\n%s", diff)
		}
		for _, d := range r1.Diagnostics {
			if d.Code == "WF306" {
				t.Errorf("a disabled warning was reported")
			}
			for _, fix := range d.Fixes {
				byFile := map[string][]diag.Edit{}
				for _, e := range fix.Edits {
					byFile[e.File] = append(byFile[e.File], e)
				}
				for name, es := range byFile {
					src, ok := r1.Sources[name]
					if !ok {
						t.Fatalf("%s's fix edits unknown file %q", d.Code, name)
					}
					if _, err := diag.ApplyEdits(src, es); err != nil {
						t.Fatalf("%s's fix %q: %v", d.Code, fix.Title, err)
					}
				}
			}
		}
	})
}
