package temporal

import (
	"fmt"
	"slices"
	"testing"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/codegen"
	"github.com/wfc-lang/wfc/parser"
)

// FuzzExport: for any step policy the checker accepts, the export never
// panics, writes a policy Temporal accepts (maximumInterval ≥
// initialInterval > 0 when retried, maximumAttempts = the budget), its
// Waits are the table's, and an entry without warnings is one whose
// engine waits (RetryPolicy.EngineWait) are the table's.
func FuzzExport(f *testing.F) {
	f.Add(uint8(2), uint32(2000), uint16(0), false, uint32(300000), true, uint8(0), int32(12))
	f.Add(uint8(1), uint32(0), uint16(0), false, uint32(0), false, uint8(0), int32(3))
	f.Add(uint8(0), uint32(250), uint16(0), false, uint32(0), false, uint8(2), int32(2147483647))
	f.Add(uint8(2), uint32(10000), uint16(0), false, uint32(5000), true, uint8(0), int32(4))
	f.Add(uint8(0), uint32(43200000), uint16(1), true, uint32(0), false, uint8(0), int32(3)) // WF405
	f.Fuzz(func(t *testing.T, shape uint8, intervalMS uint32, frac uint16, long bool, capMS uint32, hasCap bool, jitter uint8, attempts int32) {
		shapes := []string{"Fixed", "Linear", "Exponential"}
		ms := uint64(intervalMS)
		if long {
			ms *= 1000 // up to 136 years, past float64's exact nanoseconds
		}
		policy := fmt.Sprintf("Backoff.%s(TimeSpan.FromMilliseconds(%d.%04d))", shapes[int(shape)%3], ms, frac%10000)
		if hasCap {
			policy += fmt.Sprintf(".Cap(TimeSpan.FromMilliseconds(%d))", capMS)
		}
		if jitter%5 != 0 {
			policy += fmt.Sprintf(".Jitter(0.%d)", jitter%5)
		}
		policy += fmt.Sprintf(".MaxAttempts(%d)", attempts)
		src := step(", retry: " + policy)
		prog, _ := parser.Parse([]parser.Source{{Name: "f.wf", Src: src}}, parser.Options{Workers: 1})
		res := check.Check(prog)
		ss := codegen.Lower(res, codegen.Options{})
		if len(ss) != 1 {
			return // rejected by the checker (MaxAttempts < 1 and the like)
		}
		es, ds := Export(ss)
		e, s := es[0], ss[0]
		p := e.RetryPolicy
		if int64(p.MaximumAttempts) != s.Attempts {
			t.Fatalf("%s: maximumAttempts %d, budget %d", policy, p.MaximumAttempts, s.Attempts)
		}
		if s.Attempts > 1 && (p.InitialInterval <= 0 || p.MaximumInterval < p.InitialInterval) {
			t.Fatalf("%s: Temporal would reject %+v", policy, p)
		}
		for _, d := range ds {
			if !slices.Contains(e.Unsupported, d.Code) {
				t.Fatalf("%s: %s reported but not listed", policy, d.Code)
			}
		}
		for _, r := range s.Rows[1:] {
			for _, a := range []int64{r.From, r.To} {
				if got := e.Waits.Before(a); got != r.Wait {
					t.Fatalf("%s: attempt %d waits %d, the table says %d", policy, a, got, r.Wait)
				}
				if e.Exact() {
					want, _ := Duration(r.Wait)
					if got := p.EngineWait(a); got != want {
						t.Fatalf("%s: exact, but the engine waits %v before attempt %d, the table %v", policy, got, a, want)
					}
				}
			}
		}
	})
}
