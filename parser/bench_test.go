package parser

import (
	"testing"

	"github.com/wfc-lang/wfc/internal/corpus"
	"github.com/wfc-lang/wfc/lexer"
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
		lexer.Lex("f.wf", srcs[0].Src)
	}
}

func BenchmarkParseOneFile(b *testing.B) {
	srcs, n := sources(20000, 1)
	b.SetBytes(n)
	b.ReportAllocs()
	for b.Loop() {
		Parse(srcs, Options{})
	}
}

func BenchmarkParseManyFiles(b *testing.B) {
	srcs, n := sources(20000, 100)
	b.SetBytes(n)
	b.ReportAllocs()
	for b.Loop() {
		Parse(srcs, Options{})
	}
}

func BenchmarkParseOneWorker(b *testing.B) {
	srcs, n := sources(20000, 100)
	b.SetBytes(n)
	b.ReportAllocs()
	for b.Loop() {
		Parse(srcs, Options{Workers: 1})
	}
}
