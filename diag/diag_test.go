package diag

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func rng(line, col, off, endCol int) Range {
	return Range{Start: MakePos(line, col, off), End: MakePos(line, endCol, off+endCol-col)}
}

func TestSortAndDedupe(t *testing.T) {
	ds := []Diagnostic{
		{File: "b.wf", Code: "WF101", Message: "x", Range: rng(1, 1, 0, 2)},
		{File: "a.wf", Code: "WF201", Message: "y", Range: rng(2, 1, 10, 2)},
		{File: "a.wf", Code: "WF103", Message: "z", Range: rng(2, 1, 10, 2)},
		{File: "a.wf", Code: "WF103", Message: "z", Range: rng(2, 1, 10, 2)}, // duplicate
		{File: "a.wf", Code: "WF001", Message: "w", Range: rng(1, 5, 4, 6)},
		{File: "c.wf", Code: "WF001", Message: "v", Range: rng(1, 1, 0, 2)}, // not in the order: last
	}
	got := Sort(ds, []string{"b.wf", "a.wf"})
	var keys []string
	for _, d := range got {
		keys = append(keys, d.File+" "+string(d.Code))
	}
	want := []string{"b.wf WF101", "a.wf WF001", "a.wf WF103", "a.wf WF201", "c.wf WF001"}
	if diff := cmp.Diff(want, keys); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestApplyEdits(t *testing.T) {
	src := "hello world"
	e := func(s, t int, text string) Edit {
		return Edit{Range: Range{Start: MakePos(1, s+1, s), End: MakePos(1, t+1, t)}, NewText: text}
	}
	got, err := ApplyEdits(src, []Edit{e(6, 11, "there"), e(0, 5, "goodbye")})
	if err != nil || got != "goodbye there" {
		t.Errorf("got %q, %v", got, err)
	}
	if _, err := ApplyEdits(src, []Edit{e(0, 5, "a"), e(3, 7, "b")}); err == nil {
		t.Error("overlapping edits accepted")
	}
	if _, err := ApplyEdits(src, []Edit{e(5, 50, "a")}); err == nil {
		t.Error("an edit past the end accepted")
	}
}

func render(src string, d Diagnostic, color bool) string {
	var b bytes.Buffer
	if err := WriteText(&b, []Diagnostic{d}, Sources{"f.wf": src}, TextOptions{Color: color}); err != nil {
		panic(err)
	}
	return b.String()
}

func TestTextRenderer(t *testing.T) {
	// Tabs before the range are kept in the underline so it lines up.
	src := "\tstate\tX { }\n"
	got := render(src, Diagnostic{File: "f.wf", Code: "WF204", Severity: Warning, Message: "m", Range: rng(1, 8, 7, 9)}, false)
	want := "f.wf:1:8: warning[WF204]: m\n  |\n1 | \tstate\tX { }\n  | \t     \t^\n"
	if got != want {
		t.Errorf("tabs:\n%q\nwant\n%q", got, want)
	}
	// A range over several lines is marked to the end of its first line, then …
	src = "ab\ncd\n"
	d := Diagnostic{File: "f.wf", Code: "WF001", Message: "m", Range: Range{Start: MakePos(1, 2, 1), End: MakePos(2, 2, 4)}}
	if got := render(src, d, false); !strings.Contains(got, "  |  ^…\n") {
		t.Errorf("multi-line:\n%s", got)
	}
	// Invalid UTF-8 and control characters print as U+FFFD, one per column.
	src = "a\xffb\x01c\n"
	d = Diagnostic{File: "f.wf", Code: "WF003", Message: "m", Range: rng(1, 5, 4, 6)}
	if got := render(src, d, false); !strings.Contains(got, "1 | a\uFFFDb\uFFFDc\n  |     ^\n") {
		t.Errorf("bad bytes:\n%q", got)
	}
	// A megabyte line is shown as a window around the range.
	long := strings.Repeat("x", 1<<20) + "BAD" + strings.Repeat("y", 1000)
	d = Diagnostic{File: "f.wf", Code: "WF001", Message: "m", Range: rng(1, 1<<20+1, 1<<20, 1<<20+4)}
	got = render(long, d, false)
	if len(got) > 1000 || !strings.Contains(got, "BAD") || !strings.Contains(got, "…") {
		t.Errorf("long line rendered in %d bytes:\n%.300s", len(got), got)
	}
	// Color only when asked.
	if got := render("x\n", Diagnostic{File: "f.wf", Code: "WF001", Message: "m", Range: rng(1, 1, 0, 2)}, true); !strings.Contains(got, "\x1b[1;31merror[WF001]") {
		t.Errorf("no color:\n%q", got)
	}
}

func TestSummary(t *testing.T) {
	ds := []Diagnostic{{Severity: Error}, {Severity: Warning}, {Severity: Warning}}
	if got := Summary(ds, 3); got != "1 error, 2 warnings in 3 files" {
		t.Errorf("got %q", got)
	}
	if got := Summary(nil, 1); got != "0 errors, 0 warnings in 1 file" {
		t.Errorf("got %q", got)
	}
}
