package vocab

import "slices"

// The words of the language's syntax, as `wfc explain` explains them: the
// keywords (the parser reserves them, or reads them by their place), the
// durable step, the named arguments, and the words of tests. They are not
// values the checker resolves (Words), so they are kept apart from them;
// Lookup finds both. Tests check that every reserved word of the grammar
// (parser.ReservedWords), every contextual word of its table and every
// item a test may hold has its entry here, and that every example is
// laid out as `wfc fmt` lays it out.

// The kinds of the syntax words.
const (
	KindKeyword   WordKind = iota + 100 // a reserved or contextual keyword
	KindStatement                       // a statement that is not a keyword (`Workflow.Once`)
	KindArgument                        // a named argument (`retry:`, `at:`)
	KindTestItem                        // a test's setting, action or expectation
)

var syntaxKindNames = map[WordKind]string{KindKeyword: "keyword", KindStatement: "statement", KindArgument: "named argument", KindTestItem: "test item"}

// syntaxWords are the syntax words, in the order of docs/language.md.
var syntaxWords = []Word{
	kw("enum", "enum Name { Member, … }", "a file, at the top",
		"declares an enum: a closed set of named members, the type of a field or a parameter that a handler's cases match",
		"enum Decision { Approve, Reject }"),
	kw("entity", "[Attribute] entity Name { Type field; … security { … } }", "a file, at the top",
		"declares an entity: a record of typed fields, with the rules of who may read and change it",
		"entity Order { string Title; }"),
	kw("workflow", "workflow Name { settings, events, states }", "a file, at the top",
		"declares a workflow: a state machine, with its settings, the events it waits for and its states",
		"workflow Approval {\n  Initial = Open;\n  event Go();\n  state Open { subscribe Go(); on Go { goto Done; } }\n  terminal Done { }\n}"),
	kw("event", "event Name(Type name, …);", "a workflow",
		"declares an event the workflow can receive, with its typed parameters",
		"event Decide(Decision decision);"),
	kw("state", "state Name { items }", "a workflow",
		"declares a state a run can be in: what it subscribes, how it handles it, and its deadlines",
		"state Open { subscribe Go(); on Go { goto Done; } }"),
	kw("terminal", "terminal [error] Name { }", "a workflow",
		"declares a state that ends the run; `terminal error` ends it with an error, and may say its `Message`",
		"terminal Done { }"),
	{Kind: KindKeyword, Name: "error", Qualified: "terminal error", Signature: "terminal error Name { Message = \"…\"; }", Context: "a workflow, after `terminal`",
		Doc:     "marks a terminal state that ends the run with an error; `error` is a keyword only there, a name everywhere else",
		Example: "terminal error Rejected { Message = \"the order was rejected\"; }"},
	kw("subscribe", "subscribe Event(Type name, …) [as Alias] { milestones } | ;", "a state",
		"waits, in this state, for an event: a slot that a handler answers, with deadlines (milestones) if it has a block",
		"subscribe Go();"),
	kw("as", "subscribe Event(…) as Alias", "a subscription",
		"names a subscription's slot: its handler is `on Alias`, so one state can wait for the same event twice",
		"subscribe Decide(Decision decision) as Reviewer;"),
	kw("on", "on Slot[(Type name, …)] { statements }", "a state",
		"handles a subscribed event, by its slot (the alias, else the event's name), with statements",
		"on Go { goto Done; }"),
	kw("goto", "goto State;", "a handler or an outcome",
		"moves the run to a state; what follows it in its block never runs",
		"goto Done;"),
	kw("default", "default { statements }", "a handler whose event has an enum parameter",
		"handles every member of the enum that no case of the handler names",
		"default { goto Review; }"),
	kw("security", "security { rules }", "an entity",
		"the rules of who may read, create, update and delete the entity: `allow` and `deny`, each with an optional `when`",
		"security { allow read when IsAuthenticated; }"),
	kw("allow", "allow operation, … [when condition];", "a `security` block",
		"allows the operations it names (`read`, `create`, `update`, `delete`), when its condition holds",
		"allow read, update when IsAuthenticated;"),
	kw("deny", "deny operation, … [when condition];", "a `security` block",
		"denies the operations it names, when its condition holds; a deny wins over an allow",
		"deny delete;"),
	kw("when", "allow operation when condition;", "a security rule",
		"the condition under which the rule applies",
		"allow update when IsAuthenticated;"),
	kw("true", "true", "a bool value", "the bool value true", "Autostart = true;"),
	kw("false", "false", "a bool value", "the bool value false", "Autostart = false;"),
	{Kind: KindKeyword, Name: "test", Qualified: "test", Signature: "test \"name\" { items }", Context: "a file, at the top (usually a `*_test.wf` file)",
		Doc:     "declares a test: a scenario sent to one run, and expectations about it; `test` is a keyword only before a string",
		Example: "test \"ends\" {\n  Workflow = Approval;\n  Send(Go(), at: TimeSpan.FromMinutes(1));\n  Expect.End(Done, at: TimeSpan.FromMinutes(1));\n}"},

	{Kind: KindStatement, Name: "Once", Qualified: "Workflow.Once", Signature: "Workflow.Once(\"name\", retry: policy) { calls }", Context: "a handler or an outcome",
		Doc:     "a durable step: its calls run at most once per run, and are retried by its policy when they fail; without `retry:` a failed step is not retried",
		Example: "Workflow.Once(\"charge\", retry: Backoff.Exponential(TimeSpan.FromSeconds(2)).MaxAttempts(3)) { Payment.Charge(); }"},

	arg("at", "at: TimeSpan", "a test's actions and expectations", "when, counted from the start of the run; without it, at time 0 (an expectation: whenever)",
		"Send(Go(), at: TimeSpan.FromMinutes(1));"),
	arg("times", "times: int", "`Fail`", "how many of the step's attempts fail, counted over the run; without it, every attempt fails",
		"Fail(\"charge\", times: 2);"),
	arg("kind", "kind: Kind", "`Fail`", "the error kind of the failures: a member of an enum of the program (`ChargeError.Declined`, or `Declined` where that is unique), which the step's policy may name in `.NonRetryable(…)` (the failure is terminal) or `.RetryOn(…)` (only those are retried); without it, a failure of no kind, which the policy retries unless it has `.RetryOn(…)`",
		"Fail(\"charge\", kind: ChargeError.Declined);"),
	arg("retryAfter", "retryAfter: TimeSpan", "`Fail`", "the server's Retry-After on each failure: the wait before the next attempt, which wins over the policy's, cap included",
		"Fail(\"charge\", times: 1, retryAfter: TimeSpan.FromSeconds(30));"),
	arg("attempt", "attempt: int", "`Takes`", "the one attempt, counted over the run, that takes the time given; without it, every attempt does",
		"Takes(\"charge\", TimeSpan.FromSeconds(40), attempt: 2);"),

	test("Workflow", "Workflow", "Workflow = Name;", "the workflow the test runs; it may be left out in a program of one workflow",
		"Workflow = Approval;"),
}

func kw(name, sig, ctx, doc, example string) Word {
	return Word{Kind: KindKeyword, Name: name, Qualified: name, Signature: sig, Context: ctx, Doc: doc, Example: example}
}

func arg(name, sig, ctx, doc, example string) Word {
	return Word{Kind: KindArgument, Name: name, Qualified: name + ":", Signature: sig, Context: ctx, Doc: doc, Example: example}
}

func test(name, qualified, sig, doc, example string) Word {
	return Word{Kind: KindTestItem, Name: name, Qualified: qualified, Signature: sig, Context: "a test", Doc: doc, Example: example}
}

// Syntax is the syntax words, one Word per entry, in table order (a copy).
func Syntax() []Word { return slices.Clone(syntaxWords) }

// All is every word `wfc explain` explains: the vocabulary, then the
// syntax words.
func All() []Word { return append(Words(), syntaxWords...) }

// TestItemNames are the statements a test may hold, qualified: `Send`,
// `Expect.State`… (TestStatements; the checker's list of them).
func TestItemNames() []string {
	out := make([]string, len(TestStatements))
	for i, t := range TestStatements {
		out[i] = t.Qualified
	}
	return out
}
