package temporal

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/codegen"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/internal/golden"
	"github.com/wfc-lang/wfc/parser"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func step(policy string) string {
	return `workflow W { Initial = A; event Go();
  state A { subscribe Go(); on Go { Workflow.Once("s"` + policy + `) { X.Y(); } goto Done; } }
  terminal Done { } }`
}

func milestone(settings string) string {
	return `workflow W { Initial = A; event Go();
  state A { subscribe Go() { Finished { ` + settings + ` Unfinished { goto Done; } } } }
  terminal Done { } }`
}

// export checks src (which must have no errors) and exports it.
func export(t *testing.T, src string) ([]*Entry, []diag.Diagnostic) {
	t.Helper()
	prog, ds := parser.Parse([]parser.Source{{Name: "t.wf", Src: src}}, parser.Options{Workers: 1})
	res := check.Check(prog)
	for _, d := range append(ds, res.Diags...) {
		if d.Severity == diag.Error {
			t.Fatalf("%s: %s", d.Code, d.Message)
		}
	}
	return Export(codegen.Lower(res, codegen.Options{}))
}

// TestStepPolicies: the mapping of each shape onto RetryPolicy, and the
// warning (code and the source text it points at) where it cannot map.
func TestStepPolicies(t *testing.T) {
	s, m, h := time.Second, time.Minute, time.Hour
	tests := []struct {
		policy string
		want   RetryPolicy
		code   diag.ID // the one WF4xx expected, "" for none
		at     string  // the source text the warning points at
	}{
		{"", RetryPolicy{MaximumAttempts: 1}, "", ""},
		{", retry: Backoff.Exponential(TimeSpan.FromSeconds(2)).MaxAttempts(5)", RetryPolicy{2 * s, 2, 16 * s, 5, nil}, "", ""},
		{", retry: Backoff.Exponential(TimeSpan.FromSeconds(2)).Cap(TimeSpan.FromMinutes(5)).MaxAttempts(12)", RetryPolicy{2 * s, 2, 5 * m, 12, nil}, "", ""},
		{", retry: Backoff.Exponential(TimeSpan.FromSeconds(2)).Cap(TimeSpan.FromHours(1)).MaxAttempts(3)", RetryPolicy{2 * s, 2, h, 3, nil}, "", ""},
		{", retry: Backoff.Exponential(TimeSpan.FromSeconds(10)).Cap(TimeSpan.FromSeconds(5)).MaxAttempts(4)", RetryPolicy{5 * s, 1, 5 * s, 4, nil}, "", ""},
		{", retry: Backoff.Fixed(TimeSpan.FromMilliseconds(250)).MaxAttempts(2147483647)", RetryPolicy{250 * time.Millisecond, 1, 250 * time.Millisecond, 2147483647, nil}, "", ""},
		{", retry: Backoff.Exponential(TimeSpan.FromSeconds(2)).MaxAttempts(1)", RetryPolicy{MaximumAttempts: 1}, "", ""},
		{", retry: Backoff.Linear(TimeSpan.FromSeconds(2)).MaxAttempts(2)", RetryPolicy{2 * s, 1, 2 * s, 2, nil}, "", ""},
		{", retry: Backoff.Linear(TimeSpan.FromSeconds(2)).MaxAttempts(5)", RetryPolicy{2 * s, 1, 8 * s, 5, nil}, CodeLinear, "Linear"},
		{", retry: Backoff.Linear(TimeSpan.FromSeconds(2)).Cap(TimeSpan.FromSeconds(5)).MaxAttempts(5)", RetryPolicy{2 * s, 1, 5 * s, 5, nil}, CodeLinear, "Linear"},
		{", retry: Backoff.Exponential(TimeSpan.FromSeconds(2)).Jitter(0.2).MaxAttempts(3)", RetryPolicy{2 * s, 2, 4 * s, 3, nil}, CodeJitter, "Jitter(0.2)"},
		{", retry: Backoff.Fixed(TimeSpan.Zero).MaxAttempts(3)", RetryPolicy{ZeroWait, 1, ZeroWait, 3, nil}, CodeZero, "TimeSpan.Zero"},
		{", retry: Backoff.Exponential(TimeSpan.FromSeconds(1)).Cap(TimeSpan.Zero).MaxAttempts(3)", RetryPolicy{ZeroWait, 1, ZeroWait, 3, nil}, CodeZero, "Cap(TimeSpan.Zero)"},
		{", retry: Backoff.Fixed(TimeSpan.FromMilliseconds(43200000000.0001)).MaxAttempts(3)", RetryPolicy{43200000000000100, 1, 43200000000000100, 3, nil}, CodeFloat, "TimeSpan.FromMilliseconds(43200000000.0001)"},
		{", retry: Backoff.Exponential(TimeSpan.FromMilliseconds(43200000000.0001)).Cap(TimeSpan.FromMilliseconds(43200000000.0001)).MaxAttempts(3)", RetryPolicy{43200000000000100, 1, 43200000000000100, 3, nil}, CodeFloat, "TimeSpan.FromMilliseconds(43200000000.0001)"},
		{", retry: Backoff.Exponential(TimeSpan.FromDays(500)).MaxAttempts(3)", RetryPolicy{500 * 24 * h, 2, 1000 * 24 * h, 3, nil}, "", ""},
		{", retry: Backoff.Fixed(TimeSpan.FromDays(200000)).MaxAttempts(2)", RetryPolicy{time.Duration(1<<63 - 1), 1, time.Duration(1<<63 - 1), 2, nil}, CodeTooLong, "Backoff.Fixed(TimeSpan.FromDays(200000)).MaxAttempts(2)"},
	}
	for _, tt := range tests {
		t.Run(tt.policy, func(t *testing.T) {
			src := step(tt.policy)
			es, ds := export(t, src)
			if diff := cmp.Diff(tt.want, *es[0].RetryPolicy); diff != "" {
				t.Errorf("policy (-want +got):\n%s", diff)
			}
			checkDiag(t, src, ds, tt.code, tt.at)
			if got := es[0].Exact(); got != (tt.code == "") {
				t.Errorf("Exact() = %v", got)
			}
		})
	}
}

