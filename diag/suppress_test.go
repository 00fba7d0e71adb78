package diag

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/wfc-lang/wfc/internal/scaling"
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

// TestSuppressKeepsTheRest: Suppress drops only the warnings an ignore
// names on its line; errors, other codes and other lines stay, in order.
func TestSuppressKeepsTheRest(t *testing.T) {
	ig, srcs := ignoreAt("// wfc:ignore WF312 slow")
	at := func(line int32, sev Severity, code ID) Diagnostic {
		return Diagnostic{File: "f", Severity: sev, Code: code, Range: Range{Start: Pos{Line: line, Column: 1}}}
	}
	ds := []Diagnostic{
		at(2, Warning, "WF312"), // silenced
		at(2, Error, "WF312"),   // an error is never silenced
		at(2, Warning, "WF306"), // another code
		at(3, Warning, "WF312"), // another line
		{File: "g", Severity: Warning, Code: "WF312", Range: Range{Start: Pos{Line: 2}}}, // another file
	}
	var got []string
	for _, d := range Suppress(ds, []Ignore{ig}, SuppressOptions{Sources: srcs}) {
		got = append(got, fmt.Sprintf("%s:%d %s %s", d.File, d.Range.Start.Line, d.Severity, d.Code))
	}
	want := []string{"f:2 error WF312", "f:2 warning WF306", "f:3 warning WF312", "g:2 warning WF312"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("kept (-want +got):\n%s", diff)
	}
}

// TestStaleCodeRange: a stale code of several is reported at the code,
// with a machine-applicable fix; without the file's text, at the comment.
func TestStaleCodeRange(t *testing.T) {
	comment := "// wfc:ignore WF312 WF306 why"
	ig, srcs := ignoreAt(comment)
	warn := Diagnostic{File: "f", Severity: Warning, Code: "WF312", Range: Range{Start: Pos{Line: 2}}}
	ds := Suppress([]Diagnostic{warn}, []Ignore{ig}, SuppressOptions{Sources: srcs})
	if len(ds) != 1 || ds[0].Code != WF317 {
		t.Fatalf("got %v, want one WF317", ds)
	}
	r := ds[0].Range
	if got := comment[r.Start.Offset:r.End.Offset]; got != "WF306" || r.Start.Column != 21 {
		t.Errorf("WF317 at %q (column %d), want WF306 at column 21", got, r.Start.Column)
	}
	if f := ds[0].Fixes; len(f) != 1 || !f[0].MachineApplicable {
		t.Errorf("fixes %+v, want one machine-applicable fix", f)
	}
	// Without the text (or with a text shorter than the comment), the
	// comment's codes are used and WF317 points at the whole comment.
	ig.Codes = []ID{"WF312", "WF306"}
	for name, srcs := range map[string]Sources{"no text": nil, "short text": {"f": "// wfc"}} {
		ds := Suppress([]Diagnostic{warn}, []Ignore{ig}, SuppressOptions{Sources: srcs})
		if len(ds) != 1 || ds[0].Range != ig.Range {
			t.Errorf("%s: got %+v, want one WF317 on the comment", name, ds)
		}
	}
}

// TestErrorsHideWithinScope: an error hides an ignored warning when it
// lies in the warning's scope, its first and last lines included; with no
// scope function, or a scope that is the whole file, any error in the file
// hides it.
func TestErrorsHideWithinScope(t *testing.T) {
	lines := errorLines([]Diagnostic{
		{File: "f", Severity: Error, Range: Range{Start: Pos{Line: 7}}},
		{File: "f", Severity: Warning, Range: Range{Start: Pos{Line: 4}}}, // not an error
	})
	ig := Ignore{File: "f"}
	scope := func(from, to int32) func(Ignore, ID) (Range, bool) {
		return func(Ignore, ID) (Range, bool) {
			return Range{Start: Pos{Line: from}, End: Pos{Line: to}}, true
		}
	}
	for _, tc := range []struct {
		name  string
		scope func(Ignore, ID) (Range, bool)
		file  string
		want  bool
	}{
		{"error on the scope's last line", scope(3, 7), "f", true},
		{"error on the scope's first line", scope(7, 9), "f", true},
		{"error inside", scope(5, 9), "f", true},
		{"error after the scope", scope(3, 6), "f", false},
		{"error before the scope", scope(8, 9), "f", false},
		{"warnings hide nothing", scope(4, 4), "f", false},
		{"no scope function: the file", nil, "f", true},
		{"the whole file", func(Ignore, ID) (Range, bool) { return Range{}, false }, "f", true},
		{"no error in this file", nil, "g", false},
	} {
		ig.File = tc.file
		if got := lines.within(ig, "WF312", tc.scope); got != tc.want {
			t.Errorf("%s: within = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestIgnoreCodesLinear: one ignore comment with many codes is read in one
// pass (each code's column used to be counted from the comment's start:
// 480 KB took 31 s), allocating its result once. Every code is stale here,
// so each gets its position. Counted, not timed: the bytes that columns are
// counted over, and the allocations.
func TestIgnoreCodesLinear(t *testing.T) {
	comment := func(n int) (Ignore, Sources) {
		var b strings.Builder
		b.WriteString("// wfc:ignore")
		for i := range n {
			fmt.Fprintf(&b, " WF3%02d", i%100)
		}
		b.WriteString(" reason")
		return ignoreAt(b.String())
	}
	const n = 2000
	igs := map[int]Ignore{}
	srcs := map[int]Sources{}
	for _, k := range []int{n, scaling.Factor * n} {
		igs[k], srcs[k] = comment(k)
	}
	if got := len(igs[n].codes(srcs[n])); got != n {
		t.Fatalf("read %d codes, want %d", got, n)
	}
	scaling.Linear(t, "codes of one ignore", func(k int) { igs[k].codes(srcs[k]) }, n,
		scaling.Count("bytes counted for columns", &ignoreColumnBytes))
}

// BenchmarkIgnoreCodes reads one ignore comment of 16,000 codes.
func BenchmarkIgnoreCodes(b *testing.B) {
	var s strings.Builder
	s.WriteString("// wfc:ignore")
	for i := range 16000 {
		fmt.Fprintf(&s, " WF3%02d", i%100)
	}
	ig, srcs := ignoreAt(s.String())
	b.SetBytes(int64(s.Len()))
	b.ReportAllocs()
	for b.Loop() {
		ig.codes(srcs)
	}
}
