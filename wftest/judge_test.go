package wftest_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wfc-lang/wfc"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/parser"
	"github.com/wfc-lang/wfc/wftest"
)

// judgeProgram is a workflow for the judge's table tests: a step that
// retries every 10s, a step whose retry would wait past TimeSpan's range
// (the run stops), a terminal error state with a message that does not
// name it and one with a message that does, and calls outside steps.
const judgeProgram = `workflow Flow {
  Autostart = true;
  Initial = A;
  event Go(int n);
  event Log(int n);
  event Far();
  event Lost();
  event Broke();
  event Finish();
  state A {
    subscribe Go(int n);
    on Go(int n) { Workflow.Once("s", retry: Backoff.Fixed(TimeSpan.FromSeconds(10)).MaxAttempts(3)) { X.Y(n); } }
    subscribe Log(int n);
    on Log(int n) { Audit.Write(n); }
    subscribe Far();
    on Far { Workflow.Once("far", retry: Backoff.Fixed(TimeSpan.FromDays(10675199)).MaxAttempts(2)) { Bank.Charge(); } }
    subscribe Lost();
    on Lost { goto Lost; }
    subscribe Broke();
    on Broke { goto Broken; }
    subscribe Finish();
    on Finish { goto Done; }
  }
  terminal error Lost { Message = "the order went missing"; }
  terminal error Broken { Message = "Broken beyond repair"; }
  terminal Done { }
}
`

// runOne checks src (a program and one test) and runs its test.
func runOne(t *testing.T, src string, opt wftest.Options) *wftest.Result {
	t.Helper()
	r := wfc.Run(context.Background(), []parser.Source{{Name: "j.wf", Src: src}}, wfc.Options{})
	if errs, _ := diag.Counts(r.Diagnostics); errs != 0 {
		t.Fatalf("%v\n%s", r.Diagnostics, src)
	}
	return wftest.Run(r.Checked, r.Checked.Program.Tests[0], opt)
}

