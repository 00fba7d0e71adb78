package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/codegen"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/lexer"
	"github.com/wfc-lang/wfc/parser"
)

// loaded is a program read from the command line's paths.
type loaded struct {
	sources []parser.Source
	bytes   diag.Sources
	order   []string // file names in path order
	failed  bool     // some path could not be read (exit 2)
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

// load reads PATH... arguments: files, directories (recursively *.wf,
// sorted) and `-` for stdin. An unreadable path is named on stderr and the
// others are still read.
func load(args []string, stdin io.Reader, stdinName string, stderr io.Writer) *loaded {
	l := &loaded{bytes: diag.Sources{}}
	seen := map[string]bool{}
	add := func(name string, b []byte) {
		if seen[name] {
			return
		}
		seen[name] = true
		l.sources = append(l.sources, parser.Source{Name: name, Src: string(b)})
		l.bytes[name] = l.sources[len(l.sources)-1].Src
		l.order = append(l.order, name)
	}
	fail := func(format string, a ...any) {
		notef(stderr, format, a...)
		l.failed = true
	}
	usedStdin := false
	for _, arg := range args {
		if arg == "-" {
			if usedStdin {
				fail("`-` (standard input) given twice")
				continue
			}
			usedStdin = true
			l.fromStdin = true
			b, err := readAll(stdin)
			if err != nil {
				fail("cannot read standard input: %v", err)
				continue
			}
			add(stdinName, b)
			continue
		}
		info, err := os.Stat(arg)
		if err != nil {
			fail("cannot read %s: %v", arg, unwrapPathError(err))
			continue
		}
		if !info.IsDir() {
			b, err := readFile(arg)
			if err != nil {
				fail("cannot read %s: %v", arg, err)
				continue
			}
			add(filepath.ToSlash(arg), b)
			continue
		}
		var files []string
		werr := filepath.WalkDir(arg, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				fail("cannot read %s: %v", p, unwrapPathError(err))
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
			fail("cannot read %s: %v", arg, werr)
		}
		sort.Strings(files)
		if len(files) == 0 {
			fail("no .wf files under %s", arg)
		}
		for _, f := range files {
			b, err := readFile(f)
			if err != nil {
				fail("cannot read %s: %v", f, err)
				continue
			}
			add(filepath.ToSlash(f), b)
		}
	}
	return l
}

func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func readFile(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, unwrapPathError(err)
	}
	defer f.Close()
	return readAll(f)
}

// readAll reads at most lexer.MaxFileSize bytes; a larger input is refused.
func readAll(r io.Reader) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, lexer.MaxFileSize+1))
	if err != nil {
		return nil, unwrapPathError(err)
	}
	if len(b) > lexer.MaxFileSize {
		return nil, fmt.Errorf("larger than %d bytes, the most wfc reads", lexer.MaxFileSize)
	}
	return b, nil
}

// analysis is a parsed and checked program.
type analysis struct {
	prog   *ast.Program
	result *check.Result
	diags  []diag.Diagnostic // sorted, de-duplicated
}

// analyze parses and checks the loaded files as one program.
func analyze(l *loaded) *analysis {
	prog, ds := parser.Parse(l.sources, parser.Options{})
	res := check.Check(prog)
	ds = append(ds, res.Diags...)
	ds = append(ds, codegen.Lints(res)...)
	var ignores []diag.Ignore
	for _, f := range prog.Files {
		ignores = append(ignores, f.Ignores...)
	}
	ds = diag.Suppress(ds, ignores, func(code string) bool {
		c, ok := diag.Lookup(code)
		return !ok || c.Severity == diag.Error
	})
	return &analysis{prog: prog, result: res, diags: diag.Sort(ds, l.order)}
}
