package diag

import (
	"fmt"
	"strings"
)

// Code documents one diagnostic code for `wfc explain`, the README's table
// and SARIF rules, and says which stage reports it and where an ignore
// comment's scope ends for it. This table is the one place the list of
// codes lives; tests check that each code has its explanation, a golden
// case and a README row, and that Wrong yields the code while Right checks
// clean.
type Code struct {
	Code     ID
	Severity Severity
	Phase    Phase  // the stage that reports it
	Scope    Scope  // what it is about, for ignore comments
	Title    string // one line, as in the catalogue of docs/language.md
	Explain  string // what it means and why it matters
	Wrong    string // a program that yields the code
	Right    string // the corrected program, clean of every diagnostic
}

// Phase is the stage of the pipeline that reports a code.
type Phase uint8

const (
	// Syntax: the lexer and the parser (WF001–WF005). A file with one has
	// a partial tree: --fix applies no other fix to it, `wfc graph` draws
	// nothing from it.
	Syntax Phase = iota
	// Meaning: the checker, names, values and the program's shape
	// (WF101–WF207, WF301–WF309), and the tests' (WF501–WF505).
	Meaning
	// Policy: the lints read off the lowered schedule tables (WF310–WF316).
	Policy
	// Finish: the last stage, ignore comments (WF317).
	Finish
	// Export: a backend, for what its target cannot express (WF401–WF405);
	// `wfc check` does not report these.
	Export
)

var phaseNames = [...]string{Syntax: "syntax", Meaning: "meaning", Policy: "policy", Finish: "finish", Export: "export"}

func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return fmt.Sprintf("Phase(%d)", int(p))
}

// Scope is what a code is about, which bounds where an error can hide one
// of its warnings: an ignore comment for the code is stale (WF317) only if
// no error sits in that scope (docs/checker.md lists which errors hide
// what).
type Scope uint8

const (
	// ScopeDecl: a declaration (enum, entity, workflow) as a whole.
	ScopeDecl Scope = iota
	// ScopeState: one state's flow (WF202–WF206).
	ScopeState
	// ScopeConsumer: one policy consumer, a milestone or a durable step
	// (WF306, WF308, WF310–WF316).
	ScopeConsumer
)

// ID is a diagnostic code. Code that reports a diagnostic names it with one
// of the constants below, never with a string literal, so a typo does not
// compile and every use of a code can be found.
type ID string

// The codes of the catalogue (Codes), in code order.
const (
	WF001 ID = "WF001"
	WF002 ID = "WF002"
	WF003 ID = "WF003"
	WF004 ID = "WF004"
	WF005 ID = "WF005"
	WF101 ID = "WF101"
	WF102 ID = "WF102"
	WF103 ID = "WF103"
	WF104 ID = "WF104"
	WF105 ID = "WF105"
	WF106 ID = "WF106"
	WF107 ID = "WF107"
	WF108 ID = "WF108"
	WF109 ID = "WF109"
	WF110 ID = "WF110"
	WF111 ID = "WF111"
	WF112 ID = "WF112"
	WF113 ID = "WF113"
	WF114 ID = "WF114"
	WF115 ID = "WF115"
	WF116 ID = "WF116"
	WF117 ID = "WF117"
	WF118 ID = "WF118"
	WF119 ID = "WF119"
	WF120 ID = "WF120"
	WF201 ID = "WF201"
	WF202 ID = "WF202"
	WF203 ID = "WF203"
	WF204 ID = "WF204"
	WF205 ID = "WF205"
	WF206 ID = "WF206"
	WF207 ID = "WF207"
	WF208 ID = "WF208"
	WF209 ID = "WF209"
	WF301 ID = "WF301"
	WF302 ID = "WF302"
	WF303 ID = "WF303"
	WF304 ID = "WF304"
	WF305 ID = "WF305"
	WF306 ID = "WF306"
	WF307 ID = "WF307"
	WF308 ID = "WF308"
	WF309 ID = "WF309"
	WF310 ID = "WF310"
	WF311 ID = "WF311"
	WF312 ID = "WF312"
	WF313 ID = "WF313"
	WF314 ID = "WF314"
	WF315 ID = "WF315"
	WF316 ID = "WF316"
	WF317 ID = "WF317"
	WF318 ID = "WF318"
	WF319 ID = "WF319"
	WF320 ID = "WF320"
	WF321 ID = "WF321"
	WF322 ID = "WF322"
	WF401 ID = "WF401"
	WF402 ID = "WF402"
	WF403 ID = "WF403"
	WF404 ID = "WF404"
	WF405 ID = "WF405"
	WF406 ID = "WF406"
	WF407 ID = "WF407"
	WF501 ID = "WF501"
	WF502 ID = "WF502"
	WF503 ID = "WF503"
	WF504 ID = "WF504"
	WF505 ID = "WF505"
)

// MachineFixes says, for each code some of whose diagnostics carry a
// machine-applicable fix (one that needs no person's choice: `wfc check
// --fix` applies it, an editor offers it as the preferred quick fix), which
// mistakes those are. It is the catalogue's promise: the root package's
// TestFixesFix applies every such fix of the golden cases and re-checks,
// fails on a machine-applicable fix of a code not listed here, and fails
// when a code listed here has no golden case whose fix it applied.
var MachineFixes = map[ID]string{
	WF001: "a keyword in the wrong case (`State`), a missing `;`, `,` or `{` (by indentation), `=` for `==` in a condition, `=` for a named argument's `:`, and the other languages' forms that have one spelling here",
	WF003: "a `#` or `--` comment (`//`), a string in single, typographic or backtick quotes (`\"…\"`), a name written with Cyrillic or Greek look-alikes of Latin letters (its Latin spelling, at every use)",
	WF107: "`MaxAttempts = n` in a milestone (`Retries = n-1`)",
	WF303: "a policy member given twice with the same value (the second is deleted)",
	WF304: "a number written as a string (`.MaxAttempts(\"4\")`), a word that takes no argument called with parentheses (`TimeSpan.Zero()`)",
	WF310: "a member that has no effect (`.Jitter(0)`, a cap no wait reaches) is deleted",
	WF317: "a stale ignore comment, or a stale code in it, is removed; a code in lower case is written in upper case",
	WF208: "a `catch` case the step can never reach is removed",
	WF322: "`.NonRetryable(…)` or `.RetryOn(…)` on a milestone's policy, where windows pass and never fail with a kind, is deleted",
	WF502: "a string in a test where an enum member belongs, when its text names exactly one member, bare, qualified or but for case (`Send(Complete(\"Ok\"))` → `Send(Complete(Ok))`)",
}

// catalogue indexes Codes by ID, built once.
var catalogue = func() map[ID]*Code {
	m := make(map[ID]*Code, len(Codes))
	for i := range Codes {
		m[Codes[i].Code] = &Codes[i]
	}
	return m
}()

// SeverityOf returns the catalogued severity of a code; an uncatalogued
// code is an error.
func SeverityOf(id ID) Severity {
	if c, ok := catalogue[id]; ok {
		return c.Severity
	}
	return Error
}

// Phase returns the stage that reports the code; an uncatalogued code is
// Meaning's.
func (id ID) Phase() Phase {
	if c, ok := catalogue[id]; ok {
		return c.Phase
	}
	return Meaning
}

