package format

import (
	"context"
	"os"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/wfc-lang/wfc"
	"github.com/wfc-lang/wfc/parser"
)

// TestDiagnosticsUnchanged checks every testdata file that parses, and its
// formatting, and expects the same diagnostics (codes and messages): only
// white space changed, and every `wfc:ignore` still silences what it did.
func TestDiagnosticsUnchanged(t *testing.T) {
	diags := func(src string) []string {
		r := wfc.Run(context.Background(), []parser.Source{{Name: "f.wf", Src: src}}, wfc.Options{})
		var out []string
		for _, d := range r.Diagnostics {
			out = append(out, string(d.Code)+" "+d.Message)
		}
		sort.Strings(out)
		return out
	}
	n := 0
	for _, f := range testdataFiles(t) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out, err := Source(f, string(b))
		if err != nil {
			continue // syntax errors: not formatted
		}
		n++
		if diff := cmp.Diff(diags(string(b)), diags(out)); diff != "" {
			t.Errorf("%s: the diagnostics changed (-before +after):\n%s", f, diff)
		}
	}
	if n < 20 {
		t.Errorf("only %d testdata files parse", n)
	}
}
