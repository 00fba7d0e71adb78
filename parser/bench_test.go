package parser

import (
	"testing"

	"github.com/wfc-lang/wfc/internal/corpus"
)

func sources(lines, files int) ([]Source, int64) {
	var out []Source
	var n int64
	for _, f := range corpus.Generate(lines, files) {
		out = append(out, Source{Name: f.Name, Src: f.Src})
		n += int64(len(f.Src))
	}
	return out, n
}

func BenchmarkLex(b *testing.B) {
	srcs, n := sources(100000, 1)
	b.SetBytes(n)
	b.ReportAllocs()
	for b.Loop() {
		Lex("f.wf", srcs[0].Src)
	}
}

// BenchmarkParse parses 20,000 lines as one file, as 100 files, and as 100
// files on one worker (the parallel speed-up is the difference).
func BenchmarkParse(b *testing.B) {
	for _, bc := range []struct {
		name           string
		files, workers int
	}{{"OneFile", 1, 0}, {"ManyFiles", 100, 0}, {"OneWorker", 100, 1}} {
		b.Run(bc.name, func(b *testing.B) {
			srcs, n := sources(20000, bc.files)
			b.SetBytes(n)
			b.ReportAllocs()
			for b.Loop() {
				Parse(srcs, Options{Workers: bc.workers})
			}
		})
	}
}
