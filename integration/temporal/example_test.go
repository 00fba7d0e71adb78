package wfctemporal_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"

	wfctemporal "github.com/wfc-lang/wfc/integration/temporal"
)

// BEGIN docs/temporal.md

// RunJobFlow runs testdata/examples/jobflow on a Temporal server: a
// worker for the program, one run with its minutes as seconds, its events
// as signals, and its state as a query. It returns where the run ended.
func RunJobFlow(ctx context.Context, c client.Client, dir string) (string, error) {
	src, err := os.ReadFile(filepath.Join(dir, "jobflow.wf"))
	if err != nil {
		return "", err
	}
	// The program is checked here, once; a run's input names it by hash.
	prog, err := wfctemporal.NewProgram([]wfctemporal.Source{{Name: "jobflow.wf", Text: string(src)}})
	if err != nil {
		return "", err // the program's errors, as `wfc check` prints them
	}
	// The worker runs this program and no other (a run's input names its
	// program by hash).
	w, err := wfctemporal.NewWorker(c, "jobs", worker.Options{}, wfctemporal.Activities{
		// Calls by dotted name, e.g. "Mail.Send": jobflow makes none.
		Calls: map[string]wfctemporal.Call{},
	}, prog)
	if err != nil {
		return "", err
	}
	if err := w.Start(); err != nil {
		return "", err
	}
	defer w.Stop()

	opts := client.StartWorkflowOptions{ID: "job-42", TaskQueue: "jobs"}
	run, err := wfctemporal.Start(ctx, c, opts, prog, "JobFlow", 60) // a minute is a second
	if err != nil {
		return "", err
	}
	// Events are signals named like the event, with their arguments in
	// source form.
	if err := c.SignalWorkflow(ctx, "job-42", "", "Start", []string{}); err != nil {
		return "", err
	}
	if err := c.SignalWorkflow(ctx, "job-42", "", "Complete", []string{"Ok"}); err != nil {
		return "", err
	}
	// A terminal error fails the workflow with its Message.
	err = run.Get(ctx, nil)
	var end *temporal.ApplicationError
	if !errors.As(err, &end) || end.Type() != wfctemporal.ErrorType {
		return "", err
	}
	v, err := c.QueryWorkflow(ctx, "job-42", "", wfctemporal.QueryState)
	if err != nil {
		return "", err
	}
	var state string
	if err := v.Get(&state); err != nil {
		return "", err
	}
	return state + ": " + end.Message(), nil // "Escalated: job escalated"
}

// END docs/temporal.md

// TestDocsExample: docs/temporal.md's and the README's worked example is
// this file's code,
// and it runs on a dev server (skipped, like TestServer, without the CLI).
func TestDocsExample(t *testing.T) {
	self, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	code := string(self)
	code = code[strings.Index(code, "// BEGIN docs/temporal.md\n")+len("// BEGIN docs/temporal.md\n\n") : strings.Index(code, "\n// END docs/temporal.md")]
	for _, path := range []string{"../../docs/temporal.md", "../../README.md"} {
		doc, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(doc), "```go\n"+code+"```\n") {
			t.Fatalf("%s does not hold the example as example_test.go has it:\n%s", path, code)
		}
	}
	c := wfctemporal.DevServer(t)
	got, err := RunJobFlow(context.Background(), c, "../../testdata/examples/jobflow")
	if err != nil {
		t.Fatal(err)
	}
	if got != "Escalated: job escalated" {
		t.Fatalf("the run ended %q", got)
	}
}
