package wfc_test

import (
	"context"
	"strings"
	"testing"

	"github.com/wfc-lang/wfc"
	"github.com/wfc-lang/wfc/internal/corpus"
)

// corpusSources is the generated corpus of the command's benchmarks: 100
// files, 100,000 lines, 2.8 MB.
func corpusSources() ([]wfc.Source, int64) {
	var srcs []wfc.Source
	var n int64
	for _, f := range corpus.Generate(100000, 100) {
		srcs = append(srcs, wfc.Source{Name: f.Name, Src: f.Src})
		n += int64(len(f.Src))
	}
	return srcs, n
}

// BenchmarkCheckCold is `wfc check`'s work on the corpus with nothing
// cached: parse, check and lint every file.
func BenchmarkCheckCold(b *testing.B) {
	srcs, n := corpusSources()
	b.SetBytes(n)
	b.ReportAllocs()
	for b.Loop() {
		wfc.NewSession(wfc.Options{DiagnosticsOnly: true}).Run(context.Background(), srcs)
	}
}

// BenchmarkCheckOneFileChanged is a new process's run (a fresh session
// over the cache) after one file of the 100 changed: what `wfc check`
// costs after an edit, beyond reading the files.
func BenchmarkCheckOneFileChanged(b *testing.B) {
	srcs, n := corpusSources()
	c, err := wfc.OpenCache(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	opt := wfc.Options{DiagnosticsOnly: true, Cache: c}
	wfc.NewSession(opt).Run(context.Background(), srcs)
	orig := srcs[50].Src
	b.SetBytes(n)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		srcs[50].Src = strings.Replace(orig, "Autostart = true;", "Autostart = true;"+strings.Repeat(" ", i%50), 1)
		r := wfc.NewSession(opt).Run(context.Background(), srcs)
		if len(r.Rechecked) != 1 {
			b.Fatalf("checked again %v", r.Rechecked)
		}
	}
}

// BenchmarkCheckSharedEdited is a new process's run after an edit of the
// declarations ten of the corpus's files read (corpus.GenerateShared):
// those ten and shared.wf are checked again, the other 90 are not.
func BenchmarkCheckSharedEdited(b *testing.B) {
	var srcs []wfc.Source
	var n int64
	for _, f := range corpus.GenerateShared(100000, 100, 10) {
		srcs = append(srcs, wfc.Source{Name: f.Name, Src: f.Src})
		n += int64(len(f.Src))
	}
	c, err := wfc.OpenCache(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	opt := wfc.Options{DiagnosticsOnly: true, Cache: c}
	wfc.NewSession(opt).Run(context.Background(), srcs)
	k := len(srcs) - 1
	orig := srcs[k].Src
	b.SetBytes(n)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		srcs[k].Src = strings.Replace(orig, "Working,", "Working,"+strings.Repeat(" ", i%50), 1)
		r := wfc.NewSession(opt).Run(context.Background(), srcs)
		if len(r.Rechecked) != 11 {
			b.Fatalf("checked again %d files: %v", len(r.Rechecked), r.Rechecked)
		}
	}
}
