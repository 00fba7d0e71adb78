package check_test

import "testing"

// TestStates: subscriptions, handlers and their bodies: diagnostics, the
// source they underline and their fixes.
func TestStates(t *testing.T) {
	runDiagCases(t, []diagCase{
		{name: "a block that failed to parse may hold the way out: no WF204", src: inState("    subscribe Pick(Size s);\n    on Pick(Size s) { S { + + +; } default { } }"), syntaxOK: true},
		{name: "a handler of a state that failed to parse names nothing known: no WF105", src: inState("    subscribe Go();\n    on Nope { goto Done; }\n    on Go { goto Done; }\n    + + +;"), syntaxOK: true},
		{name: "a handler close to an undeclared subscribed event is explained by it: one WF104, no WF105", src: inState("    subscribe Zzzzzq();\n    on Zzzzzz { goto Done; }"), want: []string{"7:15 WF104 «Zzzzzq» && declares no event `Zzzzzq`"}},
		{name: "misspelled event renames the subscription and its handler", src: inState("    subscribe Gp();\n    on Gp { goto Done; }"), want: []string{"7:15 WF104 «Gp» && declares no event `Gp`; did you mean `Go`? && | fix replace `Gp` with `Go`: 7:15 «Gp»→«Go» 8:8 «Gp»→«Go»"}},
		{name: "misspelled event, handler first: the fix's edits in source order", src: inState("    on Gp { goto Done; }\n    subscribe Gp();"), want: []string{"8:15 WF104 «Gp» && did you mean `Go`? && | fix replace `Gp` with `Go`: 7:8 «Gp»→«Go» 8:15 «Gp»→«Go»"}},
		{name: "misspelled event with an alias renames the subscription only", src: inState("    subscribe Gp() as G;\n    on G { goto Done; }"), want: []string{"7:15 WF104 «Gp» && did you mean `Go`? && | fix replace `Gp` with `Go`: 7:15 «Gp»→«Go»"}},
		{name: "undeclared event far from any", src: inState("    subscribe Zzzzzz();\n    on Zzzzzz { goto Done; }"), want: []string{"7:15 WF104 «Zzzzzz» && declares no event `Zzzzzz`; declare it with `event Zzzzzz(…);` && !| fix"}},
		{name: "on the event of an aliased subscription", src: inState("    subscribe Go() as First;\n    subscribe Go() as Second;\n    on First { goto Done; }\n    on Go { goto Done; }"), want: []string{"10:8 WF105 «Go» && subscribes `Go` with the alias `Second`, so its handler is `on Second` && | related 8:23 «Second» the alias && | fix replace `Go` with `Second`: 10:8 «Go»→«Second»"}},
		{name: "on an event two aliases answer", src: inState("    subscribe Go() as First;\n    subscribe Go() as Second;\n    on Go { goto Done; }"), want: []string{"9:8 WF105 «Go» && has no subscription named `Go`; this state subscribes `First` and `Second`", "7:15 WF203 add `on First { … }`", "8:15 WF203 add `on Second { … }`"}},
		{name: "handler without subscription, its body checked as an orphan", src: inState("    subscribe Go();\n    on Go { goto Done; }\n    on Zzzzzz { default { goto Nowhere; } }"), want: []string{"9:8 WF105 «Zzzzzz» && has no subscription named `Zzzzzz`; this state subscribes `Go`", "9:32 WF103 «Nowhere»"}},
		{name: "handler without any subscription", src: inState("    on Zzzzzz { goto Done; }"), want: []string{"7:8 WF105 «Zzzzzz» && subscribe it first: `subscribe Zzzzzz(…);`"}},
		{name: "handler bodies are checked", src: inState("    subscribe Go();\n    on Go { goto Nowhere; }"), want: []string{"8:18 WF103 «Nowhere» && unknown state `Nowhere`"}},
		{name: "parameter of unknown type: its cases are not checked", src: inState("    subscribe Pick(Size s);\n    on Pick(Qqqqqq s) { X { goto Done; } }"), want: []string{"8:13 WF102 «Qqqqqq» && unknown type `Qqqqqq`"}},
		{name: "cases of the event's enum", src: inState("    subscribe Pick(Size s);\n    on Pick { S { goto Done; } X { goto Done; } default { goto Done; } default { goto Done; } }"), want: []string{"8:32 WF109 «X» && case `X` is not a member of `Size`, the type of `s`", "8:72 WF109 «default» && a second `default` in handler `on Pick` && | related 8:49 «default» first `default` here"}},
		{name: "Default for default", src: inState("    subscribe Pick(Size s);\n    on Pick { S { goto Done; } Default { goto Done; } }"), want: []string{"8:32 WF109 «Default» && did you mean `default`? && 8:32 «Default»→«default»"}},
		{name: "default outside a handler", src: inState("    subscribe Go() {\n      Finished { Within = TimeSpan.FromMinutes(1); Unfinished { goto Done; } Exhausted { default { goto Done; } } }\n    }\n    on Go { goto Done; }"), want: []string{"8:90 WF109 «default» && `default` in outcome `Exhausted`"}},
		{name: "cases without an enum", src: inState("    subscribe Go();\n    on Go { S { goto Done; } }"), want: []string{"8:13 WF109 «S» && case `S` in handler `on Go`, which has no enum parameter"}},
		{name: "one statement after goto", src: inState("    subscribe Go();\n    on Go { goto Done; Mail.Send(); }"), want: []string{"8:24 WF202 «Mail.Send();» && fix move the `goto Done;` after the statement: && fix remove the statement after"}},
		{name: "two statements after goto", src: inState("    subscribe Go();\n    on Go { goto Done; Mail.Send(); Mail.Send(); }"), want: []string{"8:24 WF202 «Mail.Send();» && fix move the `goto Done;` after the 2 statements: && fix remove the 2 statements after"}},
		{name: "Workflow.Once without a body", src: inState("    subscribe Go();\n    on Go { Workflow.Once(\"s\"); goto Done; }"), want: []string{"8:13 WF118 «Workflow.Once(\"s\")» && needs a body"}},
		{name: "unknown step", src: inState("    subscribe Go();\n    on Go { Workflow.Twice(\"s\") { goto Done; } goto Done; }"), want: []string{"8:13 WF118 «Workflow.Twice» && unknown step `Workflow.Twice`", "8:35 WF118 «goto Done;» && `goto` inside a durable step"}},
		{name: "nested step", src: inState("    subscribe Go();\n    on Go { Workflow.Once(\"a\") { Workflow.Once(\"b\") { } } goto Done; }"), want: []string{"8:34 WF118 «Workflow.Once(\"b\")» && a durable step inside a durable step"}},
		{name: "an alias is one name in its workflow", src: `workflow W {
  Initial = A;
  event Go();
  event Ping();
  state A { subscribe Go() as X; on X { goto B; } }
  state B { subscribe Ping() as X; on X { goto Done; } }
  terminal Done { }
}
`, want: []string{"6:33 WF101 «X» && duplicate alias `X` && | related 5:31 «X» first declared here"}},
		{name: "the cases a handler misses, listed up to ten", src: `enum Big { M1, M2, M3, M4, M5, M6, M7, M8, M9, M10, M11, M12 }
workflow W {
  Initial = A;
  event Pick(Big b);
  state A {
    subscribe Pick(Big b);
    on Pick { M1 { goto Done; } }
  }
  terminal Done { }
}
`, want: []string{"7:8 WF206 «Pick» && has no case for `M2`, `M3`, `M4`, `M5`, `M6`, `M7`, `M8`, `M9`, `M10`, `M11` and 1 more of `Big` && add `M2 { … }`, `M3 { … }`, `M4 { … }`, `M5 { … }`, `M6 { … }`, `M7 { … }`, `M8 { … }`, `M9 { … }`, `M10 { … }`, `M11 { … }`, … or `default { … }`"}},
	})
}
