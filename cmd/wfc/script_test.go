package main

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets testscript run `wfc` as a command inside the test binary.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"wfc": func() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs the CLI scenarios in testdata/script: exit codes, stdin,
// directories, missing paths, formats.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv("NO_COLOR", "")
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
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
