package wfctemporal

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/wfc-lang/wfc/interp"
)

// richSource is a program whose steps have what a real retry policy has:
// error kinds (one never retried), a server's Retry-After, jitter drawn
// at random by the run, a timeout, a cadence, a deadline and a catch.
const richSource = `enum Fault { Busy, Declined }

workflow Rich {
  Autostart = true;
  Initial = Paying;

  event Go();

  state Paying {
    subscribe Go();
    on Go {
      Workflow.Once("charge", retry: Backoff.Exponential(TimeSpan.FromSeconds(10)).MaxAttempts(4).Jitter(0.5).NonRetryable(Fault.Declined),
                    timeout: TimeSpan.FromSeconds(30)) {
        Pay.Charge();
      } catch {
        Declined { goto Declined; }
        default  { goto Failed; }
      }
      Workflow.Once("poll", retry: Backoff.Every(TimeSpan.FromSeconds(20)).MaxAttempts(3), deadline: TimeSpan.FromMinutes(5)) {
        Pay.Poll();
      }
      goto Done;
    }
  }

  terminal Done { }
  terminal error Declined { Message = "declined"; }
  terminal error Failed { Message = "failed"; }
}
`

// richOnServer runs richSource on the dev server at Speedup 60: the
// charge's first attempt fails as Fault.Busy with a Retry-After of 15 s,
// its second with no kind (a jittered wait, drawn by the run), its third
// succeeds; the poll's first attempt fails and its second, on the
// cadence, succeeds. The run ends in Done having written each of those
// decisions, and its history, with the jitter's draw recorded in it,
// replays (recorded as testdata/histories/rich.json with
// -update-histories, which TestReplay replays without a server).
func richOnServer(t *testing.T, c client.Client) {
	const speedup = 60
	p, _ := mustProgram(t, []Source{{Name: "rich.wf", Text: richSource}})
	queue := startWorker(t, c, Activities{
		Calls: map[string]Call{"Pay.Charge": func(context.Context, []string) error { return nil },
			"Pay.Poll": func(context.Context, []string) error { return nil }},
		Attempt: func(_ context.Context, step string, n int32) error {
			switch {
			case step == "charge" && n == 1:
				return Failure("Fault.Busy", 15*time.Second/speedup, errors.New("busy"))
			case step == "charge" && n == 2, step == "poll" && n == 1:
				return errors.New("flaky")
			}
			return nil
		},
	}, p)
	ctx := context.Background()
	id := fmt.Sprintf("rich-%d", time.Now().UnixNano())
	run, err := Start(ctx, c, client.StartWorkflowOptions{ID: id, TaskQueue: queue}, p, "Rich", speedup)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.SignalWorkflow(ctx, run.GetID(), "", "Go", []string{}); err != nil {
		t.Fatal(err)
	}
	var tr interp.Transcript
	if err := run.Get(ctx, &tr); err != nil {
		t.Fatalf("the run did not end in Done: %v", err)
	}
	has := func(what string, ok func(e interp.Entry) bool) {
		t.Helper()
		if !slices.ContainsFunc(tr.Entries, ok) {
			t.Errorf("the transcript has no %s:\n%s", what, &tr)
		}
	}
	has("Fault.Busy failure with its Retry-After", func(e interp.Entry) bool {
		return e.Kind == interp.KFail && e.Name == "charge" && e.ErrorKind == "Fault.Busy" && e.RetryAfter && e.Wait == 15*10_000_000
	})
	has("wait of the Retry-After", func(e interp.Entry) bool {
		return e.Kind == interp.KWait && e.Name == "charge" && e.N == 2 && e.RetryAfter && e.Wait == 15*10_000_000
	})
	has("jittered wait before attempt 3, within [10s, 30s]", func(e interp.Entry) bool {
		return e.Kind == interp.KWait && e.Name == "charge" && e.N == 3 && !e.RetryAfter && e.Wait >= 10*10_000_000 && e.Wait <= 30*10_000_000
	})
	has("charge done at attempt 3", func(e interp.Entry) bool { return e.Kind == interp.KDone && e.Name == "charge" && e.N == 3 })
	has("poll done at attempt 2", func(e interp.Entry) bool { return e.Kind == interp.KDone && e.Name == "poll" && e.N == 2 })
	if end, ok := tr.End(); !ok || end.Kind != interp.KEnd || end.State != "Done" {
		t.Errorf("the run ended with %v, want Done:\n%s", end, &tr)
	}
	h := history(t, c, run.GetID())
	replay(t, p, h)
	recordHistory(t, "rich", h)
}