// TestJudgeMessages: an expectation that fails says what the run did
// instead, for each way it can fail; one that holds, holds however late
// in the run (past the test's last action) it is decided.
func TestJudgeMessages(t *testing.T) {
	s := func(n int) string { return fmt.Sprintf("TimeSpan.FromSeconds(%d)", n) }
	h := func(n int) string { return fmt.Sprintf("TimeSpan.FromHours(%d)", n) }
	var many strings.Builder
	for i := range 25 {
		fmt.Fprintf(&many, "Send(Log(%d), at: %s); ", i, s(i+1))
	}
	tests := []struct {
		name, body string
		msgs       []string // one per failed expectation, in order; none: the test passes
	}{
		{"gave up at another time",
			`Fail("s"); Send(Go(1), at: ` + s(1) + `); Expect.GaveUp("s", at: ` + s(30) + `);`,
			[]string{`expected step "s" to give up at 30s; it gave up at 21s`}},
		{"gave up after the last action",
			`Fail("s"); Send(Go(1), at: ` + s(1) + `); Expect.GaveUp("s");`, nil},
		{"gave up after the last action, at its time",
			`Fail("s"); Send(Go(1), at: ` + s(1) + `); Expect.GaveUp("s", at: ` + s(21) + `);`, nil},
		{"attempts after the last action",
			`Fail("s", times: 2); Send(Go(1), at: ` + s(1) + `); Expect.Attempts("s", ` + s(1) + `, ` + s(11) + `, ` + s(21) + `);`, nil},
		{"more attempts than expected, after the last action",
			`Fail("s"); Send(Go(1), at: ` + s(1) + `); Expect.Attempts("s", ` + s(1) + `);`,
			[]string{`expected step "s"'s attempts at 1s; they were at 1s, 11s, 21s`}},
		{"a call after the last action",
			`Fail("s", times: 1); Send(Go(7), at: ` + s(1) + `); Expect.Call(X.Y(7), at: ` + s(11) + `);`, nil},
		{"no call of that name",
			`Send(Log(1), at: ` + s(1) + `); Expect.Call(Bank.Charge());`,
			[]string{`expected the call Bank.Charge(); the run made no call to Bank.Charge`}},
		{"no call of that name at a time",
			`Send(Log(1), at: ` + s(1) + `); Expect.Call(Bank.Charge(), at: ` + s(1) + `);`,
			[]string{`expected the call Bank.Charge() at 1s; the run made no call to Bank.Charge`}},
		{"the calls of that name, the first twenty",
			many.String() + `Expect.Call(Audit.Write(99));`,
			[]string{func() string {
				var near []string
				for i := range 20 {
					near = append(near, fmt.Sprintf("Audit.Write(%d) at %ds", i, i+1))
				}
				return "expected the call Audit.Write(99); the run called " + strings.Join(near, ", ")
			}()}},
		{"stopped at another time",
			`Fail("far"); Send(Far(), at: ` + h(3) + `); Expect.Stopped(at: ` + h(2) + `);`,
			[]string{`expected the run to be stopped at a limit at 2h; it was stopped at 3h: attempt 2 of step "far" would start after TimeSpan.MaxValue`}},
		{"stopped, at its time",
			`Fail("far"); Send(Far(), at: ` + h(3) + `); Expect.Stopped(at: ` + h(3) + `);`, nil},
		{"not stopped",
			`Send(Finish(), at: ` + s(3) + `); Expect.Stopped();`,
			[]string{`expected the run to be stopped at a limit; it was not; the run ended in Done at 3s`}},
		{"ended in an error state whose message does not name it",
			`Send(Lost(), at: ` + s(2) + `); Expect.End(Done);`,
			[]string{`expected the run to end in Done; it ended in Lost at 2s (the order went missing)`}},
		{"ended in an error state whose message names it",
			`Send(Broke(), at: ` + s(2) + `); Expect.End(Done);`,
			[]string{`expected the run to end in Done; it ended in Broken at 2s`}},
		{"ended in another state",
			`Send(Finish(), at: ` + s(2) + `); Expect.End(Lost);`,
			[]string{`expected the run to end in Lost; it ended in Done at 2s`}},
		{"ended at another time",
			`Send(Finish(), at: ` + s(2) + `); Expect.End(Done, at: ` + s(1) + `);`,
			[]string{`expected the run to end in Done at 1s; it ended in Done at 2s`}},
		{"gave up: the run ended in error first",
			`Send(Lost(), at: ` + s(2) + `); Expect.GaveUp("s");`,
			[]string{`expected step "s" to give up; it did not; the run ended in Lost at 2s (the order went missing)`}},
		{"gave up: the run was stopped first",
			`Fail("far"); Send(Far(), at: ` + h(3) + `); Expect.GaveUp("s");`,
			[]string{`expected step "s" to give up; it did not; the run was stopped at 3h: attempt 2 of step "far" would start after TimeSpan.MaxValue`}},
		{"attempts of a run stopped",
			`Fail("far"); Send(Far(), at: ` + h(3) + `); Expect.Attempts("far", ` + h(3) + `, ` + h(4) + `);`,
			[]string{`expected step "far"'s attempts at 3h, 4h; they were at 3h; the run was stopped at 3h: attempt 2 of step "far" would start after TimeSpan.MaxValue`}},
		{"attempts of a run that ended",
			`Send(Finish(), at: ` + s(3) + `); Expect.Attempts("s", ` + s(3) + `);`,
			[]string{`expected step "s"'s attempts at 3s; they were at (none)`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := runOne(t, judgeProgram+"test \"t\" { "+tt.body+" }\n", wftest.Options{})
			if res.Err != nil {
				t.Fatal(res.Err)
			}
			var got []string
			for _, f := range res.Failures {
				got = append(got, f.Message)
			}
			if strings.Join(got, "\n") != strings.Join(tt.msgs, "\n") {
				t.Errorf("failures:\n%s\nwant:\n%s\n%s", strings.Join(got, "\n"), strings.Join(tt.msgs, "\n"), res.Transcript)
			}
		})
	}
}

// TestStoppedAtTheFirstEntry: a run bounded to one entry stops at its
// first, and Expect.Stopped holds of it, at its time and at no other.
func TestStoppedAtTheFirstEntry(t *testing.T) {
	for _, tt := range []struct{ at, msg string }{
		{"TimeSpan.Zero", ""},
		{"TimeSpan.FromSeconds(1)", "expected the run to be stopped at a limit at 1s; it was stopped at 0s: the transcript reached 1 entries"},
	} {
		res := runOne(t, judgeProgram+`test "t" { Expect.Stopped(at: `+tt.at+`); }`+"\n", wftest.Options{MaxEntries: 1})
		if res.Entries != 1 {
			t.Errorf("at %s: %d entries, want 1\n%s", tt.at, res.Entries, res.Transcript)
		}
		var got string
		if len(res.Failures) > 0 {
			got = res.Failures[0].Message
		}
		if got != tt.msg {
			t.Errorf("at %s: %q, want %q", tt.at, got, tt.msg)
		}
	}
}

