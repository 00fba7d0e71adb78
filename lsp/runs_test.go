package lsp

import (
	"slices"
	"strings"
	"testing"

	"github.com/wfc-lang/wfc/lsp/protocol"
)

// runsWF uses the words of issue 30: a step's timeout and deadline, error
// kinds, a catch, a cadence, TimeSpan.MaxValue and the new test statements.
const runsWF = `enum ChargeError { Declined, RateLimited }
workflow Pay {
  Autostart = true;
  Initial = A;
  event Go();
  state A {
    subscribe Go();
    on Go {
      Workflow.Once("charge", retry: Backoff.Every(TimeSpan.FromSeconds(5)).MaxAttempts(3).NonRetryable(ChargeError.Declined), timeout: TimeSpan.MaxValue) { X.Y(); } catch {  Declined { goto Done; } }
      Workflow.Once("mail") { X.Y(); } 
      goto Done;
    }
  }
  terminal Done { }
}
test "t" {
  Takes("charge", TimeSpan.FromSeconds(1));
  Expect.Stopped();
}
`

// TestRunsWords: completion offers a step's arguments, a catch's reasons
// and kinds, `catch` after a step's block and the test statements; hover
// explains the new words from the vocabulary.
func TestRunsWords(t *testing.T) {
	c := start(t, map[string]string{"pay.wf": runsWF})
	c.open("pay.wf", runsWF)
	for _, tc := range []struct {
		needle string
		delta  int
		want   []string
	}{
		{`"charge", retry`, 10, []string{"retry:", "timeout:", "deadline:"}},
		{"catch {  Declined", 8, []string{"Exhausted", "Deadline", "Terminal", "default", "Declined", "RateLimited"}},
		{`Workflow.Once("mail") { X.Y(); } `, 32, []string{"catch", "goto"}},
		{"Takes(", 0, []string{"Takes", "Draws", "Expect.Stopped", "Fail"}},
	} {
		p := at(runsWF, tc.needle, 0, tc.delta)
		res, err := c.srv.Completion(c.ctx, &protocol.CompletionParams{TextDocumentPositionParams: docPos(c, "pay.wf", p.Line, p.Character)})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		if items, ok := res.(protocol.CompletionItemSlice); ok {
			for _, it := range items {
				got = append(got, it.Label)
			}
		}
		for _, w := range tc.want {
			if !slices.Contains(got, w) {
				t.Errorf("completion at %q+%d: %v lacks %q", tc.needle, tc.delta, got, w)
			}
		}
	}
	for _, tc := range []struct {
		needle string
		delta  int
		want   string
	}{
		{"catch {", 1, "right after its block"},
		{"timeout:", 1, "Each attempt's limit"},
		{"Every", 1, "A cadence"},
		{"NonRetryable", 1, "terminal"},
		{"MaxValue", 1, "largest duration"},
		{"Declined { goto", 1, "Declined"},
		{"Takes(", 1, "how long a durable step's attempts take"},
		{"Stopped", 1, "stopped at a limit"},
	} {
		if got := hoverText(t, c, "pay.wf", runsWF, tc.needle, tc.delta); !strings.Contains(got, tc.want) {
			t.Errorf("hover at %q+%d: %q, want it to say %q", tc.needle, tc.delta, got, tc.want)
		}
	}
}
