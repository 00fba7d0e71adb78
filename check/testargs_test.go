package check_test

import "testing"

// inTest is a program of one workflow, Flow (a step "notify" in its state
// A), and a test whose statements start on line 8.
func inTest(stmts string) string {
	return "workflow Flow {\n  Initial = A;\n  event Go();\n" +
		"  state A { subscribe Go(); on Go { Workflow.Once(\"notify\") { Mail.Send(); } goto End; } }\n" +
		"  terminal End { }\n}\ntest \"t\" {\n" + stmts + "\n}\n"
}

// TestTestArguments: what a test's statements are told about their
// arguments (WF502), by message: the golden cases pin only codes and lines.
func TestTestArguments(t *testing.T) {
	runDiagCases(t, []diagCase{
		{name: "Workflow names a workflow; a string is not one",
			src:  inTest(`  Workflow = "Flow";`),
			want: []string{"8:14 WF502 «\"Flow\"» `Workflow` takes a workflow's name; found `\"Flow\"`"}},
		{name: "Workflow by name: quiet", src: inTest("  Workflow = Flow;")},
		{name: "a call that takes at least one argument, given none",
			src:  inTest("  Expect.Attempts();"),
			want: []string{"8:3 WF502 «Expect.Attempts()» `Expect.Attempts` takes at least one argument, as in `Expect.Attempts(\"charge-card\", TimeSpan.Zero, TimeSpan.FromSeconds(2))`; found 0"}},
		{name: "a call that takes exactly one argument, given two",
			src:  inTest(`  Expect.GaveUp("notify", "notify");`),
			want: []string{"8:27 WF502 «\"notify\"» `Expect.GaveUp` takes one argument, as in `Expect.GaveUp(\"charge-card\")`; found 2 && !at least"}},
		{name: "a state is named, not quoted",
			src:  inTest(`  Expect.State("A");`),
			want: []string{"8:16 WF502 «\"A\"» expected a state's name; found `\"A\"`"}},
		{name: "a state by name: quiet", src: inTest("  Expect.State(A);")},
		{name: "an expected call's Enum.Member: a member its enum lacks is WF502",
			src:  "enum Tone { Calm, Loud }\n" + inTest("  Expect.Call(Mail.Send(Tone.Quiet));"),
			want: []string{"9:30 WF502 «Quiet» `Quiet` is not a member of enum `Tone`"}},
		{name: "an enum declared twice (WF101) decides no member: only WF101",
			src:  "enum Tone { Calm, Loud }\nenum Tone { Calm }\n" + inTest("  Expect.Call(Mail.Send(Tone.Quiet));"),
			want: []string{"2:6 WF101 «Tone»"}},
	})
}
