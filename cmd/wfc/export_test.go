package main

import (
	"os"
	"strings"
	"testing"

	"github.com/wfc-lang/wfc/diag"
)

// isExportCode reports whether a catalogued code comes from `wfc export`
// (WF4xx) rather than from `wfc check`.
func isExportCode(code string) bool { return strings.HasPrefix(code, "WF4") }

// catalogueDiags is what TestCodeCatalogue runs an example through: the
// checker, and for the export's codes the export of the checked program too.
func catalogueDiags(code, name, src string) []diag.Diagnostic {
	a := analyzeSource(name, src)
	if !isExportCode(code) {
		return a.diags
	}
	l := &loaded{order: []string{name}}
	_, ds := exportTemporal(l, a)
	return append(a.diags, ds...)
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
		if !strings.Contains(string(b), "warning\\["+c.Code+"\\]") {
			t.Errorf("export.txtar does not expect %s", c.Code)
		}
	}
	if n == 0 {
		t.Fatal("no export codes catalogued")
	}
}
