package diag

import (
	"fmt"
	"testing"
)

func TestCap(t *testing.T) {
	var ds []Diagnostic
	for i := range MaxPerCode + 5 {
		ds = append(ds, Diagnostic{File: "a.wf", Severity: Error, Code: WF102, Range: Range{Start: Pos{Line: int32(i + 1), Column: 1}}})
		if i < 3 {
			ds = append(ds, Diagnostic{File: "a.wf", Severity: Warning, Code: WF201, Range: Range{Start: Pos{Line: int32(i + 1), Column: 2}}})
			ds = append(ds, Diagnostic{File: "b.wf", Severity: Error, Code: WF102, Range: Range{Start: Pos{Line: int32(i + 1), Column: 1}}})
		}
	}
	ds = Sort(ds, []string{"a.wf", "b.wf"})
	got := Cap(append([]Diagnostic(nil), ds...))
	if want := MaxPerCode + 1 + 3 + 3; len(got) != want {
		t.Fatalf("%d diagnostics, want %d", len(got), want)
	}
	var count *Diagnostic
	for i := range got {
		if got[i].Message != "" {
			count = &got[i]
		}
	}
	if count == nil || count.Range.Start.Line != MaxPerCode+1 || count.Severity != Error || count.Code != WF102 {
		t.Fatalf("the counting diagnostic is %+v", count)
	}
	if want := fmt.Sprintf("5 more WF102 diagnostics in this file are not reported one by one (at most %d of each code per file are)", MaxPerCode); count.Message != want {
		t.Errorf("message %q, want %q", count.Message, want)
	}
	if _, errs := Counts(got); errs == 0 {
		t.Error("capping lost the errors")
	}
	// Under the cap nothing changes.
	small := ds[:10]
	if got := Cap(append([]Diagnostic(nil), small...)); len(got) != len(small) {
		t.Errorf("capped %d diagnostics under the cap to %d", len(small), len(got))
	}
}