// TestContextIsAround: the entries a failure shows, which the judge keeps
// as the run goes (Failure.Context), are what Around prints from the
// whole transcript around the failure's entry — for every failure of the
// golden programs and of a long run whose failures fall at its start, in
// its middle and at its end, with and without Discard.
func TestContextIsAround(t *testing.T) {
	var long strings.Builder
	long.WriteString(judgeProgram)
	for n := 0; n <= 14; n++ {
		fmt.Fprintf(&long, "test \"state at %d\" { ", n)
		for i := 1; i <= 12; i++ {
			fmt.Fprintf(&long, "Send(Log(%d), at: TimeSpan.FromSeconds(%d)); ", i, i)
		}
		fmt.Fprintf(&long, "Expect.State(Done, at: TimeSpan.FromSeconds(%d)); }\n", n)
	}
	for i := 0; i <= 12; i += 3 {
		fmt.Fprintf(&long, "test \"calls %d\" { ", i)
		for k := 1; k <= i; k++ {
			fmt.Fprintf(&long, "Send(Log(%d), at: TimeSpan.FromSeconds(%d)); ", k, k)
		}
		long.WriteString("Expect.Call(Audit.Write(99)); Expect.GaveUp(\"s\"); Expect.End(Done); Expect.Attempts(\"s\", TimeSpan.Zero); Expect.Stopped(); }\n")
	}
	long.WriteString(`test "attempts" { Fail("s"); Send(Go(1), at: TimeSpan.FromSeconds(1)); Send(Log(1), at: TimeSpan.FromSeconds(2)); Send(Log(2), at: TimeSpan.FromSeconds(3)); Expect.Attempts("s", TimeSpan.Zero); Expect.GaveUp("s", at: TimeSpan.FromSeconds(1)); }` + "\n")
	// A run that starts late: its first entry, a rejection, is the last
	// one at or before the time asked about.
	later := `workflow Later { Initial = A; event Go(); state A { subscribe Go(); on Go { Audit.Write(1); } } }
test "before the start" {
  Send(Go(), at: TimeSpan.Zero); Start(at: TimeSpan.FromSeconds(5));
  Send(Go(), at: TimeSpan.FromSeconds(6)); Send(Go(), at: TimeSpan.FromSeconds(7)); Send(Go(), at: TimeSpan.FromSeconds(8));
  Expect.State(A, at: TimeSpan.FromSeconds(1));
}
`
	programs := map[string]string{"long.wf": long.String(), "later.wf": later}
	files, _ := filepath.Glob("testdata/*.wf")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		programs[filepath.Base(f)] = string(b)
	}
	failures := 0
	for name, src := range programs {
		r := wfc.Run(context.Background(), []parser.Source{{Name: name, Src: src}}, wfc.Options{})
		if errs, _ := diag.Counts(r.Diagnostics); errs != 0 {
			t.Fatalf("%s: %v", name, r.Diagnostics)
		}
		for _, tc := range r.Checked.Program.Tests {
			res := wftest.Run(r.Checked, tc, wftest.Options{Schedules: r.Schedules})
			discarded := wftest.Run(r.Checked, tc, wftest.Options{Schedules: r.Schedules, Discard: true})
			if len(res.Failures) != len(discarded.Failures) {
				t.Fatalf("%s: %d failures, %d with Discard", tc.Name, len(res.Failures), len(discarded.Failures))
			}
			for i, f := range res.Failures {
				failures++
				if f.Entry < 0 {
					continue // no entry is at or before the time it asks about
				}
				want := wftest.Around(res.Transcript, f.Entry, 3)
				if f.Context != want {
					t.Errorf("%s: %s: %s: the context of entry %d:\n%s\nAround prints:\n%s", name, tc.Name, f.Message, f.Entry, f.Context, want)
				}
				if d := discarded.Failures[i]; d.Context != f.Context || d.Entry != f.Entry || d.Message != f.Message {
					t.Errorf("%s: %s: with Discard, entry %d:\n%s\nwithout, entry %d:\n%s", name, tc.Name, d.Entry, d.Context, f.Entry, f.Context)
				}
			}
		}
	}
	if failures < 50 {
		t.Errorf("only %d failures compared", failures)
	}
}
