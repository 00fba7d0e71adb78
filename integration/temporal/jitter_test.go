package wfctemporal

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/wfc-lang/wfc"
	"github.com/wfc-lang/wfc/codegen"
	export "github.com/wfc-lang/wfc/codegen/temporal"
	"github.com/wfc-lang/wfc/interp"
	"github.com/wfc-lang/wfc/parser"
)

// Jittered steps are proved on the NextRetryDelay path with replayed
// draws (docs/temporal.md): Temporal has no jitter (WF402), so a worker
// that wants wfc's jitter returns each drawn wait as the failure's
// NextRetryDelay. The proof replays fixed draws, runs the step on the
// engine, and compares every attempt's start with the oracle's, computed
// here from the policy and the draws alone.

// replayDraws are the uniform draws the proof replays, cycling.
var replayDraws = []float64{0.1, 0.9, 0.5, 0, 0.75, 0.3333}

// jitterStarts is the oracle: attempt a's wait is the nominal wait scaled
// by 1−f+2f·u for the next draw u, then capped; each start is the exact sum
// of the waits before it, rounded to the nearest tick (halves up).
func jitterStarts(p policy, f *big.Rat, n int64) []int64 {
	out := []int64{0}
	sum := new(big.Rat)
	one := big.NewRat(1, 1)
	for a := int64(2); a <= n; a++ {
		u := new(big.Rat).SetFloat64(replayDraws[(a-2)%int64(len(replayDraws))])
		scale := new(big.Rat).Sub(one, f)
		scale.Add(scale, new(big.Rat).Mul(new(big.Rat).Mul(big.NewRat(2, 1), f), u))
		q := policy{shape: p.shape, interval: p.interval, attempts: a} // uncapped
		w := new(big.Rat).Mul(new(big.Rat).SetInt(q.wait(a)), scale)
		if p.hasCap && w.Cmp(new(big.Rat).SetInt64(p.cap)) > 0 {
			w.SetInt64(p.cap)
		}
		sum.Add(sum, w)
		sum.Add(sum, new(big.Rat).SetInt64(p.duration))
		twice := new(big.Int).Mul(sum.Num(), big.NewInt(2))
		twice.Add(twice, sum.Denom())
		out = append(out, new(big.Int).Quo(twice, new(big.Int).Mul(sum.Denom(), big.NewInt(2))).Int64())
	}
	return out
}

// runJittered runs a step whose activity always fails, returning after
// attempt a the wait before attempt a+1 that the table's timeline gives.
func runJittered(t *testing.T, e *export.Entry, timeline []codegen.Ticks) []time.Duration {
	t.Helper()
	env := newEnv()
	var starts []time.Duration
	var t0 time.Time
	n := int32(len(timeline))
	act := func(ctx context.Context) error {
		a := activity.GetInfo(ctx).Attempt
		now := env.Now()
		if a == 1 {
			t0 = now
		}
		starts = append(starts, now.Sub(t0))
		if a >= n {
			return temporal.NewNonRetryableApplicationError("enough", "wfc.Enough", nil)
		}
		wait, _ := export.Duration(timeline[a] - timeline[a-1])
		return temporal.NewApplicationErrorWithOptions("fails", "wfc.Retry",
			temporal.ApplicationErrorOptions{NextRetryDelay: wait, Cause: errors.New("fails")})
	}
	wf := func(ctx workflow.Context) error {
		ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
			StartToCloseTimeout: time.Minute,
			RetryPolicy:         RetryPolicy(e),
		})
		_ = workflow.ExecuteActivity(ctx, act).Get(ctx, nil)
		return nil
	}
	env.RegisterWorkflow(wf)
	env.RegisterActivity(act)
	env.ExecuteWorkflow(wf)
	if err := env.GetWorkflowError(); err != nil {
		t.Fatalf("workflow: %v", err)
	}
	return starts
}

