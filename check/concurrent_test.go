package check_test

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/parser"
)

// TestConcurrentCheck checks many parsed programs from several goroutines
// at once, before any check ran alone, and compares with checks run alone.
// Under -race (CI) it catches shared state written by a check, such as a
// package-level table sorted in place. (the root package, wfc, tests the whole
// pipeline the same way; parsing adds synchronisation that can hide a race,
// so this one checks without it.)
func TestConcurrentCheck(t *testing.T) {
	paths, _ := filepath.Glob("../testdata/cases/*.wf")
	if len(paths) < 50 {
		t.Fatalf("only %d cases", len(paths))
	}
	var progs []*ast.Program
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		prog, _ := parser.Parse([]parser.Source{{Name: filepath.Base(p), Src: string(b)}}, parser.Options{Workers: 1})
		progs = append(progs, prog)
	}
	const goroutines = 8
	got := make([][]*check.Result, goroutines)
	var start, wg sync.WaitGroup
	start.Add(1)
	for g := range goroutines {
		got[g] = make([]*check.Result, len(progs))
		wg.Go(func() {
			start.Wait()
			for k := range progs {
				i := (k + g*len(progs)/goroutines) % len(progs)
				got[g][i] = check.Check(progs[i])
			}
		})
	}
	start.Done()
	wg.Wait()
	for i, prog := range progs {
		want := check.Check(prog).Diags
		for g := range goroutines {
			if diff := cmp.Diff(want, got[g][i].Diags); diff != "" {
				t.Fatalf("%s: concurrent check differs (-alone +concurrent):\n%s", paths[i], diff)
			}
		}
	}
}
