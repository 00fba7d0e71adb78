package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/check/pipeline"
	"github.com/wfc-lang/wfc/diag"
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
func load(args []string, stdin io.Reader, stdinName string, stderr io.Writer) *loaded {
	l := &loaded{bytes: diag.Sources{}}
	seen := map[string]bool{}
	ids := map[fileKey]bool{}
	add := func(name string, b []byte) {
		if seen[name] {
			return
		}
		seen[name] = true
		l.sources = append(l.sources, parser.Source{Name: name, Src: string(b)})
		l.bytes[name] = l.sources[len(l.sources)-1].Src
		l.order = append(l.order, name)
	}
	fail := func(path, format string, a ...any) {
		l.notify(stderr, path, fmt.Sprintf(format, a...))
	}
	addFile := func(name string, walked bool) {
		b, info, err := readFile(name)
		if walked && errors.As(err, new(notRegularError)) {
			return
		}
		if err != nil {
			fail(name, "cannot read %s: %v", name, err)
			return
		}
		if k, ok := keyOf(info); ok {
			if ids[k] {
				return
			}
			ids[k] = true
		}
		add(filepath.ToSlash(name), b)
	}
	usedStdin := false
	for _, arg := range args {
		if arg == "-" {
			if usedStdin {
				fail(stdinName, "`-` (standard input) given twice")
				continue
			}
			usedStdin = true
			l.fromStdin = true
			b, err := readAll(stdin)
			if err != nil {
				fail(stdinName, "cannot read standard input: %v", err)
				continue
			}
			add(stdinName, b)
			continue
		}
		arg = filepath.Clean(arg)
		info, err := os.Stat(arg)
		if err != nil {
			fail(arg, "cannot read %s: %v", arg, unwrapPathError(err))
			continue
		}
		if !info.IsDir() {
			addFile(arg, false)
			continue
		}
		files := walkDir(arg, fail)
		if len(files) == 0 {
			fail(arg, "no .wf files under %s", arg)
		}
		for _, f := range files {
			addFile(f, true)
		}
	}
	return l
}

// walkDir lists the *.wf files under dir, sorted.
func walkDir(dir string, fail func(path, format string, a ...any)) []string {
	var files []string
	werr := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			fail(p, "cannot read %s: %v", p, unwrapPathError(err))
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if !d.IsDir() && strings.HasSuffix(p, ".wf") {
			files = append(files, p)
		}
		return nil
	})
	if werr != nil {
		fail(dir, "cannot read %s: %v", dir, werr)
	}
	sort.Strings(files)
	return files
}

func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// notRegularError refuses a FIFO, a device, a socket or a directory where a
// file is read: reading one may block for ever or never end.
type notRegularError struct{ mode fs.FileMode }

func (e notRegularError) Error() string {
	kind := "a special file"
	switch {
	case e.mode&fs.ModeNamedPipe != 0:
		kind = "a named pipe"
	case e.mode&fs.ModeSocket != 0:
		kind = "a socket"
	case e.mode&fs.ModeDevice != 0:
		kind = "a device"
	case e.mode.IsDir():
		kind = "a directory"
	}
	return "not a regular file (" + kind + ")"
}

// errTooLarge refuses a file beyond what positions can address.
var errTooLarge = fmt.Errorf("larger than %d bytes, the most wfc reads", lexer.MaxFileSize)

// readFile reads a regular file of at most lexer.MaxFileSize bytes. It opens
// without blocking and checks the type and size before reading a byte.
func readFile(name string) ([]byte, fs.FileInfo, error) {
	f, err := openNoBlock(name)
	if err != nil {
		return nil, nil, unwrapPathError(err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, nil, unwrapPathError(err)
	}
	if !info.Mode().IsRegular() {
		return nil, nil, notRegularError{info.Mode()}
	}
	if info.Size() > lexer.MaxFileSize {
		return nil, nil, errTooLarge
	}
	b, err := readAll(f)
	return b, info, err
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
	prog   *ast.Program
	result *check.Result
	diags  []diag.Diagnostic // sorted, de-duplicated
}

// memoryPerByte bounds the heap: the syntax tree of a program takes about 18
// bytes per byte of source, and without a limit the garbage collector lets
// the heap grow to twice that before collecting.
const memoryPerByte = 20

// limitMemory sets a soft memory limit proportional to the input, unless the
// user set GOMEMLIMIT, so peak memory stays a small multiple of the input.
// Under that limit the collector may run less often than Go's default
// (GOGC=200 unless the user set GOGC): parsing makes a lot of short-lived
// garbage, and collecting it half as often saves about a tenth of the time.
func limitMemory(l *loaded) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(200)
	}
	var n int64
	for _, s := range l.sources {
		n += int64(len(s.Src))
	}
	debug.SetMemoryLimit(64<<20 + memoryPerByte*n)
}

// analyze parses, checks and lints the loaded files as one program, through
// the library pipeline (the same call the language server makes).
func analyze(l *loaded) *analysis {
	r := pipeline.Run(context.Background(), l.sources, pipeline.Options{Settings: l.settings})
	return &analysis{prog: r.Program, result: r.Checked, diags: r.Diagnostics}
}