// TestJitterReplayedDraws: every jittered step in testdata, and a few of
// the grid's policies with jitter, run on the engine through NextRetryDelay
// exactly as the oracle says for the replayed draws.
func TestJitterReplayedDraws(t *testing.T) {
	progs := programs(t)
	for _, policy := range []string{
		"Backoff.Exponential(TimeSpan.FromSeconds(2)).Jitter(0.2).MaxAttempts(8)",
		"Backoff.Linear(TimeSpan.FromMilliseconds(250)).Jitter(0.5).MaxAttempts(20).Cap(TimeSpan.FromSeconds(3))",
		"Backoff.Fixed(TimeSpan.FromMinutes(5)).Jitter(0.1).MaxAttempts(4)",
		"Backoff.Exponential(TimeSpan.FromMilliseconds(7)).Jitter(0.9).MaxAttempts(64).Cap(TimeSpan.FromSeconds(61))",
	} {
		progs["grid/"+policy] = []parser.Source{{Name: "j.wf", Src: stepSource(policy)}}
	}
	proved := 0
	for key, srcs := range progs {
		r := wfc.Run(context.Background(), srcs, wfc.Options{Workers: 1, Lower: codegen.Options{Draws: replayDraws}})
		es, _ := export.Export(r.Schedules)
		for i, e := range es {
			p := policyOf(e.Schedule)
			if !e.Step || !p.jitter || !p.retries() {
				continue
			}
			n := min(p.attempts, maxRun)
			want := jitterStarts(p, e.Schedule.Jitter, n)
			if last := want[len(want)-1]; last > int64(export.MaxDurationTicks) {
				continue // past what a test environment can run
			}
			proved++
			t.Run(fmt.Sprintf("%s/%d", key, i), func(t *testing.T) {
				tl := e.Schedule.Timeline
				if int64(len(tl)) < n {
					t.Fatalf("the timeline has %d attempts, the policy %d", len(tl), n)
				}
				for a, w := range want {
					if int64(tl[a]) != w {
						t.Fatalf("the table starts attempt %d at %d ticks, the oracle at %d", a+1, tl[a], w)
					}
				}
				got := runJittered(t, e, tl[:n])
				if int64(len(got)) != n {
					t.Fatalf("the engine ran %d attempts, want %d", len(got), n)
				}
				for a, d := range got {
					if tk, whole := ticks(d); !whole || int64(tk) != want[a] {
						t.Fatalf("attempt %d started at %v, the oracle says %d ticks", a+1, d, want[a])
					}
				}
			})
		}
	}
	if proved < 8 {
		t.Errorf("only %d jittered steps proved", proved)
	}
}

// TestJitterDrawnOnTemporal: a run given no draws draws each jittered
// wait of its own (recorded in the history by workflow.SideEffect): every
// wait lies in the policy's jitter band, as the schedule table gives it,
// and they are not all the nominal wait; a run given Nominal waits the
// nominal waits, as `wfc test` does without Draws.
func TestJitterDrawnOnTemporal(t *testing.T) {
	src := `workflow W { Autostart = true; Initial = A; event Go();
  state A { subscribe Go(); on Go { Workflow.Once("charge", retry: Backoff.Fixed(TimeSpan.FromSeconds(10)).Jitter(0.5).MaxAttempts(8)) { Pay.Charge(); } goto Done; } }
  terminal Done { } }`
	p, _ := mustProgram(t, []Source{{Name: "jitter.wf", Text: src}})
	waits := func(nominal bool) []interp.Ticks {
		env := newEnv()
		err := Register(env, Activities{Clock: env.Now, Calls: map[string]Call{"Pay.Charge": func(context.Context, []string) error {
			return errors.New("down")
		}}}, p)
		if err != nil {
			t.Fatal(err)
		}
		env.RegisterDelayedCallback(func() { env.SignalWorkflow("Go", []string{}) }, time.Minute)
		env.ExecuteWorkflow("W", Input{Program: p.Hash, Workflow: "W", Nominal: nominal})
		var appErr *temporal.ApplicationError
		var tr interp.Transcript
		if err := env.GetWorkflowError(); !errors.As(err, &appErr) || appErr.Details(&tr) != nil {
			t.Fatalf("want the step to give up with the transcript, got %v", err)
		}
		var out []interp.Ticks
		for _, e := range tr.Entries {
			if e.Kind == interp.KWait {
				out = append(out, e.Wait)
			}
		}
		if len(out) != 7 {
			t.Fatalf("%d waits, want 7:\n%s", len(out), &tr)
		}
		return out
	}
	const s = interp.Ticks(10_000_000)
	drawn := waits(false)
	same := true
	for i, w := range drawn {
		if w < 5*s || w > 15*s {
			t.Errorf("wait %d is %v ticks, outside the band [5s, 15s]", i+1, w)
		}
		same = same && w == 10*s
	}
	if same {
		t.Errorf("every drawn wait is the nominal 10s: nothing was drawn (%v)", drawn)
	}
	for i, w := range waits(true) {
		if w != 10*s {
			t.Errorf("nominal: wait %d is %v ticks, want 10s", i+1, w)
		}
	}
}