func checkDiag(t *testing.T, src string, ds []diag.Diagnostic, code diag.ID, at string) {
	t.Helper()
	if code == "" {
		if len(ds) != 0 {
			t.Errorf("unexpected diagnostics: %+v", ds)
		}
		return
	}
	if len(ds) != 1 || ds[0].Code != code || ds[0].Severity != diag.Warning {
		t.Fatalf("want one %s warning, got %+v", code, ds)
	}
	r := ds[0].Range
	if got := src[r.Start.Offset:r.End.Offset]; got != at {
		t.Errorf("%s points at %q, want %q", code, got, at)
	}
}

// TestMilestones: windows are workflow code, so Linear and zero waits map;
// jitter and waits beyond time.Duration do not.
func TestMilestones(t *testing.T) {
	tests := []struct {
		settings string
		waits    []time.Duration // before windows 2..n
		code     diag.ID
		at       string
	}{
		{"Within = TimeSpan.FromMinutes(5);", nil, "", ""},
		{"Within = TimeSpan.FromMinutes(5); Retries = 2;", []time.Duration{0, 0}, "", ""},
		{"Within = TimeSpan.FromMinutes(5); Retries = 3; Backoff = Backoff.Linear(TimeSpan.FromMinutes(1));", []time.Duration{time.Minute, 2 * time.Minute, 3 * time.Minute}, "", ""},
		{"Within = TimeSpan.FromMinutes(5); Backoff = Backoff.Exponential(TimeSpan.FromMinutes(1)).Cap(TimeSpan.FromMinutes(3)).MaxAttempts(4);", []time.Duration{time.Minute, 2 * time.Minute, 3 * time.Minute}, "", ""},
		{"Within = TimeSpan.FromMinutes(5); Retries = 1; Backoff = Backoff.Fixed(TimeSpan.FromMinutes(1)).Jitter(0.5);", []time.Duration{time.Minute}, CodeJitter, "Jitter(0.5)"},
		{"Within = TimeSpan.FromDays(200000);", nil, CodeTooLong, "Finished"},
	}
	for _, tt := range tests {
		t.Run(tt.settings, func(t *testing.T) {
			src := milestone(tt.settings)
			es, ds := export(t, src)
			e := es[0]
			if e.RetryPolicy != nil {
				t.Errorf("a milestone has no RetryPolicy")
			}
			var got []time.Duration
			for a := int64(2); a <= e.Attempts; a++ {
				d, _ := Duration(e.Waits.Before(a))
				got = append(got, d)
			}
			if diff := cmp.Diff(tt.waits, got); diff != "" {
				t.Errorf("waits (-want +got):\n%s", diff)
			}
			checkDiag(t, src, ds, tt.code, tt.at)
		})
	}
}

