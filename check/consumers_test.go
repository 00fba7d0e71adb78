package check_test

import "testing"

// inState wraps a state body in a workflow with the events Go and Ping and
// the terminal state Done; the body starts on line 6.
func inState(body string) string {
	return "enum Size { S, M, L }\nworkflow W {\n  Initial = A;\n  event Go();\n  event Pick(Size s);\n" +
		"  state A {\n" + body + "\n  }\n  terminal Done { }\n}\n"
}

// inMilestone wraps milestone settings in `subscribe Go() { Finished { … } }`;
// the settings start on line 10.
func inMilestone(settings string) string {
	return inState("    subscribe Go() {\n      Finished {\n        Unfinished { goto Done; }\n" + settings + "\n      }\n    }\n    on Go { goto Done; }")
}

// inStep wraps a step's arguments in `on Go { Workflow.Once(…) { } }` on line 9.
func inStep(args string) string {
	return inState("    subscribe Go();\n    on Go {\n      Workflow.Once(" + args + ") { Mail.Send(); }\n      goto Done;\n    }")
}

// TestMilestoneBudgets: a milestone's `Within`, `Retries` and `Backoff`:
// their diagnostics, fixes and the consumer lowering receives.
func TestMilestoneBudgets(t *testing.T) {
	runDiagCases(t, []diagCase{
		{name: "both budgets, Backoff first: WF301, its fixes edits in source order", src: inMilestone("        Within = TimeSpan.FromMinutes(1);\n        Backoff = Backoff.Fixed(TimeSpan.FromSeconds(1)).MaxAttempts(3);\n        Retries = 2;"), want: []string{"11:58 WF301 «MaxAttempts(3)» && `Retries = 2` && write `.MaxAttempts(3)` on the policy && related 12:9 «Retries = 2;» `Retries` set here && fix drop `.MaxAttempts(…)`: 11:57 «.MaxAttempts(3)»→«» | && fix drop `Retries` and write `.MaxAttempts(3)`: 11:70 «3»→«3» 12:1 «        Retries = 2;\\n»→«»"}, consumers: []string{"A/Go Finished attempts=3 budget=Retries window=600000000 valid=false lintable=false"}},
		{name: "both budgets, Retries first, sharing a line", src: inMilestone("        Within = TimeSpan.FromMinutes(1); Retries = 4;\n        Backoff = Backoff.Fixed(TimeSpan.FromSeconds(1)).MaxAttempts(2);"), want: []string{"11:58 WF301 «MaxAttempts(2)» && fix drop `Retries` and write `.MaxAttempts(5)`: 10:43 «Retries = 4;»→«» 11:70 «2»→«5»"}, consumers: []string{"A/Go Finished attempts=5 budget=Retries window=600000000 valid=false lintable=false"}},
		{name: "Retries alone", src: inMilestone("        Within = TimeSpan.FromMinutes(1);\n        Retries = 2;\n        Backoff = Backoff.Fixed(TimeSpan.FromSeconds(1));"), consumers: []string{"A/Go Finished attempts=3 budget=Retries window=600000000 valid=true lintable=true"}},
		{name: "MaxAttempts alone", src: inMilestone("        Within = TimeSpan.FromMinutes(1);\n        Backoff = Backoff.Exponential(TimeSpan.FromSeconds(1)).MaxAttempts(4);"), consumers: []string{"A/Go Finished attempts=4 budget=MaxAttempts window=600000000 valid=true lintable=true"}},
		{name: "Retries = 0", src: inMilestone("        Within = TimeSpan.FromMinutes(1);\n        Retries = 0;"), want: []string{"11:19 WF308 «0» `Retries = 0`: one window and no retries"}, consumers: []string{"A/Go Finished attempts=1 budget=Retries window=600000000 valid=true lintable=true"}},
		{name: "Retries = -1", src: inMilestone("        Within = TimeSpan.FromMinutes(1);\n        Retries = -1;"), want: []string{"11:19 WF307 «-1» `Retries = -1`"}, consumers: []string{"A/Go Finished attempts=1 budget=none window=600000000 valid=false lintable=false"}},
		{name: "Retries = 1.5", src: inMilestone("        Within = TimeSpan.FromMinutes(1);\n        Retries = 1.5;"), want: []string{"11:19 WF107 «1.5» `Retries` takes an int && `1.5` is not a whole number"}, consumers: []string{"A/Go Finished attempts=1 budget=none window=600000000 valid=false lintable=false"}},
		{name: "MaxAttempts(1)", src: inMilestone("        Within = TimeSpan.FromMinutes(1);\n        Backoff = Backoff.Fixed(TimeSpan.FromSeconds(1)).MaxAttempts(1);"), want: []string{"11:70 WF308 «1» `MaxAttempts(1)`"}, consumers: []string{"A/Go Finished attempts=1 budget=MaxAttempts window=600000000 valid=true lintable=true"}},
		{name: "no Within", src: inMilestone("        Retries = 2;"), want: []string{"8:7 WF108 «Finished» milestone `Finished` has no `Within`"}, consumers: []string{"A/Go Finished attempts=3 budget=Retries window=0 valid=false lintable=true"}},
		{name: "zero Within", src: inMilestone("        Within = TimeSpan.FromSeconds(0);\n        Retries = 1;"), consumers: []string{"A/Go Finished attempts=2 budget=Retries window=0 valid=true lintable=true"}},
		{name: "negative Within", src: inMilestone("        Within = TimeSpan.FromSeconds(-5);\n        Retries = 1;"), want: []string{"10:18 WF305 «TimeSpan.FromSeconds(-5)» `Within` is negative (-5s)"}, consumers: []string{"A/Go Finished attempts=2 budget=Retries window=0 valid=false lintable=true"}},
		{name: "invalid policy", src: inMilestone("        Within = TimeSpan.FromMinutes(1);\n        Backoff = Backoff.Fixed(TimeSpan.FromSeconds(-1)).MaxAttempts(3);"), want: []string{"11:33 WF305 «TimeSpan.FromSeconds(-1)» the interval is negative"}, consumers: []string{"A/Go Finished attempts=3 budget=MaxAttempts window=600000000 valid=false lintable=false"}},
		{name: "not a policy", src: inMilestone("        Within = TimeSpan.FromMinutes(1);\n        Backoff = 5;"), want: []string{"11:19 WF107 «5» `Backoff` takes a Backoff policy, not an int: write `TimeSpan.FromSeconds(5)` (a bare TimeSpan is a fixed policy)"}, consumers: []string{"A/Go Finished attempts=1 budget=none window=600000000 valid=false lintable=false"}},
		{name: "an out-of-range Retries, already a lexical error, is not reported again", src: "workflow W {\n  Initial = A;\n  event Go();\n  state A {\n    subscribe Go() {\n      Finished {\n        Within = TimeSpan.FromMinutes(1);\n        Unfinished { goto Done; }\n        Retries = 99999999999;\n      }\n    }\n    on Go { goto Done; }\n  }\n  terminal Done { }\n}\n", syntaxOK: true, consumers: []string{"A/Go Finished attempts=1 budget=none window=600000000 valid=false lintable=false"}},
		{name: "the other kind's outcome: WF117 says whose it is", src: inState("    subscribe Go() {\n      Assigned {\n        Within = TimeSpan.FromMinutes(1);\n        Unfinished { goto Done; }\n      }\n    }\n    on Go { goto Done; }"), want: []string{"10:9 WF117 «Unfinished» `Unfinished` belongs to `Finished`, not `Assigned`: under `Assigned` write `Unassigned { … }` && fix replace `Unfinished` with `Unassigned`: 10:9 «Unfinished»→«Unassigned»"}},
		{name: "a call that is no policy, in a milestone: no budget in the advice", src: inMilestone("        Within = TimeSpan.FromMinutes(1);\n        Backoff = Backoff(1).MaxAttempts(3);"), want: []string{"11:19 WF304 «Backoff(1)» this is not a Backoff policy: write `Backoff.Exponential(TimeSpan.FromSeconds(2))` && !MaxAttempts(3)`"}},
		{name: "a decimal as a milestone's Backoff: a bare TimeSpan", src: inMilestone("        Within = TimeSpan.FromMinutes(1);\n        Backoff = 2.5;"), want: []string{"11:19 WF107 «2.5» `Backoff` takes a Backoff policy, not a decimal: write `TimeSpan.FromSeconds(2.5)` (a bare TimeSpan is a fixed policy)"}},
		{name: "outcome bodies are checked", src: inMilestone("        Within = TimeSpan.FromMinutes(1);\n        Exhausted { goto Nowhere; }"), want: []string{"11:26 WF103 «Nowhere» unknown state `Nowhere`"}, consumers: []string{"A/Go Finished attempts=1 budget=none window=600000000 valid=true lintable=true"}},
	})
}

