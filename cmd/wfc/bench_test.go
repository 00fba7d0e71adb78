package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wfc-lang/wfc"
	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/codegen"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/internal/corpus"
	"github.com/wfc-lang/wfc/parser"
)

func corpusLoaded(lines, files int) (*loaded, int64) {
	l := &loaded{bytes: diag.Sources{}}
	var n int64
	for _, f := range corpus.Generate(lines, files) {
		l.sources = append(l.sources, parser.Source{Name: f.Name, Src: f.Src})
		l.bytes[f.Name] = f.Src
		l.order = append(l.order, f.Name)
		n += int64(len(f.Src))
	}
	return l, n
}

// BenchmarkCheck is `wfc check` without I/O: parse, check, lint, sort, on
// 100,000 lines in 100 files (the figure the front-end issue names).
func BenchmarkCheck(b *testing.B) {
	l, n := corpusLoaded(100000, 100)
	b.SetBytes(n)
	b.ReportAllocs()
	for b.Loop() {
		if a := analyze(l); len(a.diags) != 0 {
			b.Fatal(codesOf(a.diags))
		}
	}
}

// BenchmarkCheckOneFile: the same corpus as one file.
func BenchmarkCheckOneFile(b *testing.B) {
	l, n := corpusLoaded(100000, 1)
	b.SetBytes(n)
	b.ReportAllocs()
	for b.Loop() {
		analyze(l)
	}
}

// BenchmarkParseOnly and BenchmarkCheckOnly split BenchmarkCheck in two, so
// the checker's share of the time is visible (it must stay well under half
// of parsing).
func BenchmarkParseOnly(b *testing.B) {
	l, n := corpusLoaded(100000, 100)
	b.SetBytes(n)
	for b.Loop() {
		parser.Parse(l.sources, parser.Options{})
	}
}

func BenchmarkCheckOnly(b *testing.B) {
	l, n := corpusLoaded(100000, 100)
	prog, _ := parser.Parse(l.sources, parser.Options{})
	b.SetBytes(n)
	b.ReportAllocs()
	for b.Loop() {
		res := check.Check(prog)
		codegen.Lints(res)
	}
}

// BenchmarkLowerCorpus is the lowering and the policy lints alone
// (wfc.Lower) on the checked corpus of BenchmarkCheck: the share of a
// check that the schedule arithmetic costs.
func BenchmarkLowerCorpus(b *testing.B) {
	l, n := corpusLoaded(100000, 100)
	prog, _ := parser.Parse(l.sources, parser.Options{})
	res := check.Check(prog)
	b.SetBytes(n)
	b.ReportAllocs()
	for b.Loop() {
		wfc.Lower(res, codegen.Options{})
	}
}

// BenchmarkCheckCached is the whole command, files read and output
// written, on the corpus of BenchmarkCheck written to a directory: with
// --no-cache (cold) and from a warm result cache.
func BenchmarkCheckCached(b *testing.B) {
	dir := b.TempDir()
	var n int64
	for _, f := range corpus.Generate(100000, 100) {
		if err := os.WriteFile(filepath.Join(dir, f.Name), []byte(f.Src), 0o644); err != nil {
			b.Fatal(err)
		}
		n += int64(len(f.Src))
	}
	b.Setenv("WFC_CACHE", filepath.Join(b.TempDir(), "cache"))
	for _, tc := range []struct {
		name string
		args []string
		edit string // a file edited before each run, to a text never seen
	}{{"cold", []string{"check", "--no-cache", dir}, ""}, {"warm", []string{"check", dir}, ""}, {"one-file-changed", []string{"check", dir}, "gen0050.wf"}} {
		b.Run(tc.name, func(b *testing.B) {
			if code := run(tc.args, nil, io.Discard, io.Discard); code != exitOK {
				b.Fatalf("exit %d", code)
			}
			var orig []byte
			if tc.edit != "" {
				orig, _ = os.ReadFile(filepath.Join(dir, tc.edit))
			}
			b.SetBytes(n)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if tc.edit != "" {
					i++
					b.StopTimer()
					src := bytes.Replace(orig, []byte("Autostart = true;"), []byte("Autostart = true;"+strings.Repeat(" ", i)), 1)
					if err := os.WriteFile(filepath.Join(dir, tc.edit), src, 0o644); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
				}
				run(tc.args, nil, io.Discard, io.Discard)
			}
		})
	}
}
