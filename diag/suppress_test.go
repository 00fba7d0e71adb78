package diag

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// ignoreAt builds the Ignore the lexer would for a comment on line 1 that
// starts at byte 0 and silences line 2.
func ignoreAt(src string) (Ignore, Sources) {
	end := len(src)
	return Ignore{File: "f", Range: Range{Start: Pos{Line: 1, Column: 1}, End: Pos{Line: 1, Column: int32(end) + 1, Offset: int32(end)}},
		Cut: Range{End: Pos{Line: 1, Column: int32(end) + 1, Offset: int32(end)}}}, Sources{"f": src}
}

func TestSuppressPerCode(t *testing.T) {
	warn := func(code ID) Diagnostic {
		return Diagnostic{File: "f", Severity: Warning, Code: code, Range: Range{Start: Pos{Line: 2, Column: 1}}}
	}
	for _, tt := range []struct {
		name, comment string
		ds            []Diagnostic
		hidden        bool
		want          []string // the fixed comment, one per WF317
	}{
		{"one stale code of two, then the reason", "// wfc:ignore WF312 WF306 slow", []Diagnostic{warn("WF312")}, false,
			[]string{"// wfc:ignore WF312 slow"}},
		{"the stale code is the last word", "// wfc:ignore WF312, WF306", []Diagnostic{warn("WF312")}, false,
			[]string{"// wfc:ignore WF312"}},
		{"every code stale: the comment goes", "// wfc:ignore WF312 WF306 why", nil, false,
			[]string{""}},
		{"an error may hide the warning", "// wfc:ignore WF312 why", nil, true, nil},
		{"an error code is stale even so", "// wfc:ignore WF312 WF101 why", []Diagnostic{warn("WF312")}, true,
			[]string{"// wfc:ignore WF312 why"}},
		{"lower case silences and is upper-cased", "// wfc:ignore wf312 why", []Diagnostic{warn("WF312")}, false,
			[]string{"// wfc:ignore WF312 why"}},
		{"no code", "// wfc:ignore because", nil, false, []string{""}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ig, srcs := ignoreAt(tt.comment)
			opt := SuppressOptions{Sources: srcs, Scope: func(Ignore, ID) (Range, bool) {
				return Range{Start: Pos{Line: 1}, End: Pos{Line: 3}}, true
			}}
			ds := tt.ds
			if tt.hidden {
				ds = append(ds, Diagnostic{File: "f", Severity: Error, Code: "WF303", Range: Range{Start: Pos{Line: 2}}})
			}
			var got []string
			for _, d := range Suppress(ds, []Ignore{ig}, opt) {
				if d.Severity == Warning && d.Code != "WF317" {
					t.Errorf("%s was not silenced", d.Code)
				}
				if d.Code != "WF317" {
					continue
				}
				out, err := ApplyEdits(tt.comment, d.Fixes[0].Edits)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, out)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("fixed comments (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSettingsApply(t *testing.T) {
	ds := []Diagnostic{{Code: "WF312", Severity: Warning}, {Code: "WF306", Severity: Warning}, {Code: "WF101", Severity: Error}}
	s := Settings{Disable: map[ID]bool{"WF306": true, "WF101": true}, Error: map[ID]bool{"WF312": true}}
	got := s.Apply(ds)
	want := []Diagnostic{{Code: "WF312", Severity: Error}, {Code: "WF101", Severity: Error}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("-want +got:\n%s", diff)
	}
}
