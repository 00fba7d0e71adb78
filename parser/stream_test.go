package parser

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/wfc-lang/wfc/internal/corpus"
)

// TestWindowMatchesStream: parsing the pieces from a declaration's window
// (stream.go) gives exactly the tree and the diagnostics of parsing each
// from a stream of its own, on every golden case, on the generated corpus,
// and on broken variants of the cases (each `;`, `{`, `}` or `)` in turn
// removed, up to 12 per file), where pieces fail and fall back.
func TestWindowMatchesStream(t *testing.T) {
	var srcs []Source
	files, _ := filepath.Glob("../testdata/*/*.wf")
	more, _ := filepath.Glob("../testdata/*/*/*.wf")
	for _, f := range append(files, more...) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, Source{Name: f, Src: string(b)})
	}
	if len(srcs) < 90 {
		t.Fatalf("found %d cases", len(srcs))
	}
	for _, s := range srcs[:len(srcs):len(srcs)] {
		n := 0
		for i := 0; i < len(s.Src) && n < 12; i++ {
			if strings.IndexByte(";{})", s.Src[i]) >= 0 {
				srcs = append(srcs, Source{Name: s.Name + "~" + s.Src[i:i+1], Src: s.Src[:i] + s.Src[i+1:]})
				n++
			}
		}
	}
	for _, f := range corpus.Generate(2000, 1) {
		srcs = append(srcs, Source{Name: f.Name, Src: f.Src})
	}
	defer func() { streamOnly = false }()
	for _, s := range srcs {
		streamOnly = false
		win, winDiags := Parse([]Source{s}, Options{Workers: 1})
		streamOnly = true
		own, ownDiags := Parse([]Source{s}, Options{Workers: 1})
		if !reflect.DeepEqual(win, own) {
			t.Errorf("%s: the window's tree differs from the pieces' own", s.Name)
		}
		if !reflect.DeepEqual(winDiags, ownDiags) {
			t.Errorf("%s: diagnostics differ:\nwindow %v\nown    %v", s.Name, winDiags, ownDiags)
		}
	}
}
