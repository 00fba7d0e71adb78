package wfctemporal

import (
	"fmt"
	"testing"

	"github.com/wfc-lang/wfc/parser"
)

// The grid: shapes × intervals × caps × budgets, as steps and as
// milestones. The intervals run from a millisecond to days, with odd
// values so no wait is a round number; the caps fall below the interval,
// between the waits, and beyond every wait in budget; the budgets include
// one attempt, a few, exactly maxRun, and more than the test runs.
var (
	gridShapes    = []string{"Fixed", "Linear", "Exponential"}
	gridIntervals = []string{
		"TimeSpan.FromMilliseconds(1)", "TimeSpan.FromMilliseconds(250)", "TimeSpan.FromSeconds(2)",
		"TimeSpan.FromSeconds(7)", "TimeSpan.FromMinutes(5)", "TimeSpan.FromHours(1)", "TimeSpan.FromDays(3)",
		"TimeSpan.FromMilliseconds(43200000000.0001)", // 500 days and a tick: not exact in float64 ns
	}
	gridCaps    = []string{"", ".Cap(TimeSpan.FromMilliseconds(500))", ".Cap(TimeSpan.FromSeconds(61))", ".Cap(TimeSpan.FromDays(30))"}
	gridBudgets = []int{1, 2, 3, 7, 20, 64, maxRun, 1000}
	gridWindows = []string{"TimeSpan.FromMilliseconds(3)", "TimeSpan.FromMinutes(5)"}
)

// TestGridSteps: every combination whose policy Temporal can express runs
// on the engine exactly as its table says; Linear through NextRetryDelay.
func TestGridSteps(t *testing.T) {
	n, skipped := 0, 0
	for _, sh := range gridShapes {
		for _, iv := range gridIntervals {
			for _, cp := range gridCaps {
				for _, b := range gridBudgets {
					policy := fmt.Sprintf("Backoff.%s(%s)%s.MaxAttempts(%d)", sh, iv, cp, b)
					es := lowerExport([]parser.Source{{Name: "grid.wf", Src: stepSource(policy)}})
					if len(es) != 1 {
						t.Fatalf("%s: %d entries", policy, len(es))
					}
					checkCodes(t, es[0])
					checkLiterals(t, es[0], iv, cp)
					if kindOf(es[0]) == skip {
						skipped++ // beyond time.Duration (WF404, WF314)
						continue
					}
					n++
					t.Run(policy, func(t *testing.T) { prove(t, es[0]) })
				}
			}
		}
	}
	t.Logf("%d step policies proved, %d skipped", n, skipped)
	if n < 300 {
		t.Errorf("only %d grid cases ran", n)
	}
}

// TestGridMilestones: the same grid for milestones, whose windows
// RunWindows opens, with two window lengths.
func TestGridMilestones(t *testing.T) {
	n, skipped := 0, 0
	for _, w := range gridWindows {
		for _, sh := range gridShapes {
			for _, iv := range gridIntervals {
				for _, cp := range gridCaps {
					for _, b := range []int{1, 3, 20, maxRun + 1} {
						settings := fmt.Sprintf("Within = %s; Backoff = Backoff.%s(%s)%s.MaxAttempts(%d);", w, sh, iv, cp, b)
						es := lowerExport([]parser.Source{{Name: "grid.wf", Src: milestoneSource(settings)}})
						if len(es) != 1 {
							t.Fatalf("%s: %d entries", settings, len(es))
						}
						checkCodes(t, es[0])
						checkLiterals(t, es[0], iv, cp)
						if kindOf(es[0]) != exact {
							skipped++
							continue
						}
						n++
						t.Run(settings, func(t *testing.T) { prove(t, es[0]) })
					}
				}
			}
		}
	}
	t.Logf("%d milestone policies proved, %d skipped", n, skipped)
	if n < 100 {
		t.Errorf("only %d grid cases ran", n)
	}
}
