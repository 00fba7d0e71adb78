package check_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/wfc-lang/wfc"
	"github.com/wfc-lang/wfc/internal/golden"
)

// TestCases runs every golden case of testdata/cases through the driver
// (parse, check, lint, finish: the checker's diagnostics as a user sees
// them) and checks its `// want` annotations both ways: each expected code
// on its line, and nothing else. It lives here, beside the checker, so
// that `go test ./check/...` fails when a rule stops reporting, reports
// twice or at the wrong line (cmd/wfc keeps the goldens of the renderings,
// the root package applies the fixes). It also checks that every range,
// related location and fix edit lies inside its file, with a line and
// column that agree with its offset.
func TestCases(t *testing.T) {
	for _, c := range golden.Cases(t, "../testdata") {
		t.Run(c.Base(), func(t *testing.T) {
			r := wfc.Run(context.Background(), c.Files, wfc.Options{})
			if diff := cmp.Diff(golden.Wants(c.Files, nil), golden.Got(r.Diagnostics)); diff != "" {
				t.Errorf("diagnostics differ from the // want annotations (-want +got):\n%s", diff)
			}
			golden.CheckRanges(t, r.Sources, r.Diagnostics)
		})
	}
}
