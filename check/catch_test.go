package check_test

import "testing"

// onceCatch is a workflow whose handler runs the step `Workflow.Once(args)`
// with the catch cases given; the cases start on line 9.
func onceCatch(args, cases string) string {
	return "enum ChargeError { Declined, RateLimited }\nworkflow W {\n  Initial = A;\n  event Go();\n  state A {\n    subscribe Go();\n    on Go {\n" +
		"      Workflow.Once(" + args + ") { Payments.Charge(); } catch {\n" + cases + "\n      }\n      goto Done;\n    }\n  }\n  terminal Done { }\n}\n"
}

const retry3 = `"a", retry: Backoff.Fixed(TimeSpan.FromSeconds(5)).MaxAttempts(3)`

// TestCatchCases: what a catch's cases are told, by message (the golden
// cases pin only the codes and lines): a misspelt reason against a misspelt
// kind, and a kind's case under a policy that retries it or under no policy.
func TestCatchCases(t *testing.T) {
	runDiagCases(t, []diagCase{
		{name: "a label nearest a reason is a misspelt reason; nearest a kind, an unknown kind",
			src: onceCatch(retry3+".NonRetryable(ChargeError.Declined)", "        Exhasted { goto Done; }\n        Decline { goto Done; }"),
			want: []string{
				"9:9 WF119 «Exhasted» unknown reason `Exhasted`: a catch's reasons are `Exhausted`, `Deadline`, `Terminal` and `Cancelled` && did you mean `Exhausted`? && !error kind",
				"10:9 WF119 «Decline» unknown reason or error kind `Decline`: no enum of the program has a member `Decline` && did you mean `Declined`?",
			}},
		{name: "a kind's case under a policy that retries that kind",
			src:  onceCatch(retry3, "        Declined { goto Done; }"),
			want: []string{"9:9 WF208 «Declined» && this step's policy retries it: add `.NonRetryable(ChargeError.Declined)` && !no `retry:` policy && fix append `.NonRetryable(ChargeError.Declined)`"}},
		{name: "a kind's case under no policy: its one failure gives up Exhausted, and no fix edits a policy it lacks",
			src:  onceCatch(`"a"`, "        Declined { goto Done; }"),
			want: []string{"9:9 WF208 «Declined» && this step has no `retry:` policy, so its one failure gives up `Exhausted` && !policy retries it && !| fix"}},
	})
}
