// Command wfc is the compiler and validator of the workflow language:
// `wfc check` reports every syntax and meaning error, `wfc schedule` prints
// each retry policy's resolved schedule, `wfc explain` documents every
// diagnostic code. See README.md and docs/language.md.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/spf13/cobra"
)

func main() {
	stop := profileCPU(os.Getenv("WFC_CPUPROFILE"), os.Stderr)
	code := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// exitError carries an exit status through cobra.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

// Exit statuses (README.md, "wfc check").
const (
	exitOK    = 0
	exitFound = 1 // an error diagnostic, or with --strict a warning
	exitUsage = 2 // usage error or an unreadable path
)

// run executes wfc with args and returns the exit status. It has no global
// state, so tests run it in-process.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRoot(stdin, stdout, stderr)
	root.SetArgs(args)
	if err := helpOfUnknown(root, args); err != nil {
		notef(stderr, "%v", err)
		return exitUsage
	}
	err := root.Execute()
	var ee exitError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ee):
		return ee.code
	default:
		notef(stderr, "%v", err)
		return exitUsage
	}
}

func newRoot(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "wfc",
		Short: "wfc checks workflow-language files and resolves their retry schedules",
		Long: `wfc is the compiler and validator of the workflow language.

  wfc check PATH...      report every syntax and meaning problem
  wfc schedule PATH...   print the resolved retry schedule of every policy
  wfc explain CODE       explain a diagnostic code, with examples
  wfc fmt PATH...        lay files out in the canonical form
  wfc graph PATH...      draw each workflow as a state machine (Mermaid, DOT)
  wfc export temporal    write the policies of PATH... as Temporal RetryPolicies
  wfc test PATH...       run the tests of *_test.wf files on a virtual clock
  wfc lsp                the language server (LSP 3.17 over stdio)`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(flagError)
	root.AddCommand(newCheckCmd(stdin, stdout, stderr))
	root.AddCommand(newScheduleCmd(stdin, stdout, stderr))
	root.AddCommand(newExplainCmd(stdout))
	root.AddCommand(newFmtCmd(stdin, stdout, stderr))
	root.AddCommand(newGraphCmd(stdin, stdout, stderr))
	root.AddCommand(newExportCmd(stdin, stdout, stderr))
	root.AddCommand(newLSPCmd(stdin, stdout, stderr))
	root.AddCommand(newTestCmd(stdin, stdout, stderr))
	root.AddCommand(newPlayCmd(stdout, stderr))
	root.AddCommand(&cobra.Command{
		Use:   "version",
		Short: "Print wfc's version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fmt.Fprintln(stdout, "wfc", version())
			return nil
		},
	})
	strictUsage(root)
	return root
}

// version comes from the build information: the module version when
// installed with `go install …@vX`, else the VCS revision.
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	v := bi.Main.Version
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = "+dirty"
			}
		}
	}
	if (v == "" || v == "(devel)") && rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		return "(devel) " + rev + modified
	}
	if v == "" {
		v = "(devel)"
	}
	return v
}
