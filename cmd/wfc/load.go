package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/wfc-lang/wfc"
	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/codegen"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/internal/safefile"
	"github.com/wfc-lang/wfc/lexer"
	"github.com/wfc-lang/wfc/parser"
)

// loaded is a program read from the command line's paths.
type loaded struct {
	sources []parser.Source
	bytes   diag.Sources
	order   []string            // file names in path order
	failed  bool                // some path could not be read (exit 2)
	notes   []diag.Notification // why, per path, for JSON and SARIF
	// settings are each file's project settings (wfc.json and flags).
	settings func(file string) diag.Settings
	// fromStdin: one of the files is standard input.
	fromStdin bool
	// origins say, per source (same index), which file was read and where
	// it may be written (origin.go); a source not read from a file
	// (standard input) has the zero origin. A list, not a map by name: a
	// map entry per file was a tenth of what 100,000 small files held.
	origins []origin
	// index finds a source by name, made when first asked (originOf).
	index map[string]int
}

// replace swaps a file's text (after --fix) so the program can be re-checked.
func (l *loaded) replace(name, src string) {
	for i := range l.sources {
		if l.sources[i].Name == name {
			l.sources[i].Src = src
		}
	}
	l.bytes[name] = src
}

// notify records a problem of the run with path (exit 2): said on stderr
// now, and kept for the JSON and SARIF outputs.
func (l *loaded) notify(stderr io.Writer, path, msg string) {
	notef(stderr, "%s", msg)
	l.failed = true
	l.notes = append(l.notes, diag.Notification{Path: filepath.ToSlash(path), Message: msg})
}

// load reads PATH... arguments: files, directories (recursively *.wf,
// sorted) and `-` for stdin. An unreadable path is named on stderr and the
// others are still read. Paths are cleaned, and a file reached twice (under
// two spellings, or through a directory and by name) is read once, under the
// first name. A named path that is not a regular file is refused; such a file
// found in a directory is skipped.
//
// A directory's *_test.wf files (tests, docs/language.md "Tests") are
// skipped, so tests never change what a program means; a test file named on
// the command line is always read. `wfc test` and `wfc fmt` read them all
// (loadFiles).
func load(args []string, stdin io.Reader, stdinName string, stderr io.Writer) *loaded {
	return loadFiles(args, stdin, stdinName, stderr, false)
}

// loadFiles is load, reading the test files of directories with withTests.
func loadFiles(args []string, stdin io.Reader, stdinName string, stderr io.Writer, withTests bool) *loaded {
	r := &reader{l: &loaded{bytes: diag.Sources{}}, stderr: stderr, seen: map[string]bool{}, ids: map[fileKey]bool{}, tests: withTests}
	usedStdin := false
	for _, arg := range args {
		if arg == "-" {
			if usedStdin {
				r.fail(stdinName, "`-` (standard input) given twice")
				continue
			}
			usedStdin, r.l.fromStdin = true, true
			if b, err := readStdin(stdin); err != nil {
				r.fail(stdinName, "cannot read standard input: %v", err)
			} else {
				r.add(stdinName, b)
			}
			continue
		}
		arg = filepath.Clean(arg)
		info, err := os.Stat(arg)
		if err != nil {
			if dir, ok := goPattern(arg); ok && errors.Is(err, fs.ErrNotExist) {
				// `wfc check ./...` as in go: directories are walked already.
				r.fail(arg, "cannot read %s: %v; wfc walks directories recursively, so give the directory: %s", arg, unwrapPathError(err), dir)
				continue
			}
			r.fail(arg, "cannot read %s: %v", arg, unwrapPathError(err))
			continue
		}
		if !info.IsDir() {
			r.addNamed(arg)
			continue
		}
		r.walk(arg)
	}
	return r.l
}

// walk reads the *.wf files under dir, a tree that may come from anyone (a
// pull request): it is walked where it resolves to, and a symbolic link in
// it is read only when it resolves inside that directory (docs/limits.md).
func (r *reader) walk(dir string) {
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		r.fail(dir, "cannot read %s: %v", dir, unwrapPathError(err))
		return
	}
	files := walkDir(dir, root, r.fail, func(name, why string) {
		notef(r.stderr, "skipping %s: %s", filepath.ToSlash(name), why)
	})
	if len(files) == 0 {
		r.fail(dir, "no .wf files under %s", dir)
	}
	for _, f := range files {
		if !r.tests && strings.HasSuffix(f.name, testSuffix) {
			continue
		}
		r.addFile(f.name, f.real, root, f.link)
	}
}