// Scope returns what the code is about; an uncatalogued code is about its
// declaration.
func (id ID) Scope() Scope {
	if c, ok := catalogue[id]; ok {
		return c.Scope
	}
	return ScopeDecl
}

// New makes a diagnostic of code id with the catalogue's severity. Every
// stage reports through it (or List.Add), so a code's severity is written
// in one place.
func New(file string, r Range, id ID, msg string) Diagnostic {
	return Diagnostic{File: file, Severity: SeverityOf(id), Code: id, Message: msg, Range: r}
}

// Lookup returns the documentation of a code.
func Lookup(id ID) (Code, bool) {
	if c, ok := catalogue[id]; ok {
		return *c, true
	}
	return Code{}, false
}

// MachineFix says which of the code's mistakes have a machine-applicable
// fix (MachineFixes), or "" for none.
func (c Code) MachineFix() string { return MachineFixes[c.Code] }

// Help is the text of `wfc explain`: what the code means, why it matters,
// which of its mistakes `--fix` repairs, a wrong example and the corrected
// one.
func (c Code) Help() string { return c.HelpWith(func(src string) string { return src }) }

// HelpWith is Help with each example passed through layout: `wfc explain`
// lays them out as `wfc fmt` does (diag cannot import the formatter).
func (c Code) HelpWith(layout func(string) string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s): %s\n\n", c.Code, c.Severity, c.Title)
	b.WriteString(c.Explain + "\n\n")
	if f := c.MachineFix(); f != "" {
		b.WriteString("Machine-applicable fix (`wfc check --fix`): " + f + ".\n\n")
	}
	b.WriteString("Wrong:\n\n" + indent(layout(c.Wrong)) + "\nRight:\n\n" + indent(layout(c.Right)))
	return b.String()
}

func indent(s string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(s, "\n") {
		switch line {
		case "":
		case "\n":
			b.WriteString(line)
		default:
			b.WriteString("    " + line)
		}
	}
	return b.String()
}

// wrap builds a small complete program around a workflow body.
func wrap(body string) string {
	return "workflow W {\n  Initial = A;\n  event Go();\n" + body + "}\n"
}

// testOf is the smallest program with a test whose body is items (then an
// expectation of the end), for the codes of tests (WF501–WF505).
func testOf(items string) string {
	return wrap(okStates) + "test \"ends\" {\n  Workflow = W;\n" + items + "  Expect.End(Done, at: TimeSpan.FromSeconds(5));\n}\n"
}

const okStates = "  state A { subscribe Go(); on Go { goto Done; } }\n  terminal Done { }\n"

