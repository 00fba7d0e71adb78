package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wfc-lang/wfc/diag"
)

// isExportCode reports whether a catalogued code comes from `wfc export`
// (the catalogue's Export phase) rather than from `wfc check`.
func isExportCode(code diag.ID) bool { return code.Phase() == diag.Export }

// catalogueDiags is what TestCodeCatalogue runs an example through: the
// checker, and for the export's codes the export of the checked program too.
func catalogueDiags(code diag.ID, name, src string) []diag.Diagnostic {
	if !isExportCode(code) {
		return analyzeSource(name, src).diags
	}
	_, program, export := exportTemporal(loadedSource(name, src))
	return append(program, export...)
}

// TestExportCodesScripted: every WF4xx code is exercised end to end by the
// export's script (testdata/script/export.txtar), as check codes are by
// the golden cases.
func TestExportCodesScripted(t *testing.T) {
	b, err := os.ReadFile("testdata/script/export.txtar")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range diag.Codes {
		if !isExportCode(c.Code) {
			continue
		}
		n++
		if !strings.Contains(string(b), "warning\\["+string(c.Code)+"\\]") {
			t.Errorf("export.txtar does not expect %s", c.Code)
		}
	}
	if n == 0 {
		t.Fatal("no export codes catalogued")
	}
}

// TestExportNoInjection: the export's JSON and its warnings carry hostile
// step and file names escaped, like every other output (inject_test.go).
func TestExportNoInjection(t *testing.T) {
	hostile := hostileFileName()
	valid := filepath.Join(t.TempDir(), hostile)
	if err := os.WriteFile(valid, []byte(hostileProgram(false)), 0o644); err != nil {
		t.Skipf("the file system refuses the name: %v", err)
	}
	// A Linear policy, so a warning quotes the hostile line on stderr.
	linear := strings.Replace(hostileProgram(false), "\") { Mail.Send(); }", "\", retry: Backoff.Linear(TimeSpan.FromSeconds(1)).MaxAttempts(3)) { Mail.Send(); }", 1)
	for _, args := range [][]string{
		{"export", "temporal", valid},
		{"export", "temporal", "--stdin-filename", hostile, "-"},
		{"export", "temporal", "--stdin-filename", "::error::x" + injection, "-"},
	} {
		for _, src := range []string{hostileProgram(false), hostileProgram(true), linear} {
			var stdout, stderr bytes.Buffer
			code := run(args, strings.NewReader(src), &stdout, &stderr)
			what := fmt.Sprintf("wfc %q (exit %d)", args, code)
			if stdout.Len()+stderr.Len() == 0 {
				t.Errorf("%s: no output", what)
			}
			assertSafe(t, "stdout of "+what, stdout.Bytes(), "json")
			assertSafe(t, "stderr of "+what, stderr.Bytes(), "text")
			if src == linear && args[len(args)-1] == "-" && !strings.Contains(stderr.String(), "warning[WF401]") {
				t.Errorf("%s: no WF401 for the Linear step:\n%s", what, stderr.String())
			}
		}
	}
}

// FuzzExportTemporal: any input through `wfc export temporal` on standard
// input exits 0 or 1 (never panics, never a usage error), writes a document
// valid against its schema when it exits 0, and every warning it prints
// lies inside the file.
func FuzzExportTemporal(f *testing.F) {
	for _, c := range diag.Codes {
		f.Add(c.Wrong)
		f.Add(c.Right)
	}
	f.Add("enum A { B C }\x00\xff")
	f.Fuzz(func(t *testing.T, src string) {
		var stdout, stderr bytes.Buffer
		code := run([]string{"export", "temporal", "--stdin-filename", "f.wf", "-"}, strings.NewReader(src), &stdout, &stderr)
		switch code {
		case exitOK:
			validateJSON(t, "temporal.schema.json", stdout.Bytes())
		case exitFound:
		default:
			t.Fatalf("exit %d:\n%s", code, stderr.String())
		}
		_, _, ds := exportTemporal(loadedSource("f.wf", src))
		for _, d := range ds {
			r := d.Range
			if r.Start.Offset < 0 || r.End.Offset > int32(len(src)) || r.End.Offset < r.Start.Offset {
				t.Fatalf("%s range %+v outside the file of %d bytes", d.Code, r, len(src))
			}
		}
	})
}