// reader is load's state: what it has read, by name and by identity.
type reader struct {
	l      *loaded
	stderr io.Writer
	seen   map[string]bool
	ids    map[fileKey]bool
	tests  bool // read the *_test.wf files of directories
}

// testSuffix ends the name of a file of tests.
const testSuffix = "_test.wf"

func (r *reader) fail(path, format string, a ...any) {
	r.l.notify(r.stderr, path, fmt.Sprintf(format, a...))
}

// add adds a source under name, once, and reports whether it did.
func (r *reader) add(name string, b []byte) bool {
	if r.seen[name] {
		return false
	}
	r.seen[name] = true
	l := r.l
	l.sources = append(l.sources, parser.Source{Name: name, Src: string(b)})
	l.origins = append(l.origins, origin{})
	l.bytes[name] = l.sources[len(l.sources)-1].Src
	l.order = append(l.order, name)
	return true
}

// addNamed reads a file named on the command line. A symbolic link is
// followed wherever it leads (the user named it); the file it resolves to is
// the one read, and the one --fix and fmt -w replace.
func (r *reader) addNamed(name string) {
	real, err := filepath.EvalSymlinks(name)
	if err != nil {
		r.fail(name, "cannot read %s: %v", name, unwrapPathError(err))
		return
	}
	r.addFile(name, real, "", false)
}

// addFile reads real, under name, unless the same file (device and inode)
// was read already. within is the walked directory real was found in ("" for
// a named file). A special file found by walking is skipped (and said so
// when a link led to it); a named one refused.
func (r *reader) addFile(name, real, within string, link bool) {
	b, info, err := readFile(real)
	if within != "" && errors.As(err, new(safefile.NotRegularError)) {
		if link {
			notef(r.stderr, "skipping %s: %v", filepath.ToSlash(name), err)
		}
		return
	}
	if err != nil {
		r.fail(name, "cannot read %s: %v", name, err)
		return
	}
	if k, ok := keyOf(info); ok {
		if r.ids[k] {
			return
		}
		r.ids[k] = true
	}
	slashed := filepath.ToSlash(name)
	if r.seen[slashed] {
		return
	}
	if !r.add(slashed, b) {
		return
	}
	if real == slashed {
		real = slashed // one string for both (a walked file's usual case)
	}
	r.l.origins[len(r.l.origins)-1] = newOrigin(real, within, info, b)
}

// walked is a file found by walking: the name it is reported under (below
// the directory as given) and the file read (below where it resolves).
type walked struct {
	name, real string
	link       bool // name is a symbolic link (to real)
}

// walkDir lists the *.wf files under dir, sorted; root is where dir
// resolves to, and the directory actually walked. A symbolic link is listed
// only when it resolves inside root; skip is told of every other.
func walkDir(dir, root string, fail func(path, format string, a ...any), skip func(name, why string)) []walked {
	var files []walked
	werr := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		name := filepath.Join(dir, mustRel(root, p))
		if err != nil {
			fail(name, "cannot read %s: %v", name, unwrapPathError(err))
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() || !strings.HasSuffix(p, ".wf") {
			return nil
		}
		real, link := p, d.Type()&fs.ModeSymlink != 0
		if link {
			var why string
			if real, why = resolveWithin(p, root, dir); why != "" {
				skip(name, why)
				return nil
			}
		}
		files = append(files, walked{name, real, link})
		return nil
	})
	if werr != nil {
		fail(dir, "cannot read %s: %v", dir, werr)
	}
	sort.Slice(files, func(i, j int) bool { return files[i].name < files[j].name })
	return files
}

// resolveWithin resolves the symbolic link p; why says why it is not read
// when it does not resolve inside root (dir as the user gave it).
func resolveWithin(p, root, dir string) (real, why string) {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", "a symbolic link that cannot be resolved"
	}
	if !inside(real, root) {
		return "", "a symbolic link that leads outside " + filepath.ToSlash(dir)
	}
	return real, ""
}

