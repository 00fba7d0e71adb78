package wfc_test

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	"github.com/wfc-lang/wfc"
	"github.com/wfc-lang/wfc/parser"
)

// maxLiveHeapPerByte bounds what a checked program holds (its tree, its
// model, the diagnostics) per byte of source, for the densest input there
// is: many one-line workflows, each in a file of its own. The command's
// peak RSS on 100,000 such files is held within 30 bytes per input byte
// (docs/limits.md, "Many small files") only while this stays near 20:
// measured 20.1 here (and 29.1–29.4× for the command on 100,000 files), so
// a change that makes the tree or the model fatter by a tenth fails here,
// long before a user's CI runs out of memory.
const maxLiveHeapPerByte = 21.5

func TestLiveHeapPerByte(t *testing.T) {
	if testing.Short() {
		t.Skip("checks 20,000 files")
	}
	const n = 20000
	files := make([]parser.Source, n)
	var size int
	for i := range files {
		src := fmt.Sprintf("workflow W%d { Initial = A; event Go(); state A { subscribe Go(); on Go { goto B; } } terminal B { } }\n", i)
		files[i] = parser.Source{Name: fmt.Sprintf("d/w%06d.wf", i), Src: src}
		size += len(src)
	}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r := wfc.Run(context.Background(), files, wfc.Options{})
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(r)
	if len(r.Diagnostics) != 0 {
		t.Fatalf("%d diagnostics, first %v", len(r.Diagnostics), r.Diagnostics[0])
	}
	perByte := float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / float64(size)
	t.Logf("live heap %.1f bytes per input byte (%d files, %d bytes)", perByte, n, size)
	if perByte > maxLiveHeapPerByte {
		t.Errorf("a checked program holds %.1f bytes per input byte, more than %.1f: the tree or the model grew", perByte, maxLiveHeapPerByte)
	}
}
