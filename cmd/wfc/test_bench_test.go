package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// exampleDirs are the folders of testdata/examples, each a program with
// its tests.
func exampleDirs(b *testing.B) []string {
	dirs, _ := filepath.Glob("../../testdata/examples/*")
	if len(dirs) == 0 {
		b.Fatal("no examples")
	}
	return dirs
}

// benchCommand runs `wfc ARGS… DIR` on every example, as the command line
// does (reading the files included), and reports bytes of source per second.
func benchCommand(b *testing.B, args ...string) {
	dirs := exampleDirs(b)
	var n int64
	for _, d := range dirs {
		fs, _ := filepath.Glob(filepath.Join(d, "*.wf"))
		for _, f := range fs {
			if st, err := os.Stat(f); err == nil {
				n += st.Size()
			}
		}
	}
	b.SetBytes(n)
	b.ReportAllocs()
	for b.Loop() {
		for _, d := range dirs {
			if code := run(append(append([]string{}, args...), d), strings.NewReader(""), io.Discard, io.Discard); code != 0 {
				b.Fatalf("wfc %v %s: exit %d", args, d, code)
			}
		}
	}
}

// BenchmarkCheckExamples and BenchmarkTestExamples compare `wfc check` with
// `wfc test` on the examples: the difference is what running the tests
// (and checking them) costs, which the issue bounds at 50 ms.
func BenchmarkCheckExamples(b *testing.B)     { benchCommand(b, "check") }
func BenchmarkTestExamples(b *testing.B)      { benchCommand(b, "test") }
func BenchmarkTestExamplesCover(b *testing.B) { benchCommand(b, "test", "-cover") }
