package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/wfc-lang/wfc"
	"github.com/wfc-lang/wfc/diag"
)

type checkFlags struct {
	format    string
	strict    bool
	color     string
	stdinName string
	fix       bool
	diff      bool
	noCache   bool
	settings  settingsFlags
}

func newCheckCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	var f checkFlags
	cmd := &cobra.Command{
		Use:   "check [flags] PATH...",
		Short: "Report every syntax and meaning problem in workflow files",
		Long: `Check reads the files, directories (recursively *.wf, sorted) and - (standard
input) given, as one program, and reports every problem.

Exit status: 0 no errors; 1 an error diagnostic (with --strict, any warning);
2 a usage error or an unreadable path (the other paths are still checked).`,
		Args: needPaths,
		ValidArgsFunction: func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return []string{"wf"}, cobra.ShellCompDirectiveFilterFileExt
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCheck(f, args, stdin, stdout, stderr)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.format, "format", "text", "output format: text, json, sarif or github")
	fl.BoolVar(&f.strict, "strict", false, "warnings also fail (exit 1)")
	fl.StringVar(&f.color, "color", "auto", "color: auto (only on a terminal), always or never")
	fl.StringVar(&f.stdinName, "stdin-filename", "<stdin>", "name used for - (standard input) in diagnostics")
	fl.BoolVar(&f.fix, "fix", false, "apply the fixes that need no human decision, in place, then report what remains")
	fl.BoolVar(&f.diff, "diff", false, "with --fix: print the changes as a unified diff instead of writing them (what remains goes to stderr)")
	fl.BoolVar(&f.noCache, "no-cache", false, "neither read nor write the result cache ($WFC_CACHE, else the user cache directory)")
	f.settings.register(fl)
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(formats, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("color", cobra.FixedCompletions([]string{"auto", "always", "never"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

func runCheck(f checkFlags, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if !slices.Contains(formats, f.format) {
		return fmt.Errorf("unknown --format %q: use %s", f.format, strings.Join(formats, ", "))
	}
	if f.diff && !f.fix {
		return fmt.Errorf("--diff goes with --fix: `wfc check --fix --diff` prints the changes --fix would make")
	}
	if f.diff && f.format != "text" {
		return fmt.Errorf("--diff prints a unified diff and reports what remains as text; it does not go with --format %s", f.format)
	}
	color, err := useColor(f.color, stdout)
	if err != nil {
		return err
	}
	over, err := f.settings.parse()
	if err != nil {
		return err
	}
	l := load(args, stdin, f.stdinName, stderr)
	applySettings(l, over, stderr)
	cc := openCheckCache(f, l, color, stderr)
	var rec *recorder
	if cc != nil {
		defer cc.close()
		if out, status, ok := cc.get(); ok {
			if _, err := stdout.Write(out); err != nil {
				return fmt.Errorf("writing output: %w", err)
			}
			return errOfStatus(status)
		}
		rec = &recorder{w: stdout, limit: recordLimit}
		stdout = rec
	}
	defer limitMemory(l)()
	var a *analysis
	var sess *wfc.Session
	if f.fix {
		sess = diagnosticsSession(l, nil, f.stdinName)
		a = analysisOf(sess.Run(context.Background(), l.sources))
	} else {
		a = analysisOf(wfc.Run(context.Background(), l.sources, checkOptions(l, openFileCache(f.noCache), f.stdinName)))
	}
	w := bufio.NewWriterSize(stdout, 64<<10)
	if f.fix {
		if a, err = fixFiles(l, sess, a, f, w, stderr, osFS); err != nil {
			return err
		}
		if f.diff {
			return finishDiff(l, a, f, w, stderr)
		}
	}
	switch f.format {
	case "json":
		err = diag.WriteJSONNotes(w, a.diags, len(l.order), l.notes)
	case "sarif":
		err = diag.WriteSARIF(w, a.diags, l.bytes, diag.SARIFOptions{Version: version(), URI: artifactURI, Notifications: l.notes})
	case "github":
		err = diag.WriteGitHubNotes(w, l.notes)
		if err == nil {
			err = diag.WriteGitHub(w, a.diags)
		}
	default:
		err = diag.WriteText(w, a.diags, l.bytes, diag.TextOptions{Color: color})
		if err == nil {
			err = writeSummary(w, a.diags, len(l.order))
		}
	}
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	exit := exitFor(l, a.diags, f.strict)
	if rec != nil && !rec.over {
		cc.put(rec.buf, statusOf(exit))
	}
	return exit
}

// finishDiff ends `check --fix --diff`: the diff is on stdout (in w); what
// the fixes leave is reported on standard error, as text (--color judged
// for stderr), so the diff stays a patch a tool can apply.
func finishDiff(l *loaded, a *analysis, f checkFlags, w *bufio.Writer, stderr io.Writer) error {
	if err := w.Flush(); err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	color, err := useColor(f.color, stderr)
	if err != nil {
		return err
	}
	if err := diag.WriteText(stderr, a.diags, l.bytes, diag.TextOptions{Color: color}); err != nil {
		return err
	}
	writeSummary(stderr, a.diags, len(l.order))
	return exitFor(l, a.diags, f.strict)
}

// formats are the values of --format.
var formats = []string{"text", "json", "sarif", "github"}

// fixRounds bounds how often --fix re-checks and fixes again: a fix can
// uncover another (deleting a duplicate member lets a lint run on the policy).
const fixRounds = 10

// fixFiles applies the machine-applicable fixes (or, with --diff, prints
// them) and returns the analysis of the program as fixed. It fixes, re-checks
// and fixes again until nothing is left to fix, all in memory, and then
// writes each changed file once.
func fixFiles(l *loaded, sess *wfc.Session, a *analysis, f checkFlags, w io.Writer, stderr io.Writer, fsys fileSystem) (*analysis, error) {
	orig := map[string]string{}
	codes := map[string][]diag.ID{}
	notes := stderr
	for round := 0; round < fixRounds; round++ {
		plans := planFixes(l, a.diags, notes)
		notes = io.Discard // say why a file is left alone once
		n := 0
		for _, p := range plans {
			if l.fromStdin && p.file == f.stdinName && !f.diff {
				if round == 0 {
					notef(stderr, "not fixing %s: standard input cannot be fixed in place (use --diff)", p.file)
				}
				continue
			}
			if _, ok := orig[p.file]; !ok {
				orig[p.file] = p.old
			}
			codes[p.file] = append(codes[p.file], p.codes...)
			l.replace(p.file, p.new)
			n++
		}
		if n == 0 {
			break
		}
		a = analysisOf(sess.Run(context.Background(), l.sources))
	}
	changed := false
	for _, name := range l.order {
		old, ok := orig[name]
		if !ok {
			continue
		}
		p := fixPlan{file: name, old: old, new: l.bytes[name], codes: codes[name]}
		slices.Sort(p.codes)
		if f.diff {
			if _, err := io.WriteString(w, guardUntrusted(unifiedDiff(p.file, p.old, p.new), os.Getenv)); err != nil {
				return nil, fmt.Errorf("writing output: %w", err)
			}
			continue
		}
		if err := l.write(fsys, p.file, p.new); err != nil {
			msg := fmt.Sprintf("could not fix %s: %v; the file is unchanged", p.file, err)
			if errors.Is(err, errChanged) || errors.Is(err, errMoved) {
				msg = fmt.Sprintf("not fixing %s: %v", p.file, err)
			}
			l.notify(stderr, p.file, msg)
			l.replace(p.file, p.old)
			changed = true
			continue
		}
		notef(stderr, "fixed %s: %s", p.file, describeFix(p))
	}
	if changed {
		a = analysisOf(sess.Run(context.Background(), l.sources))
	}
	return a, nil
}

// artifactURI makes a file name a repository-relative URI for SARIF: paths
// are made relative to the working directory (the repository root in CI)
// where they lie inside it, and escaped as URI paths.
func artifactURI(file string) string {
	p := file
	if filepath.IsAbs(p) {
		if wd, err := os.Getwd(); err == nil {
			if rel, err := filepath.Rel(wd, p); err == nil && !strings.HasPrefix(rel, "..") {
				p = rel
			}
		}
	}
	p = filepath.ToSlash(filepath.Clean(p))
	u := url.URL{Path: p}
	if filepath.IsAbs(file) && p == filepath.ToSlash(filepath.Clean(file)) {
		u.Scheme = "file"
	}
	return u.String()
}

// exitFor returns the exit status (README.md, "wfc check") as an error for cobra.
func exitFor(l *loaded, ds []diag.Diagnostic, strict bool) error {
	if l.failed {
		return exitError{exitUsage}
	}
	errs, warns := diag.Counts(ds)
	if errs > 0 || strict && warns > 0 {
		return exitError{exitFound}
	}
	return nil
}

// useColor decides on ANSI colors: auto means stdout is a terminal, NO_COLOR
// is not set and TERM is not dumb.
func useColor(mode string, stdout io.Writer) (bool, error) {
	switch mode {
	case "always":
		return true, nil
	case "never":
		return false, nil
	case "auto":
		return colorAuto(isTerminal(stdout), os.Getenv), nil
	}
	return false, fmt.Errorf("unknown --color %q: use auto, always or never", mode)
}

// writeSummary prints the summary line ("1 error, 0 warnings in 2
// files"), except when no file was read: then the notes on standard error
// say what went wrong, and "0 errors in 0 files" would only contradict them.
func writeSummary(w io.Writer, ds []diag.Diagnostic, files int) error {
	if files == 0 && len(ds) == 0 {
		return nil
	}
	_, err := fmt.Fprintln(w, diag.Summary(ds, files))
	return err
}