// TestStepPolicies: a durable step's arguments and `retry:` policy: their
// diagnostics, fixes and the consumer lowering receives.
func TestStepPolicies(t *testing.T) {
	runDiagCases(t, []diagCase{
		{name: "valid step", src: inStep(`"s", retry: Backoff.Fixed(TimeSpan.FromSeconds(1)).MaxAttempts(3)`), consumers: []string{"A/s Workflow.Once attempts=3 budget=MaxAttempts window=0 valid=true lintable=true"}},
		{name: "no budget: WF302", src: inStep(`"s", retry: Backoff.Fixed(TimeSpan.FromSeconds(1))`), want: []string{"9:33 WF302 «Backoff.Fixed(TimeSpan.FromSeconds(1))» && has no `.MaxAttempts(…)` && 9:71 «»→«.MaxAttempts(3)»"}, consumers: []string{"A/s Workflow.Once attempts=1 budget=none window=0 valid=false lintable=false"}},
		{name: ".Retries(2): WF304 with its fix, no WF302", src: inStep(`"s", retry: Backoff.Fixed(TimeSpan.FromSeconds(1)).Retries(2)`), want: []string{"9:72 WF304 «Retries(2)» a policy has no `.Retries(…)` && fix write `.MaxAttempts(3)` (3 attempts: the first try and 2 retries): 9:72 «Retries(2)»→«MaxAttempts(3)»"}, consumers: []string{"A/s Workflow.Once attempts=1 budget=none window=0 valid=false lintable=false"}},
		{name: ".Retries(0): the least fix, .MaxAttempts(1)", src: inStep(`"s", retry: Backoff.Fixed(TimeSpan.FromSeconds(1)).Retries(0)`), want: []string{"9:72 WF304 «Retries(0)» && fix write `.MaxAttempts(1)` (1 attempt: the first try and no retries): 9:72 «Retries(0)»→«MaxAttempts(1)»"}},
		{name: ".MaxRetries(1.5): no fix", src: inStep(`"s", retry: Backoff.Fixed(TimeSpan.FromSeconds(1)).MaxRetries(1.5)`), want: []string{"9:72 WF304 «MaxRetries(1.5)» a policy has no `.MaxRetries(…)` && !| fix"}},
		{name: ".Retries(2147483647): no fix past int32", src: inStep(`"s", retry: Backoff.Fixed(TimeSpan.FromSeconds(1)).Retries(2147483647)`), want: []string{"9:72 WF304 «Retries(2147483647)» a policy has no `.Retries(…)` && !| fix"}},
		{name: ".Retries(2147483646): the largest fix", src: inStep(`"s", retry: Backoff.Fixed(TimeSpan.FromSeconds(1)).Retries(2147483646)`), want: []string{"9:72 WF304 «Retries(2147483646)» && 9:72 «Retries(2147483646)»→«MaxAttempts(2147483647)»"}},
		{name: "unknown member", src: inStep(`"s", retry: Backoff.Fixed(TimeSpan.FromSeconds(1)).MaxAtempts(3)`), want: []string{"9:72 WF304 «MaxAtempts» unknown policy member `.MaxAtempts` && «MaxAtempts»→«MaxAttempts»"}, consumers: []string{"A/s Workflow.Once attempts=1 budget=none window=0 valid=false lintable=false"}},
		{name: "an unknown member beside the budget", src: inStep(`"s", retry: Backoff.Fixed(TimeSpan.FromSeconds(1)).MaxAttempts(3).Jiter(0.1)`), want: []string{"9:87 WF304 «Jiter» && unknown policy member `.Jiter`"}, consumers: []string{"A/s Workflow.Once attempts=3 budget=MaxAttempts window=0 valid=false lintable=false"}},
		{name: "MaxAttempts(0)", src: inStep(`"s", retry: Backoff.Fixed(TimeSpan.FromSeconds(1)).MaxAttempts(0)`), want: []string{"9:84 WF307 «0» `MaxAttempts(0)`: attempts count the first try"}},
		{name: "MaxAttempts(1)", src: inStep(`"s", retry: Backoff.Fixed(TimeSpan.FromSeconds(1)).MaxAttempts(1)`), want: []string{"9:84 WF308 «1» `MaxAttempts(1)`"}, consumers: []string{"A/s Workflow.Once attempts=1 budget=MaxAttempts window=0 valid=true lintable=true"}},
		{name: "Cap not a TimeSpan", src: inStep(`"s", retry: Backoff.Fixed(TimeSpan.FromSeconds(1)).MaxAttempts(3).Cap(5)`), want: []string{"9:91 WF304 «5» `.Cap` expects a TimeSpan, not an int"}, consumers: []string{"A/s Workflow.Once attempts=3 budget=MaxAttempts window=0 valid=false lintable=false"}},
		{name: "Cap zero", src: inStep(`"s", retry: Backoff.Exponential(TimeSpan.FromSeconds(1)).MaxAttempts(3).Cap(TimeSpan.FromSeconds(0))`), consumers: []string{"A/s Workflow.Once attempts=3 budget=MaxAttempts window=0 valid=true lintable=true"}},
		{name: "Cap negative", src: inStep(`"s", retry: Backoff.Exponential(TimeSpan.FromSeconds(1)).MaxAttempts(3).Cap(TimeSpan.FromSeconds(-1))`), want: []string{"9:97 WF305 «TimeSpan.FromSeconds(-1)» the cap is negative (-1s)"}, consumers: []string{"A/s Workflow.Once attempts=3 budget=MaxAttempts window=0 valid=false lintable=false"}},
		{name: "Cap twice", src: inStep(`"s", retry: Backoff.Exponential(TimeSpan.FromSeconds(1)).Cap(TimeSpan.FromSeconds(9)).MaxAttempts(3).Cap(TimeSpan.FromSeconds(5))`), want: []string{"9:122 WF303 «Cap(TimeSpan.FromSeconds(5))» `.Cap` is given twice, with different values && related 9:78 «Cap(TimeSpan.FromSeconds(9))» first given here && 9:121 «.Cap(TimeSpan.FromSeconds(5))»→«» && 9:77 «.Cap(TimeSpan.FromSeconds(9))»→«» && !machine-applicable"}, consumers: []string{"A/s Workflow.Once attempts=3 budget=MaxAttempts window=0 valid=false lintable=false"}},
		{name: "Jitter not a number", src: inStep(`"s", retry: Backoff.Exponential(TimeSpan.FromSeconds(1)).MaxAttempts(3).Jitter("x")`), want: []string{"9:100 WF304 «\"x\"» `.Jitter` expects a decimal fraction"}, consumers: []string{"A/s Workflow.Once attempts=3 budget=MaxAttempts window=0 valid=false lintable=false"}},
		{name: "Cap twice, alike", src: inStep(`"s", retry: Backoff.Exponential(TimeSpan.FromSeconds(1)).Cap(TimeSpan.FromSeconds(9)).MaxAttempts(3).Cap( TimeSpan.FromSeconds(9) )`), want: []string{"9:122 WF303 «Cap( TimeSpan.FromSeconds(9) )» `.Cap` is given twice; the policy && related 9:78 «Cap(TimeSpan.FromSeconds(9))» first given here && 9:121 «.Cap( TimeSpan.FromSeconds(9) )»→«» [machine-applicable]"}, consumers: []string{"A/s Workflow.Once attempts=3 budget=MaxAttempts window=0 valid=false lintable=false"}},
		{name: "Jitter bounds are inclusive", src: inStep(`"s", retry: Backoff.Exponential(TimeSpan.FromSeconds(1)).MaxAttempts(3).Jitter(0)`), consumers: []string{"A/s Workflow.Once attempts=3 budget=MaxAttempts window=0 valid=true lintable=true"}},
		{name: "Jitter one", src: inStep(`"s", retry: Backoff.Exponential(TimeSpan.FromSeconds(1)).MaxAttempts(3).Jitter(1)`), consumers: []string{"A/s Workflow.Once attempts=3 budget=MaxAttempts window=0 valid=true lintable=true"}},
		{name: "Jitter outside", src: inStep(`"s", retry: Backoff.Exponential(TimeSpan.FromSeconds(1)).MaxAttempts(3).Jitter(-0.1)`), want: []string{"9:100 WF309 «-0.1» `Jitter(-0.1)` is outside [0, 1]"}, consumers: []string{"A/s Workflow.Once attempts=3 budget=MaxAttempts window=0 valid=false lintable=false"}},
		{name: "unknown factory", src: inStep(`"s", retry: Backoff.Fixd(TimeSpan.FromSeconds(1)).MaxAttempts(3)`), want: []string{"9:41 WF304 «Fixd» unknown policy `Backoff.Fixd` && «Fixd»→«Fixed»"}, consumers: []string{"A/s Workflow.Once attempts=3 budget=MaxAttempts window=0 valid=false lintable=false"}},
		{name: "a call that is no policy, on a step: the advice has its budget", src: inStep(`"s", retry: Backoff(1).MaxAttempts(3)`), want: []string{"9:33 WF304 «Backoff(1)» this is not a Backoff policy: write `Backoff.Exponential(TimeSpan.FromSeconds(2)).MaxAttempts(3)`"}},
		{name: "a decimal as a step's policy: a fixed policy with its budget", src: inStep(`"s", retry: 2.5`), want: []string{"9:33 WF304 «2.5» `retry:` takes a Backoff policy, not a decimal: write `Backoff.Fixed(TimeSpan.FromSeconds(2.5)).MaxAttempts(3)`"}},
		{name: "a factory's argument that is no TimeSpan leaves the consumer invalid", src: inStep(`"s", retry: Backoff.Fixed(5).MaxAttempts(3)`), want: []string{"9:47 WF304 «5» `Backoff.Fixed` expects a TimeSpan (the interval), not an int: write `TimeSpan.FromSeconds(5)`"}, consumers: []string{"A/s Workflow.Once attempts=3 budget=MaxAttempts window=0 valid=false lintable=false"}},
		{name: "TimeSpan.Zero called: its fix drops the parentheses", src: inStep(`"s", retry: Backoff.Fixed(TimeSpan.Zero()).MaxAttempts(3)`), want: []string{"9:47 WF304 «TimeSpan.Zero()» `TimeSpan.Zero` takes no arguments && 9:60 «()»→«» [machine-applicable]"}},
		{name: "factory arity", src: inStep(`"s", retry: Backoff.Fixed().MaxAttempts(3)`), want: []string{"9:33 WF304 «Backoff.Fixed()» `Backoff.Fixed` takes one TimeSpan"}, consumers: []string{"A/s Workflow.Once attempts=3 budget=MaxAttempts window=0 valid=false lintable=false"}},
		{name: "member without argument", src: inStep(`"s", retry: Backoff.Fixed(TimeSpan.FromSeconds(1)).MaxAttempts(attempts: 3)`), want: []string{"9:72 WF304 «MaxAttempts(attempts: 3)» `.MaxAttempts` takes one int"}},
		{name: "no name", src: inStep(`retry: Backoff.Fixed(TimeSpan.FromSeconds(1)).MaxAttempts(3)`), want: []string{"9:7 WF118 «Workflow.Once(retry: && needs the step's name first"}, consumers: []string{"A/ Workflow.Once attempts=3 budget=MaxAttempts window=0 valid=false lintable=true"}},
		{name: "unknown argument", src: inStep(`"s", retri: Backoff.Fixed(TimeSpan.FromSeconds(1)).MaxAttempts(3)`), want: []string{"9:26 WF118 «retri» unknown argument `retri:` && «retri»→«retry»"}, consumers: []string{"A/s Workflow.Once attempts=1 budget=none window=0 valid=true lintable=false"}},
		{name: "retry twice", src: inStep(`"s", retry: Backoff.Fixed(TimeSpan.FromSeconds(1)).MaxAttempts(3), retry: Backoff.Fixed(TimeSpan.FromSeconds(1)).MaxAttempts(2)`), want: []string{"9:88 WF101 «retry» duplicate argument `retry:` && related 9:26 «retry» first given here"}, consumers: []string{"A/s Workflow.Once attempts=3 budget=MaxAttempts window=0 valid=true lintable=true"}},
		{name: "no retry", src: inStep(`"s"`), consumers: []string{"A/s Workflow.Once attempts=1 budget=none window=0 valid=true lintable=false"}},
	})
}
