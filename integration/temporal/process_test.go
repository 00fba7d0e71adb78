package wfctemporal

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
)

// The fault tests kill a worker as a deployment loses one: SIGKILL to a
// process of its own, with no chance to finish what it was doing. That
// process is this test binary, run as TestWorkerProcess with its
// configuration in the environment.
const workerProcessEnv = "WFC_WORKER_PROCESS"

// workerConfig is what a worker process runs.
type workerConfig struct {
	HostPort string
	Queue    string
	Programs [][]Source
	Fails    runFails
}

// runFails says, per run (its workflow ID) and step name, which attempts
// fail.
type runFails map[string]map[string]failSpec

// failSpec: attempts up to Times fail, or every attempt (Always).
type failSpec struct {
	Times  int64
	Always bool
}

// activities are the fault tests' activities: every call succeeds, and a
// step's attempt fails as fails says for its run. Each attempt is told to
// report (the worker process prints it).
func (fails runFails) activities(programs []*Program, report func(run, step string, attempt int32)) Activities {
	calls := map[string]Call{}
	for _, p := range programs {
		for _, wf := range p.c.res.Program.Workflows {
			for _, n := range callNames(wf) {
				calls[n] = func(context.Context, []string) error { return nil }
			}
		}
	}
	return Activities{Calls: calls, Attempt: func(ctx context.Context, step string, a int32) error {
		run := activity.GetInfo(ctx).WorkflowExecution.ID
		if report != nil {
			report(run, step, a)
		}
		if f, ok := fails[run][step]; ok && (f.Always || int64(a) <= f.Times) {
			return errAttempt
		}
		return nil
	}}
}

// TestWorkerProcess is not a test of its own: it is the worker process of
// the fault tests, and skips unless it is one. It serves its programs on
// its queue, prints "ready" once it polls and "attempt RUN STEP N" as each
// attempt starts, and exits when its standard input closes (its test is
// over) or it is killed.
func TestWorkerProcess(t *testing.T) {
	env := os.Getenv(workerProcessEnv)
	if env == "" {
		t.Skip("the fault tests' worker process")
	}
	var cfg workerConfig
	if err := json.Unmarshal([]byte(env), &cfg); err != nil {
		t.Fatal(err)
	}
	var progs []*Program
	for _, srcs := range cfg.Programs {
		p, err := NewProgram(srcs)
		if err != nil {
			t.Fatal(err)
		}
		progs = append(progs, p)
	}
	c, err := client.Dial(client.Options{HostPort: cfg.HostPort, Namespace: "default", Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	out := bufio.NewWriter(os.Stdout)
	say := func(line string) {
		mu.Lock()
		defer mu.Unlock()
		out.WriteString(line + "\n")
		out.Flush()
	}
	// A killed worker's workflow tasks wait on its sticky queue until
	// the sticky timeout (5 s by default: minutes of the program at the
	// tests' speedups) before the next worker gets them; a short one hands
	// them over at once, as the restart a minute later expects.
	w, err := NewWorker(c, cfg.Queue, worker.Options{StickyScheduleToStartTimeout: 200 * time.Millisecond}, cfg.Fails.activities(progs, func(run, step string, a int32) {
		say(fmt.Sprintf("attempt %s %s %d", run, step, a))
	}), progs...)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	say("ready")
	_, _ = io.Copy(io.Discard, os.Stdin)
	w.Stop()
}

// workerProcess is a worker running as a process of its own.
type workerProcess struct {
	cmd   *exec.Cmd
	stdin io.Closer
	done  chan struct{}
	gen   int // which process of the test it is, from 1
}

// attemptLog is what the test's worker processes reported, in order.
type attemptLog struct {
	mu    sync.Mutex
	lines []attemptLine
	seen  chan struct{} // signalled at each line
}

type attemptLine struct {
	gen       int
	run, step string
	n         int
}

func newAttemptLog() *attemptLog { return &attemptLog{seen: make(chan struct{}, 1)} }

func (l *attemptLog) add(a attemptLine) {
	l.mu.Lock()
	l.lines = append(l.lines, a)
	l.mu.Unlock()
	select {
	case l.seen <- struct{}{}:
	default:
	}
}

// find returns the line of run's attempt n of step, if one was reported.
func (l *attemptLog) find(run, step string, n int) (attemptLine, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, a := range l.lines {
		if a.run == run && a.step == step && a.n == n {
			return a, true
		}
	}
	return attemptLine{}, false
}

// of returns run's reported attempts of step, in order.
func (l *attemptLog) of(run, step string) []attemptLine {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []attemptLine
	for _, a := range l.lines {
		if a.run == run && a.step == step {
			out = append(out, a)
		}
	}
	return out
}

// startWorkerProcess starts worker process gen for cfg and waits until it
// polls; it is killed when the test ends.
func startWorkerProcess(t *testing.T, cfg workerConfig, gen int, log *attemptLog) *workerProcess {
	t.Helper()
	b, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestWorkerProcess$")
	cmd.Env = append(os.Environ(), workerProcessEnv+"="+string(b))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w := &workerProcess{cmd: cmd, stdin: stdin, done: make(chan struct{}), gen: gen}
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			f := strings.Fields(sc.Text())
			switch {
			case len(f) == 1 && f[0] == "ready":
				close(ready)
			case len(f) == 4 && f[0] == "attempt":
				n, _ := strconv.Atoi(f[3])
				log.add(attemptLine{gen: gen, run: f[1], step: f[2], n: n})
			}
		}
		_ = cmd.Wait()
		close(w.done)
	}()
	t.Cleanup(w.kill)
	select {
	case <-ready:
	case <-w.done:
		t.Fatalf("worker process %d exited before it was ready", gen)
	case <-time.After(2 * time.Minute):
		t.Fatalf("worker process %d was not ready within 2 minutes", gen)
	}
	return w
}

// kill kills the process at once (SIGKILL), as a machine that goes down.
func (w *workerProcess) kill() {
	select {
	case <-w.done:
		return
	default:
	}
	_ = syscall.Kill(-w.cmd.Process.Pid, syscall.SIGKILL)
	_ = w.stdin.Close()
	<-w.done
}
