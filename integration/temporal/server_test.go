package wfctemporal

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"go/build"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/interceptor"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/interp"
)

// updateHistories rewrites testdata/histories from runs on the dev server.
var updateHistories = flag.Bool("update-histories", false, "record testdata/histories on a dev server")

// The environment variable that makes TestServer fail, not skip, when the
// Temporal CLI is missing (.ci/run sets it).
const serverEnv = "WFC_TEMPORAL_SERVER"

// temporalCLI finds the Temporal CLI: on PATH, else in GOBIN or GOPATH/bin, where
// `go install github.com/temporalio/cli/cmd/temporal@v1.5.1` puts it.
func temporalCLI(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("temporal"); err == nil {
		return p
	}
	for _, dir := range []string{os.Getenv("GOBIN"), filepath.Join(build.Default.GOPATH, "bin")} {
		p := filepath.Join(dir, "temporal")
		if _, err := os.Stat(p); dir != "" && err == nil {
			return p
		}
	}
	if os.Getenv(serverEnv) == "require" {
		t.Fatalf("the Temporal CLI is not installed and %s=require: go install github.com/temporalio/cli/cmd/temporal@v1.5.1", serverEnv)
	}
	t.Skipf("the Temporal CLI is not installed (go install github.com/temporalio/cli/cmd/temporal@v1.5.1; %s=require makes this fail)", serverEnv)
	return ""
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// devServer starts `temporal server start-dev` on free ports (the Web UI
// off), waits until it serves the default namespace and returns a client;
// the server is stopped when the test ends.
func devServer(t *testing.T) client.Client {
	t.Helper()
	return startServer(t, "").client
}

// server is a dev server the test started, which it can stop and start
// again on the same ports and database file.
type server struct {
	t        *testing.T
	args     []string
	dir      string
	hostPort string
	client   client.Client
	cmd      *exec.Cmd
	done     chan struct{}
	out      *strings.Builder
}

// startServer starts a dev server; with db, it keeps its runs in that
// file (--db-filename), else in memory.
func startServer(t *testing.T, db string) *server {
	t.Helper()
	cli := temporalCLI(t)
	port := freePort(t)
	s := &server{t: t, dir: t.TempDir(), hostPort: fmt.Sprintf("127.0.0.1:%d", port)}
	s.args = []string{"server", "start-dev", "--headless", "--ip", "127.0.0.1",
		"--port", strconv.Itoa(port), "--http-port", strconv.Itoa(freePort(t)),
		"--metrics-port", strconv.Itoa(freePort(t)), "--log-level", "error"}
	if db != "" {
		s.args = append(s.args, "--db-filename", db)
	}
	s.args = append([]string{cli}, s.args...)
	s.start()
	t.Cleanup(s.stop)
	c, err := client.Dial(client.Options{HostPort: s.hostPort, Namespace: "default", Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	s.client = c
	return s
}

// start starts the server's process and waits until it serves.
func (s *server) start() {
	t := s.t
	t.Helper()
	s.cmd = exec.Command(s.args[0], s.args[1:]...)
	s.cmd.Dir = s.dir
	s.out = &strings.Builder{}
	s.cmd.Stdout, s.cmd.Stderr = s.out, s.out
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	began := time.Now()
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	s.done = done
	go func() { _ = s.cmd.Wait(); close(done) }()
	deadline := time.Now().Add(60 * time.Second)
	for {
		c, err := client.Dial(client.Options{HostPort: s.hostPort, Namespace: "default", Logger: quiet})
		if err == nil {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			_, err = c.CheckHealth(ctx, &client.CheckHealthRequest{})
			cancel()
			c.Close()
			if err == nil {
				t.Logf("dev server up in %v", time.Since(began).Round(time.Millisecond))
				return
			}
		}
		select {
		case <-done:
			t.Fatalf("the dev server exited: %s", s.out.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("the dev server did not serve within a minute: %v\n%s", err, s.out.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// stop stops the server (SIGTERM, then SIGKILL after 10 s).
func (s *server) stop() {
	if s.cmd == nil {
		return
	}
	_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
		_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
		<-s.done
	}
	s.cmd = nil
}

// startWorker runs a worker for programs on a task queue of its own.
func startWorker(t *testing.T, c client.Client, acts Activities, programs ...*Program) string {
	t.Helper()
	queue := fmt.Sprintf("wfc-%s-%d", t.Name(), time.Now().UnixNano())
	queue = strings.NewReplacer("/", "-", " ", "-").Replace(queue)
	w, err := NewWorker(c, queue, worker.Options{}, acts, programs...)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
	return queue
}

func history(t *testing.T, c client.Client, id string) *historypb.History {
	t.Helper()
	h, err := fetchHistory(c, id)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// fetchHistory reads a run's whole history (safe in any goroutine).
func fetchHistory(c client.Client, id string) (*historypb.History, error) {
	h := &historypb.History{}
	it := c.GetWorkflowHistory(context.Background(), id, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		e, err := it.Next()
		if err != nil {
			return nil, err
		}
		h.Events = append(h.Events, e)
	}
	return h, nil
}

func queryState(t *testing.T, c client.Client, id string) string {
	t.Helper()
	v, err := c.QueryWorkflow(context.Background(), id, "", QueryState)
	if err != nil {
		t.Fatalf("query: %v", err)
	}
	var s string
	if err := v.Get(&s); err != nil {
		t.Fatal(err)
	}
	return s
}

func queryTranscript(t *testing.T, c client.Client, id string) *interp.Transcript {
	t.Helper()
	v, err := c.QueryWorkflow(context.Background(), id, "", QueryTranscript)
	if err != nil {
		t.Fatalf("query: %v", err)
	}
	var tr interp.Transcript
	if err := v.Get(&tr); err != nil {
		t.Fatal(err)
	}
	return &tr
}

// eventually polls cond every 50 ms for up to d.
func eventually(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(d); !cond(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("%s did not happen within %v", what, d)
		}
	}
}

// runError is the ApplicationError a run ended with, and its transcript.
func runError(t *testing.T, err error) (*temporal.ApplicationError, *interp.Transcript) {
	t.Helper()
	var appErr *temporal.ApplicationError
	if !errors.As(err, &appErr) {
		t.Fatalf("want the run to end in error, got %v", err)
	}
	var tr interp.Transcript
	if appErr.HasDetails() {
		if err := appErr.Details(&tr); err != nil {
			t.Fatal(err)
		}
	}
	return appErr, &tr
}

// TestServer runs testdata/examples/jobflow on a real Temporal dev server
// through a real worker, with its minutes as tenths of seconds or less
// (Input.Speedup), and checks the states it passes through, where it ends,
// its transcript and its history. It also records histories of generated
// runs there and replays them (TestReplay replays the recorded ones
// without a server).
func TestServer(t *testing.T) {
	began := time.Now()
	c := devServer(t)
	p, cc := loadProgram(t, "examples/jobflow")
	queue := startWorker(t, c, Activities{Calls: map[string]Call{}}, p)
	ctx := context.Background()

	t.Run("answered during a wait", func(t *testing.T) {
		t.Parallel()
		// Speedup 60: a minute of the program is a second; window 1 is
		// 5 s, then a 5 s wait, room enough for the signal on a busy
		// machine (the fault tests run beside this one).
		run, err := Start(ctx, c, client.StartWorkflowOptions{ID: "jobflow-answered", TaskQueue: queue}, p, "JobFlow", 60)
		if err != nil {
			t.Fatal(err)
		}
		if s := queryState(t, c, run.GetID()); s != "Queued" {
			t.Fatalf("state %q at the start, want Queued", s)
		}
		if err := c.SignalWorkflow(ctx, run.GetID(), "", "Start", []string{}); err != nil {
			t.Fatal(err)
		}
		eventually(t, 10*time.Second, "state Running", func() bool { return queryState(t, c, run.GetID()) == "Running" })
		eventually(t, 20*time.Second, "window 1 passing", func() bool {
			for _, e := range queryTranscript(t, c, run.GetID()).Entries {
				if e.Kind == interp.KWait {
					return true
				}
			}
			return false
		})
		if err := c.SignalWorkflow(ctx, run.GetID(), "", "Complete", []string{"Ok"}); err != nil {
			t.Fatal(err)
		}
		appErr, tr := runError(t, run.Get(ctx, nil))
		if appErr.Type() != ErrorType || appErr.Message() != "job escalated" {
			t.Fatalf("the run ended with %s %q, want %s %q", appErr.Type(), appErr.Message(), ErrorType, "job escalated")
		}
		var met *interp.Entry
		for i, e := range tr.Entries {
			if e.Kind == interp.KMet {
				met = &tr.Entries[i]
			}
		}
		if met == nil || !met.InWait || met.N != 1 {
			t.Fatalf("want the milestone met during the wait after window 1:\n%s", tr)
		}
		if s := queryState(t, c, run.GetID()); s != "Escalated" {
			t.Fatalf("state %q after the end, want Escalated", s)
		}
		h := history(t, c, run.GetID())
		count := map[enumspb.EventType]int{}
		for _, e := range h.Events {
			count[e.GetEventType()]++
		}
		last := h.Events[len(h.Events)-1]
		if last.GetEventType() != enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED ||
			last.GetWorkflowExecutionFailedEventAttributes().GetFailure().GetMessage() != "job escalated" {
			t.Fatalf("the history ends with %v, want the run failed with %q", last, "job escalated")
		}
		if count[enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED] != 2 || count[enumspb.EVENT_TYPE_TIMER_STARTED] < 2 || count[enumspb.EVENT_TYPE_TIMER_FIRED] < 1 {
			t.Fatalf("want 2 signals, 2 timers started (window 1, the wait) and the first fired, got %v", count)
		}
		memo := h.Events[0].GetWorkflowExecutionStartedEventAttributes().GetMemo().GetFields()[MemoProgram]
		if memo == nil || !strings.Contains(string(memo.GetData()), p.Hash) {
			t.Fatalf("the run's memo does not hold the program's hash: %v", memo)
		}
		replay(t, p, h)
	})

	t.Run("nobody answers", func(t *testing.T) {
		t.Parallel()
		// Speedup 120: the run's 30 minutes take 15 s. Its transcript is
		// the reference's, entry by entry, each time at most 3 s of engine
		// time late: the dev server fires timers up to about a second late.
		run, err := Start(ctx, c, client.StartWorkflowOptions{ID: "jobflow-unanswered", TaskQueue: queue}, p, "JobFlow", 120)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.SignalWorkflow(ctx, run.GetID(), "", "Start", []string{}); err != nil {
			t.Fatal(err)
		}
		_, got := runError(t, run.Get(ctx, nil))
		wf := cc.res.Program.WorkflowNamed("JobFlow")
		start := got.Entries[3].At // when Start was accepted
		want, err := interp.Run(cc.res, wf, interp.Scenario{Actions: []interp.Action{{At: start, Kind: interp.ActSend, Event: wf.EventNamed("Start")}}})
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Entries) != len(want.Entries) {
			t.Fatalf("the transcripts differ:\nreference:\n%s\ndev server:\n%s", want, got)
		}
		const slack = 360 * 10_000_000 // 6 minutes of the program: 3 s at Speedup 120
		for i, w := range want.Entries {
			g := got.Entries[i]
			if g.Kind != w.Kind || g.State != w.State || g.N != w.N || g.At < w.At || g.At > w.At+slack {
				t.Fatalf("entry %d: %s, the reference says %s\nreference:\n%s\ndev server:\n%s", i+1, g, w, want, got)
			}
		}
		replay(t, p, history(t, c, run.GetID()))
	})

	t.Run("generated", func(t *testing.T) {
		t.Parallel()
		generatedOnServer(t, c)
	})

	t.Run("rich steps", func(t *testing.T) {
		t.Parallel()
		richOnServer(t, c)
	})
	t.Cleanup(func() { t.Logf("TestServer took %v", time.Since(began).Round(time.Millisecond)) })
}

// replay replays a history against the interpreter workflow.
func replay(t *testing.T, p *Program, h *historypb.History) {
	t.Helper()
	r, err := NewReplayer(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.ReplayWorkflowHistory(quiet, h); err != nil {
		t.Fatalf("the history does not replay: %v", err)
	}
}

// serverRuns is how many generated programs (a scenario each) run on the
// dev server, recorded as histories and replayed.
const serverRuns = 24

// serverCase is a generated program and scenario fit for a server at a
// speedup (serverSafe), with the reference's transcript.
type serverCase struct {
	index int // the program's seed, genProgram(index)
	p     *Program
	c     *compiled
	wf    *check.Workflow
	sc    interp.Scenario
	want  *interp.Transcript
}

// serverCases are serverRuns generated cases (one scenario of each
// program, seeded as TestGenerated's first) that a dev server at speedup
// runs as the reference does: of the first 400 programs' that are, half
// with a step that retries (the first such), the rest the first others.
func serverCases(t *testing.T, speedup int64) []serverCase {
	var retried, other []serverCase
	for i := 0; i < 400 && len(retried)+len(other) < 4*serverRuns; i++ {
		srcs := []Source{{Name: fmt.Sprintf("gen%d.wf", i), Text: genProgram(uint64(i))}}
		p, cc := mustProgram(t, srcs)
		wf := cc.res.Program.WorkflowNamed("G")
		sc := genScenario(rand.New(rand.NewPCG(uint64(i), 0x5cea)), wf)
		want, err := interp.RunWith(cc.res, wf, sc, interp.Options{Schedules: cc.scheds})
		if err != nil {
			t.Fatal(err)
		}
		if ok, _ := serverSafe(want, sc, speedup); !ok {
			continue
		}
		k := serverCase{index: i, p: p, c: cc, wf: wf, sc: sc, want: want}
		if slices.ContainsFunc(want.Entries, func(e interp.Entry) bool { return e.Kind == interp.KAttempt && e.N > 1 }) {
			retried = append(retried, k)
		} else {
			other = append(other, k)
		}
	}
	out := retried[:min(len(retried), serverRuns/2)]
	out = append(out, other[:min(len(other), serverRuns-len(out))]...)
	if len(out) < serverRuns {
		t.Fatalf("only %d of the first 400 generated cases keep clear of deadlines at Speedup %d", len(out), speedup)
	}
	return out
}

// generatedOnServer runs generated scenarios on the dev server, all at
// once, each on a worker of its own, and requires each run to decide as
// the reference does (its transcript's entries, times aside: the
// server's are a real clock's) and its history to replay. The cases are
// those whose actions keep clear of the deadlines (serverSafe), so that no
// decision depends on the server's timing; when one still differs it is
// run again at half the speed, where the margins are twice as long in real
// time, and the test fails only if it differs there too (adapt). With
// -update-histories it writes the histories to testdata/histories, which
// TestReplay replays without a server.
func generatedOnServer(t *testing.T, c client.Client) {
	adaptFrom(t, 300, func(speedup int64) bool { return generatedAt(t, c, speedup) })
}

func generatedAt(t *testing.T, c client.Client, speedup int64) bool {
	ctx := context.Background()
	cases := serverCases(t, speedup)
	type result struct {
		name string
		h    *historypb.History
		diff string
	}
	results := make([]result, len(cases))
	stamp := time.Now().UnixNano()
	var wg sync.WaitGroup
	for i, sc := range cases {
		fails := map[string]*interp.Script{}
		for s, f := range sc.sc.Steps {
			fails[s.Key] = f
		}
		calls := map[string]Call{}
		for _, n := range callNames(sc.wf) {
			calls[n] = func(context.Context, []string) error { return nil }
		}
		queue := startWorker(t, c, Activities{Calls: calls, Attempt: func(_ context.Context, step string, a int32) error {
			if f, _ := fails[step].Attempt(int64(a)); f != nil {
				return errAttempt
			}
			return nil
		}}, sc.p)
		id := fmt.Sprintf("gen-%d-%d", sc.index, stamp)
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: queue}, "G",
				Input{Program: sc.p.Hash, Workflow: "G", Speedup: speedup, Linger: true}); err != nil {
				t.Error(err)
				return
			}
			if err := sendActions(ctx, c, id, sc.sc.Actions, time.Now(), speedup); err != nil {
				t.Error(err)
			}
			if err := c.SignalWorkflow(ctx, id, "", SignalFinish, nil); err != nil {
				t.Error(err)
			}
			got, err := runResult(ctx, c, id)
			if err != nil {
				t.Errorf("%s: %v", id, err)
				return
			}
			h, err := fetchHistory(c, id)
			if err != nil {
				t.Errorf("%s: %v", id, err)
				return
			}
			results[i] = result{name: fmt.Sprintf("gen-%d", sc.index), h: h, diff: sameShape(sc.want, got)}
		}()
	}
	wg.Wait()
	events, steps, differ := 0, 0, 0
	for i, r := range results {
		if r.h == nil {
			continue
		}
		if r.diff != "" {
			differ++
			t.Logf("%s at Speedup %d: %s", r.name, speedup, r.diff)
		}
		events += len(r.h.Events)
		for _, e := range r.h.Events {
			// Each step is the step activity, its ID the step's name, under
			// the step's retry policy.
			if a := e.GetActivityTaskScheduledEventAttributes(); a != nil && a.GetActivityType().GetName() == StepActivity {
				steps++
				if !strings.HasPrefix(a.GetActivityId(), "st") || a.GetRetryPolicy().GetMaximumAttempts() < 1 {
					t.Errorf("%s: step activity %q with retry policy %v", r.name, a.GetActivityId(), a.GetRetryPolicy())
				}
			}
		}
		replay(t, cases[i].p, r.h)
	}
	if differ > 0 {
		if speedup <= 10 {
			t.Errorf("%d of %d generated runs decide otherwise than the reference on the dev server", differ, len(cases))
			return true
		}
		return false
	}
	if *updateHistories {
		old, _ := filepath.Glob("testdata/histories/gen-*.json")
		for _, f := range old {
			if err := os.Remove(f); err != nil {
				t.Fatal(err)
			}
		}
		for _, r := range results {
			recordHistory(t, r.name, r.h)
		}
	}
	t.Logf("%d generated runs on the dev server at Speedup %d decide as the reference; %d history events (%d steps), replayed clean",
		len(cases), speedup, events, steps)
	if steps == 0 {
		t.Error("no step ran on the dev server")
	}
	return true
}

// recordHistory writes h to testdata/histories/NAME.json, with
// -update-histories.
func recordHistory(t *testing.T, name string, h *historypb.History) {
	if !*updateHistories {
		return
	}
	b, err := protojson.MarshalOptions{Indent: " "}.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll("testdata/histories", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("testdata/histories", name+".json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestReplay replays the histories recorded on a dev server
// (go test -run TestServer -update-histories) against the interpreter
// workflow: the workflow code must stay deterministic for them.
func TestReplay(t *testing.T) {
	gens, _ := filepath.Glob("testdata/histories/gen-*.json")
	if len(gens) < serverRuns {
		t.Fatalf("%d recorded histories in testdata/histories, want %d", len(gens), serverRuns)
	}
	files := gens
	// The fault tests' runs: signals while the worker was down (taken in
	// history order), a worker killed in a retry's wait, one killed twice.
	// And a run of rich steps: kinds, a Retry-After, a jittered wait whose
	// draw the history records, a cadence.
	for _, name := range []string{"down", "midretry", "killed", "rich"} {
		files = append(files, filepath.Join("testdata/histories", name+".json"))
	}
	// Each run's input names its program by hash: the replayer is started
	// with them all, as a worker would be.
	var progs []*Program
	for name, src := range map[string]string{"order.wf": shipSource, "retry.wf": retrySource, "fault.wf": faultSource, "rich.wf": richSource} {
		p, _ := mustProgram(t, []Source{{Name: name, Text: src}})
		progs = append(progs, p)
	}
	for _, f := range gens {
		var i int
		if _, err := fmt.Sscanf(filepath.Base(f), "gen-%d.json", &i); err != nil {
			t.Fatal(err)
		}
		p, _ := mustProgram(t, []Source{{Name: fmt.Sprintf("gen%d.wf", i), Text: genProgram(uint64(i))}})
		progs = append(progs, p)
	}
	r, err := NewReplayer(progs...)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if err := r.ReplayWorkflowHistoryFromJSONFile(quiet, f); err != nil {
			t.Errorf("%s does not replay: %v", f, err)
		}
	}
	// The replayer is not vacuous: a workflow that does something else
	// under the same name fails to replay the first history.
	other, err := worker.NewWorkflowReplayerWithOptions(worker.WorkflowReplayerOptions{Interceptors: []interceptor.WorkerInterceptor{Interceptor()}})
	if err != nil {
		t.Fatal(err)
	}
	other.RegisterWorkflowWithOptions(func(ctx workflow.Context, in Input) (*interp.Transcript, error) {
		return nil, workflow.Sleep(ctx, time.Hour)
	}, workflow.RegisterOptions{Name: "G"})
	if err := other.ReplayWorkflowHistoryFromJSONFile(quiet, files[0]); err == nil {
		t.Errorf("%s replays against another workflow", files[0])
	}
}
