package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wfc-lang/wfc/diag"
	goldenfile "github.com/wfc-lang/wfc/internal/golden"
)

// TestFormats renders one program in every --format and compares each with
// its golden; the SARIF is validated against the official SARIF 2.1.0 schema.
func TestFormats(t *testing.T) {
	l := loadCase(t, filepath.Join(testdataDir, "formats", "ci.wf"))
	a := analyze(l)
	if len(a.diags) < 3 {
		t.Fatalf("want several diagnostics, got %v", codesOf(a.diags))
	}
	var sarif, gh bytes.Buffer
	if err := diag.WriteSARIF(&sarif, a.diags, l.bytes, diag.SARIFOptions{Version: "test", URI: artifactURI}); err != nil {
		t.Fatal(err)
	}
	validateJSON(t, "../../testdata/sarif/sarif-schema-2.1.0.json", sarif.Bytes())
	if err := diag.WriteGitHub(&gh, a.diags); err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(testdataDir, "formats", "ci")
	golden(t, base+".txt", renderText(t, l, a.diags))
	golden(t, base+".json", renderJSON(t, l, a.diags))
	golden(t, base+".sarif", sarif.Bytes())
	golden(t, base+".github", gh.Bytes())
}

// TestSARIFForEveryCase validates the SARIF of every golden case.
func TestSARIFForEveryCase(t *testing.T) {
	for _, c := range goldenfile.Cases(t, testdataDir) {
		l := loadCase(t, c.Path)
		a := analyze(l)
		var b bytes.Buffer
		if err := diag.WriteSARIF(&b, a.diags, l.bytes, diag.SARIFOptions{Version: "test"}); err != nil {
			t.Fatal(err)
		}
		validateJSON(t, "../../testdata/sarif/sarif-schema-2.1.0.json", b.Bytes())
	}
}

// TestFingerprintsIgnoreUnrelatedLines: moving a finding by adding lines
// above it keeps its partial fingerprint.
func TestFingerprintsIgnoreUnrelatedLines(t *testing.T) {
	src := "workflow W { Initial = A; event Go();\n  state A { subscribe Go(); on Go { goto Done; } }\n  terminal Done { }\n  terminal Lost { }\n}\n"
	fp := func(s string) string {
		a := analyzeSource("f.wf", s)
		var b bytes.Buffer
		if err := diag.WriteSARIF(&b, a.diags, diag.Sources{"f.wf": s}, diag.SARIFOptions{}); err != nil {
			t.Fatal(err)
		}
		i := strings.Index(b.String(), `"wfcFinding/v2": "`)
		if i < 0 {
			t.Fatalf("no fingerprint in %s", b.String())
		}
		return b.String()[i : i+60]
	}
	moved := strings.Replace(src, "workflow W {", "// a comment\n// and another\nworkflow W {", 1)
	if fp(src) != fp(moved) {
		t.Errorf("fingerprint changed when unrelated lines moved:\n%s\n%s", fp(src), fp(moved))
	}
	changed := strings.Replace(src, "terminal Lost", "terminal Gone", 1)
	if fp(src) == fp(changed) {
		t.Errorf("fingerprint did not change when the finding did")
	}
}

func TestGitHubEscaping(t *testing.T) {
	var b bytes.Buffer
	ds := []diag.Diagnostic{{File: "dir,with:odd%name.wf", Severity: diag.Warning, Code: "WF201",
		Message: "100% of\r\nlines: a, b", Range: diag.Range{Start: diag.MakePos(1, 2, 1), End: diag.MakePos(1, 5, 4)}}}
	if err := diag.WriteGitHub(&b, ds); err != nil {
		t.Fatal(err)
	}
	want := "::warning file=dir%2Cwith%3Aodd%25name.wf,line=1,col=2,endLine=1,endColumn=5,title=WF201::100%25 of%0D%0Alines: a, b\n"
	if b.String() != want {
		t.Errorf("got  %q\nwant %q", b.String(), want)
	}
}
