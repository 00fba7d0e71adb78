package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets testscript run `wfc` as a command inside the test binary.
// The tests' result cache is a directory of their own (privateCache), so
// that they neither read nor fill the user's.
func TestMain(m *testing.M) {
	testscript.Main(privateCache{m}, map[string]func(){
		"wfc": func() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// privateCache runs the tests with WFC_CACHE set to a new temporary
// directory, removed afterwards. It wraps only the run of the tests, not
// the `wfc` command testscript starts, whose environment is the script's
// (TestScripts gives each script a cache of its own).
type privateCache struct{ m *testing.M }

func (p privateCache) Run() int {
	dir, err := os.MkdirTemp("", "wfc-test-cache")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	os.Setenv("WFC_CACHE", dir)
	return p.m.Run()
}

// TestScripts runs the CLI scenarios in testdata/script: exit codes, stdin,
// directories, missing paths, formats.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv("NO_COLOR", "")
			// Each script has a result cache of its own, in its work
			// directory's temporary directory, never the user's.
			env.Setenv("WFC_CACHE", filepath.Join(env.WorkDir, ".tmp", "wfc-cache"))
			return nil
		},
		Condition: func(cond string) (bool, error) {
			if cond == "root" {
				return os.Geteuid() == 0, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// status N PROG ARGS...: run PROG like exec and assert that it
			// exits with status N (exec only tells zero from non-zero).
			"status": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) < 2 || neg {
					ts.Fatalf("usage: status N PROG [ARGS...]")
				}
				want, err := strconv.Atoi(args[0])
				if err != nil {
					ts.Fatalf("status: bad number %q", args[0])
				}
				got := 0
				if err := ts.Exec(args[1], args[2:]...); err != nil {
					var ee *exec.ExitError
					if !errors.As(err, &ee) {
						ts.Fatalf("status: %v", err)
					}
					got = ee.ExitCode()
				}
				if got != want {
					ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
				}
			},
			// crlf FILE [LINE...]: end the given lines (default: all) with CRLF.
			"crlf": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) < 1 {
					ts.Fatalf("usage: crlf FILE [LINE...]")
				}
				crlfLines(ts, args[0], args[1:])
			},
			// validjson FILE SCHEMA: FILE is valid against docs/schema/SCHEMA.
			"validjson": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) != 2 {
					ts.Fatalf("usage: validjson FILE SCHEMA")
				}
				validateJSON(scriptT{ts}, args[1], []byte(ts.ReadFile(args[0])))
			},
		},
	})
}

// scriptT adapts a TestScript to the testing.TB methods validateJSON uses.
type scriptT struct{ ts *testscript.TestScript }

func (s scriptT) Helper()                        {}
func (s scriptT) Fatalf(format string, a ...any) { s.ts.Fatalf(format, a...) }

// crlfLines rewrites the given 1-based lines of file (all when none are
// given) to end in CRLF.
func crlfLines(ts *testscript.TestScript, file string, lines []string) {
	want := map[int]bool{}
	for _, l := range lines {
		n, err := strconv.Atoi(l)
		if err != nil {
			ts.Fatalf("crlf: bad line %q", l)
		}
		want[n] = true
	}
	parts := strings.SplitAfter(ts.ReadFile(file), "\n")
	for i, p := range parts {
		if strings.HasSuffix(p, "\n") && (len(want) == 0 || want[i+1]) {
			parts[i] = strings.TrimSuffix(p, "\n") + "\r\n"
		}
	}
	if err := os.WriteFile(ts.MkAbs(file), []byte(strings.Join(parts, "")), 0o644); err != nil {
		ts.Fatalf("crlf: %v", err)
	}
}