// inside reports whether path lies in the directory root (both resolved).
func inside(path, root string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// mustRel is p relative to root, which p lies under (WalkDir's paths).
func mustRel(root, p string) string {
	rel, err := filepath.Rel(root, p)
	if err != nil {
		return p
	}
	return rel
}

func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// errTooLarge refuses a file beyond what positions can address.
var errTooLarge = fmt.Errorf("larger than %d bytes, the most wfc reads", lexer.MaxFileSize)

// readFile reads a regular file of at most lexer.MaxFileSize bytes, through
// safefile (as the language server does): it opens without blocking and
// checks the type and size before reading a byte. A special file is
// refused with safefile.NotRegularError.
func readFile(name string) ([]byte, fs.FileInfo, error) {
	b, info, err := safefile.ReadFile(name, lexer.MaxFileSize)
	if errors.As(err, new(safefile.TooLargeError)) {
		err = errTooLarge
	}
	return b, info, err
}

// readStdin reads standard input; when it is a regular file (`< big.wf`),
// its size is checked before a byte is read, as for a named file.
func readStdin(r io.Reader) ([]byte, error) {
	if f, ok := r.(*os.File); ok {
		if info, err := f.Stat(); err == nil && info.Mode().IsRegular() && info.Size() > lexer.MaxFileSize {
			return nil, errTooLarge
		}
	}
	return readAll(r)
}

// readAll reads at most lexer.MaxFileSize bytes; a larger input is refused
// as soon as the limit is passed.
func readAll(r io.Reader) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, lexer.MaxFileSize+1))
	if err != nil {
		return nil, unwrapPathError(err)
	}
	if len(b) > lexer.MaxFileSize {
		return nil, errTooLarge
	}
	return b, nil
}

// analysis is a parsed and checked program.
type analysis struct {
	prog      *ast.Program
	result    *check.Result
	diags     []diag.Diagnostic   // sorted, de-duplicated
	schedules []*codegen.Schedule // lowered with the options analyze was given
}

// analyze parses, checks and lints the loaded files as one program, through
// the driver (wfc.Run). The schedules are lowered once, there, with the
// default options.
func analyze(l *loaded) *analysis { return analyzeLowered(l, codegen.Options{}) }

// analyzeSummary is analyze for the commands that need the tables' totals
// and lints but not their rows (check, graph): Linear tables are cut at
// codegen.SummaryRows, which keeps their cost per consumer constant.
func analyzeSummary(l *loaded) *analysis {
	return analyzeLowered(l, codegen.Options{MaxRows: codegen.SummaryRows})
}

// analyzeLowered is analyze with the lowering options of `wfc schedule`
// (attempt duration, draws, seed).
func analyzeLowered(l *loaded, lower codegen.Options) *analysis {
	return analyzeWith(l, wfc.Options{Lower: lower})
}

// analyzeWith is analyze with pipeline options (the lowering's, a backend);
// the settings are always the loaded files'.
func analyzeWith(l *loaded, opt wfc.Options) *analysis {
	opt.Settings, opt.Sources = l.settings, l.bytes
	return analysisOf(wfc.Run(context.Background(), l.sources, opt))
}

func analysisOf(r *wfc.Result) *analysis {
	return &analysis{prog: r.Program, result: r.Checked, diags: r.Diagnostics, schedules: r.Schedules}
}

// checkOptions are `wfc check`'s driver options: it reads only the
// diagnostics (the tables cut at codegen.SummaryRows, as analyzeSummary's),
// so a file whose result the cache (c, if not nil) or the session holds is
// neither parsed nor checked again; standard input is never kept.
func checkOptions(l *loaded, c *wfc.Cache, stdinName string) wfc.Options {
	opt := wfc.Options{Settings: l.settings, Sources: l.bytes, Lower: codegen.Options{MaxRows: codegen.SummaryRows}, DiagnosticsOnly: true, Cache: c}
	if c != nil && l.fromStdin {
		opt.CacheFile = func(file string) bool { return file != stdinName }
	}
	return opt
}

// diagnosticsSession is a session with checkOptions, for the runs of
// --fix: each checks again only the files fixed and what reads them.
func diagnosticsSession(l *loaded, c *wfc.Cache, stdinName string) *wfc.Session {
	return wfc.NewSession(checkOptions(l, c, stdinName))
}

// goPattern reports whether path is a Go package pattern (`./...`,
// `dir/...`) and the directory it means.
func goPattern(path string) (string, bool) {
	if path == "..." {
		return ".", true
	}
	if dir, ok := strings.CutSuffix(path, string(filepath.Separator)+"..."); ok {
		return dir, true
	}
	return "", false
}