// TestWaitsMatchTable: Waits.Before is the table's nominal wait, attempt by
// attempt, over shapes, caps and budgets, including saturation.
func TestWaitsMatchTable(t *testing.T) {
	shapes := []string{"Fixed", "Linear", "Exponential"}
	for _, sh := range shapes {
		for _, iv := range []string{"TimeSpan.Zero", "TimeSpan.FromMilliseconds(7)", "TimeSpan.FromDays(3000)"} {
			for _, cp := range []string{"", ".Cap(TimeSpan.FromSeconds(1))", ".Cap(TimeSpan.FromDays(100000))"} {
				pol := fmt.Sprintf(", retry: Backoff.%s(%s)%s.MaxAttempts(70)", sh, iv, cp)
				prog, _ := parser.Parse([]parser.Source{{Name: "t.wf", Src: step(pol)}}, parser.Options{Workers: 1})
				ss := codegen.Lower(check.Check(prog), codegen.Options{})
				if len(ss) != 1 {
					continue // WF314 and the like: no table
				}
				es, _ := Export(ss)
				for _, r := range ss[0].Rows[1:] {
					for a := r.From; a <= r.To; a++ {
						if got := es[0].Waits.Before(a); got != r.Wait {
							t.Fatalf("%s: attempt %d waits %d, table says %d", pol, a, got, r.Wait)
						}
					}
				}
			}
		}
	}
}

func TestProtoDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0: "0s", time.Second: "1s", 1500 * time.Millisecond: "1.500s", 100: "0.000000100s",
		time.Microsecond * 2: "0.000002s", 300 * time.Second: "300s", 1<<63 - 1: "9223372036.854775807s",
	} {
		if got := protoDuration(d); got != want {
			t.Errorf("protoDuration(%d) = %q, want %q", d, got, want)
		}
	}
}

// TestGolden: the JSON document for the schedule examples.
func TestGolden(t *testing.T) {
	for _, name := range []string{"policies"} {
		src, err := os.ReadFile("../../testdata/schedule/" + name + ".wf")
		if err != nil {
			t.Fatal(err)
		}
		prog, _ := parser.Parse([]parser.Source{{Name: name + ".wf", Src: string(src)}}, parser.Options{Workers: 1})
		es, ds := Export(codegen.Lower(check.Check(prog), codegen.Options{}))
		var b bytes.Buffer
		if err := WriteJSON(&b, es); err != nil {
			t.Fatal(err)
		}
		for _, d := range ds {
			fmt.Fprintf(&b, "// %s %d:%d %s\n", d.Code, d.Range.Start.Line, d.Range.Start.Column, d.Message)
		}
		golden.Check(t, "testdata/"+name+".temporal.json", b.String(), *update, "codegen/temporal")
		doc := b.String()[:strings.Index(b.String(), "\n}\n")+3]
		if !json.Valid([]byte(doc)) {
			t.Errorf("not valid JSON")
		}
	}
}
