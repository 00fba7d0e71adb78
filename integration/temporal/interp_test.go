package wfctemporal

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/codegen"
	export "github.com/wfc-lang/wfc/codegen/temporal"
	"github.com/wfc-lang/wfc/interp"
)

// errAttempt is the failure a scenario makes an attempt fail with.
var errAttempt = errors.New("the scenario fails this attempt")

// callNames lists the dotted names of every call in wf.
func callNames(wf *check.Workflow) []string {
	seen := map[string]bool{}
	var walk func(b *check.Block)
	walk = func(b *check.Block) {
		if b == nil {
			return
		}
		for _, st := range b.Stmts {
			switch st := st.(type) {
			case *check.Call:
				seen[st.Fun] = true
			case *check.Step:
				walk(st.Body)
			case *check.Case:
				walk(st.Body)
			case *check.Default:
				walk(st.Body)
			}
		}
	}
	for _, s := range wf.States {
		for _, sub := range s.Subscriptions {
			if sub.Handler != nil {
				walk(sub.Handler.Body)
			}
			for _, ms := range sub.Milestones {
				for _, o := range ms.Outcomes {
					walk(o.Body)
				}
			}
		}
	}
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// onTemporal runs a scenario of workflow wf of program p in the SDK's
// time-skipping test environment and returns the transcript the workflow
// produced. Each action is a signal sent 1 ns before its tick (the
// workflow stamps arrivals rounding up to ticks), so that it comes before
// a timer of the same tick, as the semantics say; actions of one tick are
// sent in one callback, in order. SignalFinish follows the last action.
func onTemporal(t *testing.T, p *Program, wf *check.Workflow, sc interp.Scenario) *interp.Transcript {
	t.Helper()
	env := newEnv()
	fails := map[string]*interp.Script{}
	for s, f := range sc.Steps {
		fails[s.Key] = f
	}
	calls := map[string]Call{}
	for _, n := range callNames(wf) {
		calls[n] = func(context.Context, []string) error { return nil }
	}
	// The time-skipping environment runs an activity in no time of its
	// own: an attempt the scenario says takes a while moves the
	// activities' clock on by that much, so that the activity measures it
	// (StepOutput.Took) as it would measure a real one.
	var mu sync.Mutex
	var ran time.Duration
	err := Register(env, Activities{
		Calls: calls,
		Attempt: func(_ context.Context, step string, a int32) error {
			f, took := fails[step].Attempt(int64(a))
			mu.Lock()
			ran += time.Duration(took) * 100
			mu.Unlock()
			if f == nil {
				return nil
			}
			kind := ""
			if f.Kind != nil {
				kind = KindName(f.Kind)
			}
			var after time.Duration
			if f.HasRetryAfter {
				after = time.Duration(f.RetryAfter) * 100
			}
			return Failure(kind, after, errAttempt)
		},
		Clock: func() time.Time {
			mu.Lock()
			defer mu.Unlock()
			return env.Now().Add(ran)
		},
	}, p)
	if err != nil {
		t.Fatal(err)
	}
	acts := sc.Actions
	for len(acts) > 0 {
		n := 1
		for n < len(acts) && acts[n].At == acts[0].At {
			n++
		}
		group, last := acts[:n], n == len(acts)
		acts = acts[n:]
		delay := time.Duration(group[0].At) * 100
		if delay > 0 {
			delay -= time.Nanosecond
		}
		send := func() {
			for _, a := range group {
				switch a.Kind {
				case interp.ActStart:
					env.SignalWorkflow(SignalStart, nil)
				case interp.ActTake:
					env.SignalWorkflow(SignalTake, a.Slot.Name)
				case interp.ActSend:
					args := make([]string, len(a.Args))
					for i, v := range a.Args {
						args[i] = v.Text
					}
					env.SignalWorkflow(a.Event.Decl.Name.Name, args)
				}
			}
			if last {
				env.SignalWorkflow(SignalFinish, nil)
			}
		}
		if delay == 0 && !wf.Autostart {
			// A callback registered now runs before the workflow's first
			// task, which would then see every signal at once; one that
			// registers the sending runs it after that task. An Autostart
			// run acts in its first task (a deadline at time 0 fires
			// there), so its signals of time 0 come with that task, as
			// SignalWithStart brings them, in the order sent (Interceptor).
			afterStart(env, send)
			continue
		}
		env.RegisterDelayedCallback(send, delay)
	}
	if len(sc.Actions) == 0 {
		afterStart(env, func() { env.SignalWorkflow(SignalFinish, nil) })
	}
	env.ExecuteWorkflow(wf.Decl.Name.Name, Input{Program: p.Hash, Workflow: wf.Decl.Name.Name, Linger: true, Draws: sc.Draws, Nominal: len(sc.Draws) == 0})
	if !env.IsWorkflowCompleted() {
		t.Fatalf("the workflow did not complete")
	}
	var tr interp.Transcript
	if err := env.GetWorkflowError(); err != nil {
		var appErr *temporal.ApplicationError
		if !errors.As(err, &appErr) || !appErr.HasDetails() {
			t.Fatalf("the workflow failed without a transcript: %v", err)
		}
		if err := appErr.Details(&tr); err != nil {
			t.Fatal(err)
		}
		return &tr
	}
	if err := env.GetWorkflowResult(&tr); err != nil {
		t.Fatal(err)
	}
	return &tr
}

// afterStart runs f at time 0 once the workflow has run its first task
// (its query handler answers): signals sent before that would all reach
// the workflow's first task at once, where their order across signal
// names is lost.
func afterStart(env *testsuite.TestWorkflowEnvironment, f func()) {
	started := func() (ok bool) {
		defer func() {
			if recover() != nil {
				ok = false // the environment has no workflow yet
			}
		}()
		_, err := env.QueryWorkflow(QueryState)
		return err == nil
	}
	var try func()
	try = func() {
		if !started() {
			env.RegisterDelayedCallback(try, 0)
			return
		}
		f()
	}
	env.RegisterDelayedCallback(try, 0)
}

// same runs sc in the reference interpreter and on Temporal and asserts
// the transcripts are identical entry by entry.
func same(t *testing.T, p *Program, c *compiled, wf *check.Workflow, sc interp.Scenario) {
	t.Helper()
	// The reference is given Temporal's bound on a transcript: a run that
	// reaches it stops alike on both engines.
	want, err := interp.RunWith(c.res, wf, sc, interp.Options{Schedules: c.scheds, MaxEntries: MaxEntries})
	if err != nil {
		t.Fatal(err)
	}
	// The scenario's steps are the reference's; Temporal's workflow
	// checks the program itself, so failures go by step name.
	got := onTemporal(t, p, wf, sc)
	if os.Getenv("WFC_SHOW") != "" {
		t.Logf("temporal:\n%s", got)
	}
	if diff := diffTranscripts(want, got); diff != "" {
		t.Fatalf("the transcripts differ:\n%s\nreference:\n%s\ntemporal:\n%s", diff, want, got)
	}
}

func diffTranscripts(want, got *interp.Transcript) string {
	if want.Workflow != got.Workflow {
		return fmt.Sprintf("workflow %q, temporal %q", want.Workflow, got.Workflow)
	}
	for i := range max(len(want.Entries), len(got.Entries)) {
		var w, g interp.Entry
		if i < len(want.Entries) {
			w = want.Entries[i]
		}
		if i < len(got.Entries) {
			g = got.Entries[i]
		}
		if fmt.Sprintf("%#v", w) != fmt.Sprintf("%#v", g) {
			return fmt.Sprintf("entry %d:\n  reference: %s\n  temporal:  %s\n  (%#v\n   %#v)", i+1, w, g, w, g)
		}
	}
	return ""
}

// loadProgram reads the .wf files of a folder under testdata as one
// program, skipping tests (*_test.wf).
func loadProgram(t *testing.T, dir string) (*Program, *compiled) {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("../../testdata", dir, "*.wf"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no programs in %s: %v", dir, err)
	}
	var srcs []Source
	for _, path := range paths {
		if strings.HasSuffix(path, "_test.wf") {
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, Source{Name: filepath.ToSlash(filepath.Join(dir, filepath.Base(path))), Text: string(b)})
	}
	return mustProgram(t, srcs)
}

func mustProgram(t *testing.T, srcs []Source) (*Program, *compiled) {
	t.Helper()
	p, err := NewProgram(srcs)
	if err != nil {
		t.Fatal(err)
	}
	c, err := compile(srcs)
	if err != nil {
		t.Fatal(err)
	}
	return p, c
}

// TestJobflowSameOnTemporal: jobflow's runs, in the reference interpreter
// and on Temporal, give the same transcripts.
func TestJobflowSameOnTemporal(t *testing.T) {
	p, c := loadProgram(t, "examples/jobflow")
	wf := c.res.Program.WorkflowNamed("JobFlow")
	start, complete := wf.EventNamed("Start"), wf.EventNamed("Complete")
	ok := interp.Value{Text: "Ok", Member: complete.Params[0].Type.Enum.Members[0]}
	min := func(n int64) interp.Ticks { return interp.Ticks(n) * 600_000_000 }
	for name, acts := range map[string][]interp.Action{
		"nobody answers":       {{At: min(1), Kind: interp.ActSend, Event: start}},
		"answer in window 2":   {{At: min(1), Kind: interp.ActSend, Event: start}, {At: min(12), Kind: interp.ActSend, Event: complete, Args: []interp.Value{ok}}},
		"answer during a wait": {{At: min(1), Kind: interp.ActSend, Event: start}, {At: min(20), Kind: interp.ActSend, Event: complete, Args: []interp.Value{ok}}},
		"answer at the window's end": {{At: min(1), Kind: interp.ActSend, Event: start},
			{At: min(6), Kind: interp.ActSend, Event: complete, Args: []interp.Value{ok}}},
		"too early and after the end": {{At: 0, Kind: interp.ActSend, Event: complete, Args: []interp.Value{ok}},
			{At: min(1), Kind: interp.ActSend, Event: start}, {At: min(1), Kind: interp.ActSend, Event: start},
			{At: min(40), Kind: interp.ActSend, Event: start}},
		"nothing": nil,
	} {
		t.Run(name, func(t *testing.T) { same(t, p, c, wf, interp.Scenario{Actions: acts}) })
	}
}

// runsExactly reports why the program's runs on Temporal cannot equal the
// reference's, or "": a wait or window past time.Duration's range (WF404:
// no Temporal timer reaches it), or more windows than a test should run (a
// step with a long budget runs, but never fails every attempt). The
// export's other warnings are about Temporal's own RetryPolicy, which the
// interpreter workflow does not use: it waits between attempts on its own
// timers, exactly, whatever the policy's shape, kinds or jitter.
func runsExactly(c *compiled) string {
	for _, e := range c.export {
		for _, code := range e.Unsupported {
			if code == export.CodeTooLong {
				return fmt.Sprintf("%s at %s", code, codegen.Place(e.Schedule.Consumer))
			}
		}
		if !e.Step && e.Attempts > 50 {
			return fmt.Sprintf("%d attempts at %s", e.Attempts, codegen.Place(e.Schedule.Consumer))
		}
	}
	return ""
}

// TestTestdataSameOnTemporal: every program under testdata that checks
// clean runs three generated scenarios per workflow with the same
// transcripts in the reference interpreter and on Temporal.
func TestTestdataSameOnTemporal(t *testing.T) {
	progs := programs(t)
	keys := make([]string, 0, len(progs))
	for k := range progs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	ran, skipped := 0, map[string]string{}
	for _, key := range keys {
		var srcs []Source
		for _, s := range progs[key] {
			if !strings.HasSuffix(s.Name, "_test.wf") {
				srcs = append(srcs, Source{Name: s.Name, Text: s.Src})
			}
		}
		p, err := NewProgram(srcs)
		if err != nil {
			continue // a program with errors never runs
		}
		c, _ := compile(srcs)
		if why := runsExactly(c); why != "" {
			skipped[key] = why
			continue
		}
		for _, wf := range c.res.Program.Workflows {
			if wf.Initial == nil || len(wf.Events) == 0 {
				continue
			}
			r := rand.New(rand.NewPCG(uint64(len(key)), uint64(ran)))
			for k := range 3 {
				sc := genScenario(r, wf)
				for st, f := range sc.Steps {
					if s := c.export[st.Consumer]; s != nil && s.Attempts > 50 && (f.Fails[0].Always || f.Fails[0].Times >= 50) {
						delete(sc.Steps, st)
					}
				}
				t.Run(fmt.Sprintf("%s/%s/%d", key, wf.Decl.Name.Name, k), func(t *testing.T) { same(t, p, c, wf, sc) })
				ran++
			}
		}
	}
	t.Logf("%d scenarios of testdata's programs; skipped: %v", ran, skipped)
	if ran < 20 {
		t.Errorf("only %d scenarios ran", ran)
	}
}
