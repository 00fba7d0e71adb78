package diag

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// sarifOf writes ds as SARIF and decodes the log's first run.
func sarifOf(t *testing.T, ds []Diagnostic, src Sources, opt SARIFOptions) (sarifRun, string) {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteSARIF(&buf, ds, src, opt); err != nil {
		t.Fatal(err)
	}
	var log sarifLog
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, buf.String())
	}
	if len(log.Runs) != 1 {
		t.Fatalf("%d runs, want 1", len(log.Runs))
	}
	return log.Runs[0], buf.String()
}

func span6(l1, c1, o1, l2, c2, o2 int) Range {
	return Range{Start: MakePos(l1, c1, o1), End: MakePos(l2, c2, o2)}
}

// TestSARIFRegionAndFixes: a region's byte length is its end minus its
// start; a fix's edits are grouped per file in the order they come, and a
// fix without edits is left out.
func TestSARIFRegionAndFixes(t *testing.T) {
	d := Diagnostic{File: "a.wf", Code: WF102, Message: "m", Range: span6(2, 3, 10, 2, 7, 14),
		Fixes: []Fix{
			{Title: "two files", MachineApplicable: true, Edits: []Edit{
				{File: "a.wf", Range: span6(1, 1, 0, 1, 2, 1), NewText: "x"},
				{File: "b.wf", Range: span6(3, 1, 20, 3, 4, 23), NewText: ""},
				{File: "a.wf", Range: span6(2, 1, 8, 2, 1, 8), NewText: "y"},
			}},
			{Title: "nothing to do"},
		}}
	run, text := sarifOf(t, []Diagnostic{d}, Sources{"a.wf": "ab\nxxcdefgh\n"}, SARIFOptions{})
	res := run.Results[0]
	if got := res.Locations[0].PhysicalLocation.Region; got.ByteOffset != 10 || got.ByteLength != 4 {
		t.Errorf("region offset %d length %d, want 10 and 4", got.ByteOffset, got.ByteLength)
	}
	if len(res.Fixes) != 1 {
		t.Fatalf("%d fixes, want 1 (the fix without edits is dropped)", len(res.Fixes))
	}
	f := res.Fixes[0]
	if !f.Properties.MachineApplicable {
		t.Error("machine-applicable property lost")
	}
	type repl struct {
		file    string
		off     int32
		len     int32
		newText string
	}
	var got []repl
	for _, ch := range f.ArtifactChanges {
		for _, r := range ch.Replacements {
			got = append(got, repl{ch.ArtifactLocation.URI, r.DeletedRegion.ByteOffset, r.DeletedRegion.ByteLength, r.InsertedContent.Text})
		}
	}
	want := []repl{{"a.wf", 0, 1, "x"}, {"a.wf", 8, 0, "y"}, {"b.wf", 20, 3, ""}}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(repl{})); diff != "" {
		t.Errorf("replacements (-want +got):\n%s", diff)
	}
	if len(f.ArtifactChanges) != 2 {
		t.Errorf("%d artifact changes, want one per file (2)", len(f.ArtifactChanges))
	}
	if !strings.Contains(text, "\n  \"version\": \"2.1.0\"") {
		t.Errorf("SARIF is not indented by two spaces:\n%.200s", text)
	}
}

// TestSARIFKeepsHTML: messages with <, > and & are written as they are,
// not as \u003c escapes that make the file unreadable by people.
func TestSARIFKeepsHTML(t *testing.T) {
	d := Diagnostic{File: "a.wf", Code: WF102, Message: "a <b> & c", Range: span6(1, 1, 0, 1, 2, 1)}
	_, text := sarifOf(t, []Diagnostic{d}, nil, SARIFOptions{})
	if !strings.Contains(text, `"a <b> & c"`) {
		t.Errorf("message escaped:\n%s", text)
	}
}

func TestRuleName(t *testing.T) {
	for title, want := range map[string]string{
		"duplicate name":             "DuplicateName",
		"unknown state: Foo":         "UnknownState",
		"cap below first wait, here": "CapBelowFirstWait",
		"retries (budget) twice":     "Retries",
		"a1 b2":                      "A1B2",
		"Already Capital":            "AlreadyCapital",
		"zeta-wait":                  "ZetaWait",
		"x":                          "X",
		"":                           "",
	} {
		if got := ruleName(title); got != want {
			t.Errorf("ruleName(%q) = %q, want %q", title, got, want)
		}
	}
}

// TestSARIFNotifications: each notification is an error-level tool
// execution notification, with a location only when it names a path, and
// any notification makes the invocation unsuccessful.
func TestSARIFNotifications(t *testing.T) {
	run, _ := sarifOf(t, nil, nil, SARIFOptions{
		URI: func(f string) string { return "repo/" + f },
		Notifications: []Notification{
			{Path: "gone.wf", Message: "cannot read gone.wf"},
			{Message: "no path"},
		}})
	inv := run.Invocations[0]
	if inv.ExecutionSuccessful {
		t.Error("a run with notifications is marked successful")
	}
	ns := inv.ToolExecutionNotifications
	if len(ns) != 2 {
		t.Fatalf("%d notifications, want 2", len(ns))
	}
	if len(ns[0].Locations) != 1 || ns[0].Locations[0].PhysicalLocation.ArtifactLocation.URI != "repo/gone.wf" {
		t.Errorf("first notification's location: %+v", ns[0].Locations)
	}
	if len(ns[1].Locations) != 0 {
		t.Errorf("a notification without a path has a location: %+v", ns[1].Locations)
	}
	for _, n := range ns {
		if n.Level != "error" {
			t.Errorf("level %q, want error", n.Level)
		}
	}
	if run, _ := sarifOf(t, nil, nil, SARIFOptions{}); !run.Invocations[0].ExecutionSuccessful {
		t.Error("a run without notifications is marked unsuccessful")
	}
}

// TestSARIFFingerprintCounter: identical findings in one file are told
// apart by a counter; the same finding in another file starts at 1.
func TestSARIFFingerprintCounter(t *testing.T) {
	d := Diagnostic{File: "a.wf", Code: WF102, Message: "m", Range: span6(1, 1, 0, 1, 2, 1)}
	e := d
	e.File = "b.wf"
	run, _ := sarifOf(t, []Diagnostic{d, d, e}, Sources{"a.wf": "x\n", "b.wf": "x\n"}, SARIFOptions{})
	var got []string
	for _, r := range run.Results {
		fp := r.PartialFingerprints[fingerprintKey]
		got = append(got, fp[strings.LastIndexByte(fp, ':'):])
	}
	if diff := cmp.Diff([]string{":1", ":2", ":1"}, got); diff != "" {
		t.Errorf("counters (-want +got):\n%s", diff)
	}
}