// Codes lists every diagnostic wfc reports, in code order.
var Codes = []Code{
	{"WF001", Error, Syntax, ScopeDecl, "syntax error: unexpected token",
		"The text does not follow the grammar (docs/language.md) at this token. The message says what was expected there. wfc recovers at the next declaration, member or item, so every independent syntax error of a file is reported in one run.",
		"enum Size { Small Large }\n",
		"enum Size { Small, Large }\n"},
	{"WF002", Error, Syntax, ScopeDecl, "unterminated string or block comment",
		"A string must close with `\"` on the same line; a block comment must close with `*/` (block comments do not nest). The range is the opening quote or `/*`.",
		"enum Size { Small, Large } /* sizes\n",
		"enum Size { Small, Large } /* sizes */\n"},
	{"WF003", Error, Syntax, ScopeDecl, "character that cannot start a token, invalid UTF-8, or NUL",
		"Files are UTF-8 text. A byte sequence that is not UTF-8, a NUL byte, or a character that starts no token (such as `@`) is reported once per run and skipped, and lexing goes on. NUL and bytes that are not UTF-8 are errors inside strings and comments too. Other languages' forms are reported once each and read as what they mean: a `#` or `--` comment (comments are `//`; its words are skipped), a string in single quotes, typographic quotes (`“…”`) or JavaScript's backticks (strings use `\"`; the fix rewrites it), and a name with a letter outside ASCII (identifiers are ASCII letters, digits and `_`; reported at the name's first use in a file; a Cyrillic or Greek letter that looks like a Latin one is read as that letter, and the fix writes the Latin name at every use).",
		"enum Size { Small, Large } # sizes\n",
		"enum Size { Small, Large } // sizes\n"},
	{"WF004", Error, Syntax, ScopeDecl, "malformed number, or int out of range",
		"An int is 32-bit signed (-2147483648 to 2147483647) and a decimal holds at most 79228162514264337593543950335, with at most 28 digits after the point. A number glued to letters (`5s`) is malformed: durations are written `TimeSpan.FromSeconds(5)`. A bad literal is reported once, here, and not again as a type error.",
		wrap("  state A {\n    subscribe Go() { Finished { Within = TimeSpan.FromSeconds(5s); Unfinished { goto Done; } } }\n  }\n  terminal Done { }\n"),
		wrap("  state A {\n    subscribe Go() { Finished { Within = TimeSpan.FromSeconds(5); Unfinished { goto Done; } } }\n  }\n  terminal Done { }\n")},
	{"WF005", Error, Syntax, ScopeDecl, "bad string escape",
		"Strings accept the escapes `\\\"` `\\\\` `\\n` `\\r` `\\t` `\\0` and `\\uXXXX` (four hex digits). Anything else after a backslash is an error; write `\\\\` for a backslash.",
		wrap(okStates[:len(okStates)-len("  terminal Done { }\n")] + "  terminal error Done { Message = \"C:\\temp\\x\"; }\n"),
		wrap(okStates[:len(okStates)-len("  terminal Done { }\n")] + "  terminal error Done { Message = \"C:\\\\temp\\\\x\"; }\n")},
	{"WF101", Error, Meaning, ScopeDecl, "duplicate name",
		"Names are unique in their scope: enums, entities and workflows across the whole program; states, events, aliases and step names per workflow; members, fields, settings, cases and milestone kinds per declaration. The second name is reported, with the first as related location; uses still resolve to the first.",
		"enum Size { Small, Large, Small }\n",
		"enum Size { Small, Large }\n"},
	{"WF102", Error, Meaning, ScopeDecl, "unknown type",
		"A field or parameter type is `string`, `int`, `bool`, `decimal`, `DateTime`, `TimeSpan`, or an enum or entity declared in any file checked together. The message suggests the closest declared name.",
		"enum Size { Small, Large }\nentity Box { Sise Size; }\n",
		"enum Size { Small, Large }\nentity Box { Size Size; }\n"},
	{"WF103", Error, Meaning, ScopeDecl, "unknown state in `goto` or `Initial`",
		"`goto S;` and `Initial = S;` name a state of the same workflow. An unresolved `goto` still counts as a way out of its state, so this is the one diagnostic for it.",
		wrap("  state A { subscribe Go(); on Go { goto Dnoe; } }\n  terminal Done { }\n"),
		wrap(okStates)},
	{"WF104", Error, Meaning, ScopeDecl, "`subscribe` of an undeclared event",
		"A state can only wait for an event its workflow declares with `event Name(…);`. This is the only diagnostic for such a subscription: its handler and milestones are not reported again.",
		wrap("  state A { subscribe Goo(); on Goo { goto Done; } }\n  terminal Done { }\n"),
		wrap(okStates)},
	{"WF105", Error, Meaning, ScopeDecl, "`on X` where X is not subscribed in this state",
		"A handler reacts to a subscription of its own state, named by the event or by its `as` alias. Subscribe the event in this state, or handle the name the subscription uses.",
		wrap("  state A { subscribe Go() as Started; on Go { goto Done; } }\n  terminal Done { }\n"),
		wrap("  state A { subscribe Go() as Started; on Started { goto Done; } }\n  terminal Done { }\n")},
	{"WF106", Error, Meaning, ScopeDecl, "parameters do not match the event's declaration",
		"A subscription and a handler with a parameter list must list the event's parameter types, in order. The message shows the declaration to copy.",
		"enum Decision { Ok, No }\nworkflow W {\n  Initial = A;\n  event Done(Decision d);\n  state A { subscribe Done(int d); on Done { goto End; } }\n  terminal End { }\n}\n",
		"enum Decision { Ok, No }\nworkflow W {\n  Initial = A;\n  event Done(Decision d);\n  state A { subscribe Done(Decision d); on Done { goto End; } }\n  terminal End { }\n}\n"},
	{"WF107", Error, Meaning, ScopeDecl, "setting unknown here, or its value has the wrong type",
		"Each context takes its own settings: a workflow `Tracks`, `Autostart`, `Initial`; a milestone `Within` (TimeSpan), `Retries` (int), `Backoff` (policy); a `terminal error` state `Message` (string). A milestone counts its budget in retries, the windows after the first: `MaxAttempts = n` there is the budget counted the other way, and its machine-applicable fix writes `Retries = n-1` (the budget is read as meant, so no second warning follows from it).",
		wrap("  state A {\n    subscribe Go() { Finished { Within = 5; Unfinished { goto Done; } } }\n  }\n  terminal Done { }\n"),
		wrap("  state A {\n    subscribe Go() { Finished { Within = TimeSpan.FromSeconds(5); Unfinished { goto Done; } } }\n  }\n  terminal Done { }\n")},
	{"WF108", Error, Meaning, ScopeDecl, "required setting missing",
		"A workflow needs `Initial` (the state a run starts in); a milestone needs `Within` (the length of one window). The range is the enclosing name.",
		"workflow W {\n  event Go();\n" + okStates + "}\n",
		wrap(okStates)},
	{"WF109", Error, Meaning, ScopeDecl, "bad case label, case with no enum parameter, or two `default`s",
		"Inside a handler whose parameter has an enum type, `Member { … }` blocks are cases and must name members of that enum; `default { … }` catches the rest, once.",
		"enum Decision { Ok, No }\nworkflow W {\n  Initial = A;\n  event Done(Decision d);\n  state A { subscribe Done(Decision d); on Done(Decision d) { Okay { goto End; } default { goto End; } } }\n  terminal End { }\n}\n",
		"enum Decision { Ok, No }\nworkflow W {\n  Initial = A;\n  event Done(Decision d);\n  state A { subscribe Done(Decision d); on Done(Decision d) { Ok { goto End; } default { goto End; } } }\n  terminal End { }\n}\n"},
	{"WF110", Error, Meaning, ScopeDecl, "unknown attribute or misuse",
		"Entities take `[Principal]`; fields take `[Required]`, and string fields `[MaxLength(n)]` / `[MinLength(n)]` with n a positive int.",
		"entity Job { [MaxLength(10)] int Count; }\n",
		"entity Job { [MaxLength(10)] string Code; }\n"},
	{"WF111", Error, Meaning, ScopeDecl, "unknown security operation",
		"Security rules allow or deny the operations `read`, `create`, `update` and `delete`.",
		"entity Job { string Title; security { allow read, write when IsAuthenticated; } }\n",
		"entity Job { string Title; security { allow read, update when IsAuthenticated; } }\n"},
	{"WF112", Error, Meaning, ScopeDecl, "`Tracks` is not `Entity.Field` of an enum-typed field",
		"`Tracks = Job.Stage;` ties the workflow's states to an enum field of an entity: the field must exist and have an enum type.",
		"enum Stage { A, Done }\nentity Job { string Stage; }\nworkflow W {\n  Tracks = Job.Stage;\n  Initial = A;\n  event Go();\n" + okStates + "}\n",
		"enum Stage { A, Done }\nentity Job { Stage Stage; }\nworkflow W {\n  Tracks = Job.Stage;\n  Initial = A;\n  event Go();\n" + okStates + "}\n"},
	{"WF113", Error, Meaning, ScopeDecl, "state is not a member of the tracked enum",
		"With `Tracks`, the run's state is stored in the tracked field, so every state must be a member of its enum.",
		"enum Stage { A }\nentity Job { Stage Stage; }\nworkflow W {\n  Tracks = Job.Stage;\n  Initial = A;\n  event Go();\n" + okStates + "}\n",
		"enum Stage { A, Done }\nentity Job { Stage Stage; }\nworkflow W {\n  Tracks = Job.Stage;\n  Initial = A;\n  event Go();\n" + okStates + "}\n"},
	{"WF114", Warning, Meaning, ScopeDecl, "a tracked enum member has no state",
		"A member of the tracked enum that no state implements is a value the field can never take in this workflow: add the state or remove the member.",
		"enum Stage { A, Done, Lost }\nentity Job { Stage Stage; }\nworkflow W {\n  Tracks = Job.Stage;\n  Initial = A;\n  event Go();\n" + okStates + "}\n",
		"enum Stage { A, Done }\nentity Job { Stage Stage; }\nworkflow W {\n  Tracks = Job.Stage;\n  Initial = A;\n  event Go();\n" + okStates + "}\n"},
	{"WF115", Error, Meaning, ScopeDecl, "`Initial` names a terminal state",
		"A run starts in its initial state; a terminal initial state would end the run before it starts.",
		"workflow W {\n  Initial = Done;\n  event Go();\n" + okStates + "}\n",
		wrap(okStates)},
	{"WF116", Error, Meaning, ScopeDecl, "terminal state subscribes or handles",
		"A terminal state ends the run: it waits for nothing, so it has no subscriptions or handlers.",
		wrap("  state A { subscribe Go(); on Go { goto Done; } }\n  terminal Done { subscribe Go(); }\n"),
		wrap(okStates)},
	{"WF117", Error, Meaning, ScopeDecl, "unknown milestone kind, or an outcome that does not belong to it",
		"A subscription's milestones are `Assigned { … }` (outcomes `Exhausted`, `Unassigned`) and `Finished { … }` (outcomes `Exhausted`, `Unfinished`).",
		wrap("  state A {\n    subscribe Go() { Finished { Within = TimeSpan.FromMinutes(5); Unassigned { goto Done; } } }\n  }\n  terminal Done { }\n"),
		wrap("  state A {\n    subscribe Go() { Finished { Within = TimeSpan.FromMinutes(5); Unfinished { goto Done; } } }\n  }\n  terminal Done { }\n")},
	{"WF118", Error, Meaning, ScopeDecl, "bad durable step",
		"The only durable step is `Workflow.Once(\"name\", retry: policy) { calls }`. Its name is its durable identity (idempotency key): a non-empty string literal, unique in the workflow. Steps do not nest and contain no `goto`.",
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"\") { Mail.Send(); } goto Done; } }\n  terminal Done { }\n"),
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"notify\") { Mail.Send(); } goto Done; } }\n  terminal Done { }\n")},
	{"WF119", Error, Meaning, ScopeDecl, "bad `catch`: an unknown reason or error kind, or a case given twice",
		"A durable step's `catch { … }` (right after its block) holds cases: a reason (`Exhausted`, `Deadline`, `Terminal`, `Cancelled`), an error kind (a member of an enum of the program, `ChargeError.Declined`, or unqualified where the step's policy or the program makes it unique), and `default`, each at most once. An unqualified name is a reason first: a member named like one is written qualified.",
		"enum ChargeError { Declined, RateLimited }\n" + wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"charge\", retry: Backoff.Fixed(TimeSpan.FromSeconds(5)).MaxAttempts(3)) { Payments.Charge(); } catch { Exhasted { Mail.Send(); } } goto Done; } }\n  terminal Done { }\n"),
		"enum ChargeError { Declined, RateLimited }\n" + wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"charge\", retry: Backoff.Fixed(TimeSpan.FromSeconds(5)).MaxAttempts(3)) { Payments.Charge(); } catch { Exhausted { Mail.Send(); } } goto Done; } }\n  terminal Done { }\n")},
	{"WF120", Error, Meaning, ScopeDecl, "`Enum.Member` names no member of the enum",
		"A call's argument written `Enum.Member`, where `Enum` is a declared enum, must name one of its members: the run passes that member to the call. The message suggests the closest member, or lists them.",
		"enum Decision { Ok, No }\n" + wrap("  state A { subscribe Go(); on Go { Mail.Send(Decision.Okk); goto Done; } }\n  terminal Done { }\n"),
		"enum Decision { Ok, No }\n" + wrap("  state A { subscribe Go(); on Go { Mail.Send(Decision.Ok); goto Done; } }\n  terminal Done { }\n")},
	{"WF201", Warning, Meaning, ScopeDecl, "state unreachable from `Initial`",
		"No chain of `goto` leads from the initial state to this one, so no run can ever be in it. A state that only unreachable states lead to is not reported on its own: the warning is at the head of the chain, which names the states after it (a loop of unreachable states that nothing enters is reported at its first state).",
		wrap(okStates + "  terminal Lost { }\n"),
		wrap(okStates)},
	{"WF202", Warning, Meaning, ScopeState, "statements after `goto` never run",
		"`goto` leaves the state at once; what follows it in the same block is dead code. Two fixes, for a person to choose: move the `goto` after the statements, or remove them.",
		wrap("  state A { subscribe Go(); on Go { goto Done; Mail.Send(); } }\n  terminal Done { }\n"),
		wrap("  state A { subscribe Go(); on Go { Mail.Send(); goto Done; } }\n  terminal Done { }\n")},
	{"WF203", Warning, Meaning, ScopeState, "subscription with no handler and no milestone",
		"Waiting for an event that nothing reacts to does nothing: add `on Event { … }` or a milestone.",
		wrap("  event Stop();\n  state A { subscribe Go(); on Go { goto B; } }\n  state B { subscribe Go(); on Go { goto Done; } subscribe Stop(); }\n  terminal Done { }\n"),
		wrap(okStates)},
	{"WF204", Warning, Meaning, ScopeState, "non-terminal state with no way out",
		"No handler or outcome of the state says `goto`, so a run that enters it stays for ever. Add a `goto`, or make the state `terminal`.",
		wrap("  state A { subscribe Go(); on Go { Mail.Send(); } }\n"),
		wrap(okStates)},
	{"WF205", Warning, Meaning, ScopeState, "milestone without `Unfinished`/`Unassigned`",
		"When a milestone's last window passes, its `Unfinished` (or `Unassigned`) block says where the run goes; without it the run stays where it is.",
		wrap("  state A {\n    subscribe Go() { Finished { Within = TimeSpan.FromMinutes(5); } }\n    on Go { goto Done; }\n  }\n  terminal Done { }\n"),
		wrap("  state A {\n    subscribe Go() { Finished { Within = TimeSpan.FromMinutes(5); Unfinished { goto Done; } } }\n    on Go { goto Done; }\n  }\n  terminal Done { }\n")},
	{"WF206", Warning, Meaning, ScopeState, "cases miss enum members and there is no `default`",
		"A handler with cases over an enum parameter should cover every member or have `default`; otherwise the missing members do nothing.",
		"enum Decision { Ok, No }\nworkflow W {\n  Initial = A;\n  event Done(Decision d);\n  state A { subscribe Done(Decision d); on Done(Decision d) { Ok { goto End; } } }\n  terminal End { }\n}\n",
		"enum Decision { Ok, No }\nworkflow W {\n  Initial = A;\n  event Done(Decision d);\n  state A { subscribe Done(Decision d); on Done(Decision d) { Ok { goto End; } No { goto End; } } }\n  terminal End { }\n}\n"},
	{"WF207", Warning, Meaning, ScopeDecl, "more than one `[Principal]` entity",
		"The principal is the entity the runtime's security context identifies; a program has at most one.",
		"[Principal] entity Person { string Name; }\n[Principal] entity Robot { string Name; }\n",
		"[Principal] entity Person { string Name; }\nentity Robot { string Name; }\n"},
	{"WF208", Warning, Meaning, ScopeDecl, "a `catch` case that never runs",
		"A case of a step's catch runs only for a give-up it can take: `Cancelled` never (a cancelled step's handler ends where it is parked), `Deadline` only on a step with a `deadline:`, `Terminal` and a kind's case only when the step's policy makes a failure terminal (`.NonRetryable(…)`, or `.RetryOn(…)` for the kinds it leaves out). Remove the case, or make the policy say what the case expects; the fix for a kind adds it to `.NonRetryable(…)`.",
		"enum ChargeError { Declined, RateLimited }\n" + wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"charge\", retry: Backoff.Fixed(TimeSpan.FromSeconds(5)).MaxAttempts(3)) { Payments.Charge(); } catch { Declined { Mail.Send(); } } goto Done; } }\n  terminal Done { }\n"),
		"enum ChargeError { Declined, RateLimited }\n" + wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"charge\", retry: Backoff.Fixed(TimeSpan.FromSeconds(5)).MaxAttempts(3).NonRetryable(ChargeError.Declined)) { Payments.Charge(); } catch { Declined { Mail.Send(); } } goto Done; } }\n  terminal Done { }\n")},
	{"WF209", Warning, Meaning, ScopeDecl, "states that chain at one instant: a cycle of zero-length windows",
		"A milestone whose windows are zero-length, with no wait between them, passes as its state is entered, and its outcome's `goto` moves the run on at the same instant. When such moves form a cycle, a run that enters it goes round for ever without time passing: at run time it is stopped after 10000 entries at one instant. The message names the cycle, once, at its first state in source order. Give one of its windows a length.",
		wrap("  state A { subscribe Go() { Finished { Within = TimeSpan.Zero; Unfinished { goto B; } } } }\n  state B { subscribe Go() { Finished { Within = TimeSpan.Zero; Unfinished { goto A; } } } on Go { goto Done; } }\n  terminal Done { }\n"),
		wrap("  state A { subscribe Go() { Finished { Within = TimeSpan.FromSeconds(1); Unfinished { goto B; } } } }\n  state B { subscribe Go() { Finished { Within = TimeSpan.Zero; Unfinished { goto A; } } } on Go { goto Done; } }\n  terminal Done { }\n")},
	{"WF301", Error, Meaning, ScopeDecl, "milestone sets both `Retries` and `.MaxAttempts(…)`",
		"`Retries = N` and `.MaxAttempts(N+1)` are two budgets for one thing, and they count differently: `Retries` counts the FURTHER windows after the first, `MaxAttempts` the windows in TOTAL. Keep one. Two fixes are offered, one per way out.",
		wrap("  state A {\n    subscribe Go() {\n      Finished {\n        Within = TimeSpan.FromMinutes(5);\n        Retries = 2;\n        Backoff = Backoff.Exponential(TimeSpan.FromMinutes(5)).MaxAttempts(3);\n        Unfinished { goto Done; }\n      }\n    }\n  }\n  terminal Done { }\n"),
		wrap("  state A {\n    subscribe Go() {\n      Finished {\n        Within = TimeSpan.FromMinutes(5);\n        Retries = 2;\n        Backoff = Backoff.Exponential(TimeSpan.FromMinutes(5));\n        Unfinished { goto Done; }\n      }\n    }\n  }\n  terminal Done { }\n")},
	{"WF302", Error, Meaning, ScopeDecl, "a durable step's `retry:` policy has no `.MaxAttempts(…)`",
		"A step's retries are bounded by `.MaxAttempts(n)` (attempts in total) or by the step's `deadline:` (the attempts that start within it); with neither it would retry for ever. A bare TimeSpan is a fixed policy and needs one too: `Backoff.Fixed(…).MaxAttempts(3)`. A policy whose waits are zero needs `.MaxAttempts(n)` even with a deadline: its attempts would all start at once.",
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"bill\", retry: Backoff.Exponential(TimeSpan.FromSeconds(2))) { Billing.Charge(); } goto Done; } }\n  terminal Done { }\n"),
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"bill\", retry: Backoff.Exponential(TimeSpan.FromSeconds(2)).MaxAttempts(3)) { Billing.Charge(); } goto Done; } }\n  terminal Done { }\n")},
	{"WF303", Error, Meaning, ScopeDecl, "policy member given twice",
		"Each of `.MaxAttempts`, `.Cap` and `.Jitter` may appear once. When both say the same, the fix deletes the second, and `--fix` applies it. When they differ, which one you meant is your choice: two fixes are shown, one keeping each, and neither is applied.",
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"bill\", retry: Backoff.Fixed(TimeSpan.FromSeconds(2)).MaxAttempts(3).MaxAttempts(5)) { Billing.Charge(); } goto Done; } }\n  terminal Done { }\n"),
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"bill\", retry: Backoff.Fixed(TimeSpan.FromSeconds(2)).MaxAttempts(3)) { Billing.Charge(); } goto Done; } }\n  terminal Done { }\n")},
	{"WF304", Error, Meaning, ScopeDecl, "argument of the wrong type, or unknown `Backoff.X` or member",
		"`Backoff.Fixed|Linear|Exponential` take a TimeSpan; `.MaxAttempts` an int; `.Cap` a TimeSpan; `.Jitter` a decimal. A bare number is not a duration: write `TimeSpan.FromSeconds(5)`.",
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"bill\", retry: Backoff.Exponential(5).MaxAttempts(3)) { Billing.Charge(); } goto Done; } }\n  terminal Done { }\n"),
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"bill\", retry: Backoff.Exponential(TimeSpan.FromSeconds(5)).MaxAttempts(3)) { Billing.Charge(); } goto Done; } }\n  terminal Done { }\n")},
	{"WF305", Error, Meaning, ScopeDecl, "negative duration",
		"An interval, a cap or a window cannot be negative.",
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"bill\", retry: Backoff.Fixed(-TimeSpan.FromSeconds(5)).MaxAttempts(3)) { Billing.Charge(); } goto Done; } }\n  terminal Done { }\n"),
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"bill\", retry: Backoff.Fixed(TimeSpan.FromSeconds(5)).MaxAttempts(3)) { Billing.Charge(); } goto Done; } }\n  terminal Done { }\n")},
	{"WF306", Warning, Meaning, ScopeConsumer, "zero interval: retries immediately",
		"A zero interval retries at once, with no backoff at all; that is rarely what a failing dependency needs.",
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"bill\", retry: Backoff.Fixed(TimeSpan.Zero).MaxAttempts(3)) { Billing.Charge(); } goto Done; } }\n  terminal Done { }\n"),
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"bill\", retry: Backoff.Fixed(TimeSpan.FromSeconds(1)).MaxAttempts(3)) { Billing.Charge(); } goto Done; } }\n  terminal Done { }\n")},
	{"WF307", Error, Meaning, ScopeDecl, "`MaxAttempts` < 1, or `Retries` < 0",
		"`MaxAttempts` counts attempts in total, the first included, so it is at least 1; `Retries` counts further windows, so it is at least 0.",
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"bill\", retry: Backoff.Fixed(TimeSpan.FromSeconds(1)).MaxAttempts(0)) { Billing.Charge(); } goto Done; } }\n  terminal Done { }\n"),
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"bill\", retry: Backoff.Fixed(TimeSpan.FromSeconds(1)).MaxAttempts(3)) { Billing.Charge(); } goto Done; } }\n  terminal Done { }\n")},
	{"WF308", Warning, Meaning, ScopeConsumer, "a budget of one attempt: nothing is ever retried",
		"`.MaxAttempts(1)` or `Retries = 0` allows the first try only, so the policy's waits are never used.",
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"bill\", retry: Backoff.Fixed(TimeSpan.FromSeconds(1)).MaxAttempts(1)) { Billing.Charge(); } goto Done; } }\n  terminal Done { }\n"),
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"bill\", retry: Backoff.Fixed(TimeSpan.FromSeconds(1)).MaxAttempts(2)) { Billing.Charge(); } goto Done; } }\n  terminal Done { }\n")},
	{"WF309", Error, Meaning, ScopeDecl, "`Jitter` outside [0, 1]",
		"Jitter spreads each wait uniformly by ± that fraction of itself, so it lies between 0 and 1: `0.2` is ±20%.",
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"bill\", retry: Backoff.Fixed(TimeSpan.FromSeconds(1)).MaxAttempts(3).Jitter(20)) { Billing.Charge(); } goto Done; } }\n  terminal Done { }\n"),
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"bill\", retry: Backoff.Fixed(TimeSpan.FromSeconds(1)).MaxAttempts(3).Jitter(0.2)) { Billing.Charge(); } goto Done; } }\n  terminal Done { }\n")},
	{"WF310", Warning, Policy, ScopeConsumer, "a policy member that can never have an effect",
		"`.Jitter(0)` is the default; a `.Cap(…)` on a `Fixed` policy at or above interval·(1+jitter) is never reached, whatever the budget. (A cap that only the current budget does not reach is not flagged: it states intent.) The fix deletes the member.",
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"bill\", retry: Backoff.Fixed(TimeSpan.FromSeconds(2)).MaxAttempts(3).Cap(TimeSpan.FromMinutes(1))) { Billing.Charge(); } goto Done; } }\n  terminal Done { }\n"),
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"bill\", retry: Backoff.Fixed(TimeSpan.FromSeconds(2)).MaxAttempts(3)) { Billing.Charge(); } goto Done; } }\n  terminal Done { }\n")},
	{"WF311", Warning, Policy, ScopeConsumer, "`Cap` below the least first wait",
		"When the cap is below interval·(1-jitter), every wait is exactly the cap: the shape and the jitter do nothing. Raise the cap, or say what happens: a fixed policy of the cap.",
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"bill\", retry: Backoff.Exponential(TimeSpan.FromSeconds(10)).MaxAttempts(4).Cap(TimeSpan.FromSeconds(5))) { Billing.Charge(); } goto Done; } }\n  terminal Done { }\n"),
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"bill\", retry: Backoff.Exponential(TimeSpan.FromSeconds(10)).MaxAttempts(4).Cap(TimeSpan.FromSeconds(30))) { Billing.Charge(); } goto Done; } }\n  terminal Done { }\n")},
	{"WF312", Warning, Policy, ScopeConsumer, "a growing backoff without `Cap` runs away from its first wait",
		"Growth is what people mean and the ceiling is the part they forget: `Exponential(2s)` waits 17 minutes before attempt 11 and 9 hours before attempt 16; `Linear(1m)` waits over an hour from attempt 62. The probable mistake is a wait that has run away from the one the author wrote: past an hour, and past ten times the first wait. A shape that grows (`Exponential`, `Linear`) with no cap is checked up to its last wait in budget; a wait within ten times the first (`Linear(1d)` waiting 2 and 3 days on a week-long deadline) is the author's own scale and is taken as meant, as is any `Fixed` wait. The message names the first attempt past the limit and two remedies that keep the schedule asked for: a cap at the limit (every wait up to it stays as written) or the budget that ends before that attempt.",
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"bill\", retry: Backoff.Exponential(TimeSpan.FromSeconds(2)).MaxAttempts(13)) { Billing.Charge(); } goto Done; } }\n  terminal Done { }\n"),
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"bill\", retry: Backoff.Exponential(TimeSpan.FromSeconds(2)).MaxAttempts(13).Cap(TimeSpan.FromMinutes(5))) { Billing.Charge(); } goto Done; } }\n  terminal Done { }\n")},
	{"WF313", Warning, Policy, ScopeConsumer, "the cap clips the jitter away",
		"The cap applies after jitter. Once even the least jittered wait is above the cap, every run waits exactly the cap, and runs that failed together come back together: the retry herd that jitter was meant to break up re-forms. The message names the attempt from which it happens, the cap that keeps some of the spread on every attempt in budget (above the last retry's least jittered wait) and the one that keeps all of it (its most), and the most attempts whose waits stay below the present cap.",
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"bill\", retry: Backoff.Exponential(TimeSpan.FromSeconds(2)).Cap(TimeSpan.FromMinutes(5)).Jitter(0.2).MaxAttempts(12)) { Billing.Charge(); } goto Done; } }\n  terminal Done { }\n"),
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"bill\", retry: Backoff.Exponential(TimeSpan.FromSeconds(2)).Cap(TimeSpan.FromMinutes(5)).Jitter(0.2).MaxAttempts(8)) { Billing.Charge(); } goto Done; } }\n  terminal Done { }\n")},
	{"WF314", Error, Policy, ScopeConsumer, "a wait in budget exceeds TimeSpan's range",
		"A wait longer than 10675199d2h48m5.4775807s cannot be represented by the runtime. The message names the first attempt that would wait that long. This error replaces WF312 for the same policy.",
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"bill\", retry: Backoff.Exponential(TimeSpan.FromSeconds(2)).MaxAttempts(100)) { Billing.Charge(); } goto Done; } }\n  terminal Done { }\n"),
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"bill\", retry: Backoff.Exponential(TimeSpan.FromSeconds(2)).MaxAttempts(100).Cap(TimeSpan.FromHours(1))) { Billing.Charge(); } goto Done; } }\n  terminal Done { }\n")},
	{"WF315", Warning, Policy, ScopeConsumer, "`Backoff` on a milestone with one window",
		"A milestone's policy delays the next window; with no `Retries` and no `.MaxAttempts(…)` there is only one window, so the policy never applies.",
		wrap("  state A {\n    subscribe Go() { Finished { Within = TimeSpan.FromMinutes(5); Backoff = TimeSpan.FromMinutes(1); Unfinished { goto Done; } } }\n  }\n  terminal Done { }\n"),
		wrap("  state A {\n    subscribe Go() { Finished { Within = TimeSpan.FromMinutes(5); Retries = 2; Backoff = TimeSpan.FromMinutes(1); Unfinished { goto Done; } } }\n  }\n  terminal Done { }\n")},
	{"WF316", Warning, Policy, ScopeConsumer, "`Jitter(1)`: a wait can shrink to zero",
		"With full jitter a wait is drawn from [0, 2w): some runs retry immediately, against a dependency that has just failed.",
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"bill\", retry: Backoff.Exponential(TimeSpan.FromSeconds(2)).MaxAttempts(4).Jitter(1)) { Billing.Charge(); } goto Done; } }\n  terminal Done { }\n"),
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"bill\", retry: Backoff.Exponential(TimeSpan.FromSeconds(2)).MaxAttempts(4).Jitter(0.5)) { Billing.Charge(); } goto Done; } }\n  terminal Done { }\n")},
	{"WF317", Warning, Finish, ScopeDecl, "a `// wfc:ignore CODE` that silences nothing, or a code in lower case",
		"`// wfc:ignore WF312 reason` on the line before a warning (or at the end of its line) silences that code there. Each code of an ignore that silences nothing — the warning is gone, the code is wrong, or it names an error, which cannot be ignored — is reported, so stale ignores do not pile up: the fix removes that code, or the whole comment when no code is left. An ignore whose warning an error may hide (a duplicate `.MaxAttempts` hides WF312, an unknown `goto` hides WF201) is not stale: the warning returns once the error is fixed. A code in lower case still silences; the fix writes it in upper case.",
		wrap("  state A { subscribe Go(); on Go { goto Done; } }\n  // wfc:ignore WF201 kept for the migration\n  terminal Done { }\n"),
		wrap("  state A { subscribe Go(); on Go { goto Done; } }\n  terminal Done { }\n  // wfc:ignore WF201 kept for the migration\n  terminal Old { }\n")},
	{"WF318", Warning, Policy, ScopeConsumer, "a policy's waits add up to more than 30 days in budget",
		"A retry budget whose waits add up to more than 30 days keeps the workflow open for months on an error nobody is watching: whatever the retries were for has been handled by hand or forgotten long before. Any shape counts, `Fixed` too (`Fixed(1h)` with 1000 attempts waits 41 days in all). Only the waits count, not a milestone's windows: a long window is the deadline its author chose. WF312 and WF314 replace it for the same policy: they name the growth that makes it long. Lower the attempts or the waits.",
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"bill\", retry: Backoff.Fixed(TimeSpan.FromHours(1)).MaxAttempts(1000)) { Billing.Charge(); } goto Done; } }\n  terminal Done { }\n"),
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"bill\", retry: Backoff.Fixed(TimeSpan.FromHours(1)).MaxAttempts(48)) { Billing.Charge(); } goto Done; } }\n  terminal Done { }\n")},
	{"WF319", Error, Meaning, ScopeDecl, "a step's `timeout:` or `deadline:` is not a positive TimeSpan",
		"`timeout:` is each attempt's limit and `deadline:` the step's total time from its first attempt's start (docs/language.md, \"Durable steps\"). Either is a TimeSpan longer than zero: a zero timeout would fail every attempt as it starts, a zero deadline would give the step up before its first attempt ended.",
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"bill\", timeout: TimeSpan.Zero) { Billing.Charge(); } goto Done; } }\n  terminal Done { }\n"),
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"bill\", timeout: TimeSpan.FromSeconds(30)) { Billing.Charge(); } goto Done; } }\n  terminal Done { }\n")},
	{"WF320", Warning, Policy, ScopeConsumer, "a step's `deadline:` is shorter than its first wait: nothing is ever retried",
		"A retry whose wait would end after the step's deadline does not start, and the step gives up (`Deadline`). With a deadline shorter than the first wait (the least, under jitter), no retry ever starts: the policy never applies. Lengthen the deadline past the first wait, or drop `retry:`. Attempts are assumed to take no time; longer ones leave even less room.",
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"charge\", retry: Backoff.Fixed(TimeSpan.FromMinutes(1)).MaxAttempts(3), deadline: TimeSpan.FromSeconds(30)) { Payments.Charge(); } goto Done; } }\n  terminal Done { }\n"),
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"charge\", retry: Backoff.Fixed(TimeSpan.FromMinutes(1)).MaxAttempts(3), deadline: TimeSpan.FromMinutes(5)) { Payments.Charge(); } goto Done; } }\n  terminal Done { }\n")},
	{"WF321", Warning, Policy, ScopeConsumer, "a step's `deadline:` leaves `.MaxAttempts(…)` out of reach",
		"With a deadline and `.MaxAttempts(n)` the earlier wins. When the deadline comes before the n-th attempt could start, the message names how many attempts can start (attempts assumed to take no time) and when the first one past it would; lower `.MaxAttempts(…)` to that number (the fix), or lengthen the deadline.",
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"charge\", retry: Backoff.Fixed(TimeSpan.FromSeconds(10)).MaxAttempts(10), deadline: TimeSpan.FromSeconds(45)) { Payments.Charge(); } goto Done; } }\n  terminal Done { }\n"),
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"charge\", retry: Backoff.Fixed(TimeSpan.FromSeconds(10)).MaxAttempts(5), deadline: TimeSpan.FromSeconds(45)) { Payments.Charge(); } goto Done; } }\n  terminal Done { }\n")},
	{"WF322", Error, Meaning, ScopeDecl, "bad error kinds in a policy",
		"`.NonRetryable(K, …)` lists the error kinds that end a step's attempts at once; `.RetryOn(K, …)` the only kinds that are retried. Each names members of enums of the program, qualified or, where one enum makes them unique, not. They belong on a durable step's `retry:` policy (a milestone's windows do not fail), and a policy takes one of the two.",
		"enum ChargeError { Declined, RateLimited }\n" + wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"charge\", retry: Backoff.Fixed(TimeSpan.FromSeconds(5)).MaxAttempts(3).NonRetryable(ChargeError.Declined).RetryOn(ChargeError.RateLimited)) { Payments.Charge(); } goto Done; } }\n  terminal Done { }\n"),
		"enum ChargeError { Declined, RateLimited }\n" + wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"charge\", retry: Backoff.Fixed(TimeSpan.FromSeconds(5)).MaxAttempts(3).NonRetryable(ChargeError.Declined)) { Payments.Charge(); } goto Done; } }\n  terminal Done { }\n")},
	// WF4xx: reported by `wfc export temporal` (docs/temporal.md), not by
	// `wfc check`: what Temporal's RetryPolicy cannot express.
	{"WF401", Warning, Export, ScopeDecl, "Temporal has no linear backoff",
		"Temporal's RetryPolicy grows a wait by a coefficient (1 = fixed, 2 = doubling); nothing adds the interval each retry. The export writes a fixed interval and marks the step `nextRetryDelay`: the activity must fail with an error whose NextRetryDelay is attempt × interval (capped), which `NextRetryDelay` in integration/temporal computes; without it every retry waits the first interval. Or use `Exponential`, which maps exactly. The range is the name `Linear`.",
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"bill\", retry: Backoff.Linear(TimeSpan.FromSeconds(2)).MaxAttempts(5)) { Billing.Charge(); } goto Done; } }\n  terminal Done { }\n"),
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"bill\", retry: Backoff.Exponential(TimeSpan.FromSeconds(2)).MaxAttempts(5)) { Billing.Charge(); } goto Done; } }\n  terminal Done { }\n")},
	{"WF402", Warning, Export, ScopeDecl, "Temporal has no jitter",
		"Temporal's RetryPolicy waits exactly the computed interval, so `.Jitter(…)` cannot be exported: the policy is written without it, every run waits the nominal wait of the schedule table, and runs that failed together retry together. The milestone window helper runs the nominal waits too. The range is the `.Jitter(…)` member.",
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"bill\", retry: Backoff.Exponential(TimeSpan.FromSeconds(2)).MaxAttempts(5).Jitter(0.2)) { Billing.Charge(); } goto Done; } }\n  terminal Done { }\n"),
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"bill\", retry: Backoff.Exponential(TimeSpan.FromSeconds(2)).MaxAttempts(5)) { Billing.Charge(); } goto Done; } }\n  terminal Done { }\n")},
	{"WF403", Warning, Export, ScopeDecl, "a zero retry wait: Temporal reads 0 as its 1 s default",
		"An interval (or cap) of zero means \"unset\" to Temporal, which then waits its default of one second before every retry. The export writes 1ns instead, the least wait Temporal honours. Give the policy a real interval. The range is the zero interval, or the zero `.Cap(…)`.",
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"bill\", retry: Backoff.Fixed(TimeSpan.Zero).MaxAttempts(3)) { Billing.Charge(); } goto Done; } }\n  terminal Done { }\n"),
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"bill\", retry: Backoff.Fixed(TimeSpan.FromSeconds(1)).MaxAttempts(3)) { Billing.Charge(); } goto Done; } }\n  terminal Done { }\n")},
	{"WF404", Warning, Export, ScopeDecl, "a wait or window longer than Go's time.Duration",
		"Temporal's Go SDK holds intervals and timers as time.Duration, at most 2562047h47m16.854775807s (about 292 years); wfc's TimeSpan goes further. A wait in budget (or a milestone window) beyond it is exported as the longest Duration, so the engine would retry earlier than the table says. Add `.Cap(…)` or shorten it. The range is the policy, or the milestone kind for a window.",
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"bill\", retry: Backoff.Fixed(TimeSpan.FromDays(200000)).MaxAttempts(2)) { Billing.Charge(); } goto Done; } }\n  terminal Done { }\n"),
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"bill\", retry: Backoff.Fixed(TimeSpan.FromDays(20)).MaxAttempts(2)) { Billing.Charge(); } goto Done; } }\n  terminal Done { }\n")},
	{"WF405", Warning, Export, ScopeDecl, "a retry wait Temporal's float64 arithmetic does not keep exact",
		"Temporal's Go SDK computes each retry wait as initialInterval × coefficient^(attempt-1) in float64 nanoseconds (measured in its test environment). Past about 104 days a float64 no longer holds every nanosecond, so an interval like 500 days and 100 ns comes out a few nanoseconds short, and every attempt starts earlier than the table says. The message names the first such attempt; the range is the interval. Round the interval to whole seconds.",
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"bill\", retry: Backoff.Fixed(TimeSpan.FromMilliseconds(43200000000.0001)).MaxAttempts(2)) { Billing.Charge(); } goto Done; } }\n  terminal Done { }\n"),
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"bill\", retry: Backoff.Fixed(TimeSpan.FromDays(20)).MaxAttempts(2)) { Billing.Charge(); } goto Done; } }\n  terminal Done { }\n")},
	{"WF406", Warning, Export, ScopeDecl, "Temporal has no cadence (`Backoff.Every`)",
		"Temporal waits its retry interval from an attempt's failure, a spacing; `Backoff.Every` is a cadence, an attempt every interval from start to start. The export writes a fixed interval and marks the step `nextRetryDelay`: the activity must fail with NextRetryDelay = interval − the attempt's duration (at least 0), or every retry waits the whole interval after the attempt. Or use `Backoff.Fixed`, which maps exactly. The range is the name `Every`.",
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"poll\", retry: Backoff.Every(TimeSpan.FromSeconds(10)).MaxAttempts(5)) { Feed.Poll(); } goto Done; } }\n  terminal Done { }\n"),
		wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"poll\", retry: Backoff.Fixed(TimeSpan.FromSeconds(10)).MaxAttempts(5)) { Feed.Poll(); } goto Done; } }\n  terminal Done { }\n")},
	{"WF407", Warning, Export, ScopeDecl, "Temporal has no `RetryOn`: the other kinds are listed as non-retryable",
		"Temporal's RetryPolicy lists the error types it never retries (NonRetryableErrorTypes). `.RetryOn(K, …)` is exported as that list holding the other members of K's enum; a failure of no kind, or of another enum's kind, which ends a wfc step, is retried on Temporal unless the activity fails non-retryably. Prefer `.NonRetryable(…)`, which maps exactly. The range is the `.RetryOn(…)` member.",
		"enum ChargeError { Declined, RateLimited }\n" + wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"bill\", retry: Backoff.Fixed(TimeSpan.FromSeconds(5)).MaxAttempts(3).RetryOn(ChargeError.RateLimited)) { Billing.Charge(); } goto Done; } }\n  terminal Done { }\n"),
		"enum ChargeError { Declined, RateLimited }\n" + wrap("  state A { subscribe Go(); on Go { Workflow.Once(\"bill\", retry: Backoff.Fixed(TimeSpan.FromSeconds(5)).MaxAttempts(3).NonRetryable(ChargeError.Declined)) { Billing.Charge(); } goto Done; } }\n  terminal Done { }\n")},
	{"WF501", Error, Meaning, ScopeDecl, "a test names an unknown workflow, event, state, slot, step or call",
		"Every name in a test (docs/language.md, \"Tests\") must be declared in the workflow the test runs: `Workflow = …` names a workflow, `Send` one of its events, `Take` one of its slots, `Fail`, `Takes`, `Expect.GaveUp` and `Expect.Attempts` one of its durable steps, `Expect.State` and `Expect.End` one of its states, `Expect.Call` a call it makes. The message suggests the closest name, with a fix that writes it in place of the unknown one (a person applies it); a step's name is a string, so its fix replaces the whole literal, quotes included (`Fail(\"notfiy\")` → `Fail(\"notify\")`). A program whose tests have errors is not run.",
		testOf("  Send(Og(), at: TimeSpan.FromSeconds(5));\n"),
		testOf("  Send(Go(), at: TimeSpan.FromSeconds(5));\n")},
	{"WF502", Error, Meaning, ScopeDecl, "wrong arguments in a test",
		"Each test statement takes its own arguments: `Send(Event(args), at: t)` with one argument per event parameter, of the parameter's type (a member of the parameter's enum, a string, a number…), `Take(Slot, at: t)`, `Fail(\"step\", times: n, kind: K, retryAfter: t)` with `K` an error kind (a member of an enum of the program), `Takes(\"step\", d, attempt: n)`, `Draws(u, …)` with each draw in [0, 1) and one `Draws` per test, `Expect.State(S, at: t)`, `Expect.End(S, at: t)` with a terminal `S`, `Expect.GaveUp(\"step\", at: t)`, `Expect.Attempts(\"step\", t1, t2, …)`, `Expect.Call(X.Y(args), at: t)`, `Expect.Stopped(at: t)`; `Start(at: t)` only in a workflow that does not start by itself. A string where an enum member belongs (`Send(Complete(\"Ok\"))`) is told which member to write: its fix writes the member its text names (`\"Ok\"` or `\"Decision.Ok\"`), or names but for case (`\"ok\"`), and needs no decision when that is one member; when its text matches several members but for case, or is only near one (`\"Okk\"`), the fixes are for a person to choose. In `Expect.Call(X.Y(args))` an enum member is compared by the member it names: `Decision.Okk`, not a member of `Decision`, is WF502, and so is a bare `Ok` when the calls the expectation may match take two enums there that both have it (its fixes write it qualified, for a person to choose).",
		testOf("  Send(Go(1), at: TimeSpan.FromSeconds(5));\n"),
		testOf("  Send(Go(), at: TimeSpan.FromSeconds(5));\n")},
	{"WF503", Error, Meaning, ScopeDecl, "bad time in a test",
		"A time in a test is a TimeSpan since the run started, such as `TimeSpan.FromMinutes(5)`, and never negative.",
		testOf("  Send(Go(), at: 5);\n"),
		testOf("  Send(Go(), at: TimeSpan.FromSeconds(5));\n")},
	{"WF504", Error, Meaning, ScopeDecl, "unknown test statement or setting",
		"A test holds `Workflow = Name;` (which may be left out when the program has one workflow), actions (`Send`, `Take`, `Start`, `Fail`, `Takes`, `Draws`) and expectations (`Expect.State`, `Expect.End`, `Expect.GaveUp`, `Expect.Attempts`, `Expect.Call`, `Expect.Stopped`), each a call ending in `;`.",
		testOf("  Send(Go(), at: TimeSpan.FromSeconds(5));\n  Expect.Stat(A, at: TimeSpan.Zero);\n"),
		testOf("  Send(Go(), at: TimeSpan.FromSeconds(5));\n  Expect.State(A, at: TimeSpan.Zero);\n")},
	{"WF505", Error, Meaning, ScopeDecl, "two tests with the same name",
		"`wfc test` reports and selects (`-run`) tests by name, so each name is declared once in a program.",
		wrap(okStates) + "test \"t\" { Send(Go()); Expect.End(Done); }\ntest \"t\" { Expect.State(A); }\n",
		wrap(okStates) + "test \"t\" { Send(Go()); Expect.End(Done); }\ntest \"waits\" { Expect.State(A); }\n"},
}
