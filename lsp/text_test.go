package lsp

import (
	"fmt"
	"math/rand"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/wfc-lang/wfc/internal/scaling"
	"github.com/wfc-lang/wfc/lsp/protocol"
)

// naivePosition counts from the start of the line, as the server did
// before marks: the reference the marks must agree with.
func naivePosition(t *text, off int, enc encoding) protocol.Position {
	off = max(0, min(off, len(t.src)))
	line := 0
	for line+1 < len(t.lines) && t.lines[line+1] <= off {
		line++
	}
	n := 0
	for i, end := t.lines[line], min(off, t.lineEnd(line)); i < end; {
		r, size := utf8.DecodeRuneInString(t.src[i:end])
		n += units(r, size, enc)
		i += size
	}
	return protocol.Position{Line: uint32(line), Character: uint32(n)}
}

// naiveOffset is the server's offset before marks.
func naiveOffset(t *text, p protocol.Position, enc encoding) (int, error) {
	line := int(p.Line)
	if line >= len(t.lines) {
		return len(t.src), nil
	}
	return count(t.src, t.lines[line], t.lineEnd(line), 0, p, enc)
}

// randomText mixes ASCII, two-, three- and four-byte characters, invalid
// bytes and every kind of line break, with some lines far longer than
// markStride.
func randomText(r *rand.Rand, n int) string {
	return randomFrom(r, n, []string{"a", "b", " ", "é", "€", "😀", "\xff", "\n", "\r\n", "\r"})
}

func randomFrom(r *rand.Rand, n int, pieces []string) string {
	var b strings.Builder
	for b.Len() < n {
		p := pieces[r.Intn(len(pieces))]
		if strings.ContainsAny(p, "\r\n") && r.Intn(8) != 0 {
			p = "x" // long lines
		}
		b.WriteString(p)
	}
	return b.String()
}

// Positions through marks agree with counting from the line's start, both
// ways, at every offset.
func TestPositionsAgreeWithCounting(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for round := 0; round < 20; round++ {
		tx := newText(randomText(r, 3000))
		for _, enc := range []encoding{utf16Units, utf8Bytes, utf32Points} {
			for off := 0; off <= len(tx.src); off++ {
				got, want := tx.position(off, enc), naivePosition(tx, off, enc)
				if got != want {
					t.Fatalf("round %d enc %d offset %d: %v, want %v", round, enc, off, got, want)
				}
				p := protocol.Position{Line: want.Line, Character: want.Character + uint32(off%3)}
				back, err := tx.offset(p, enc)
				wback, werr := naiveOffset(tx, p, enc)
				if back != wback || (err == nil) != (werr == nil) {
					t.Fatalf("round %d enc %d: offset(%v) = %d, %v; want %d, %v", round, enc, p, back, err, wback, werr)
				}
			}
		}
	}
}

// Splicing ranges into one buffer gives the text and line index that
// rebuilding the whole text after each range gives.
func TestEditAgreesWithRebuilding(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for round := 0; round < 200; round++ {
		ascii := []string{"a", "b", "\n", "\r\n", "\r"} // offsets are characters
		want := newText(randomFrom(r, 400, ascii))
		e := newEdit(want)
		for k := 0; k < 10; k++ {
			a, b := r.Intn(len(want.src)+1), r.Intn(len(want.src)+1)
			a, b = min(a, b), max(a, b)
			a, b = notInCRLF(want.src, a), notInCRLF(want.src, b) // no position names the middle of a \r\n
			ins := randomFrom(r, r.Intn(6), ascii)
			if r.Intn(4) == 0 {
				ins = []string{"\r", "\n", "\r\n", ""}[r.Intn(4)]
			}
			rg := protocol.Range{Start: naivePosition(want, a, utf8Bytes), End: naivePosition(want, b, utf8Bytes)}
			if err := e.apply(rg, ins, utf8Bytes); err != nil {
				t.Fatal(err)
			}
			want = newText(want.src[:a] + ins + want.src[b:])
			got := e.text()
			if got.src != want.src || fmt.Sprint(got.lines) != fmt.Sprint(want.lines) {
				t.Fatalf("round %d edit %d: %q %v, want %q %v", round, k, got.src, got.lines, want.src, want.lines)
			}
		}
	}
}

func notInCRLF(s string, i int) int {
	if i > 0 && i < len(s) && s[i-1] == '\r' && s[i] == '\n' {
		return i - 1
	}
	return i
}

// Many diagnostics on one long line cost linear time: a conversion counts
// from the nearest mark, not from the line's start (65 s of CPU per
// keystroke for a 1 MB line before). Counted, not timed: the bytes the
// conversions walk, and the allocations.
func TestPositionsOnOneLineLinear(t *testing.T) {
	scaling.Linear(t, "positions on one line", func(n int) {
		tx := newText(strings.Repeat("é€x", n))
		for off := 0; off < len(tx.src); off += 48 {
			p := tx.position(off, utf16Units)
			if _, err := tx.offset(p, utf16Units); err != nil {
				t.Fatal(err)
			}
		}
	}, 1<<11, scaling.Count("bytes walked", &walked))
}

// A didChange with K ranges costs one copy of the document, not K, and
// linear work when its ranges come in document order or its reverse (as
// editors send them): the bytes allocated, and the bytes and line starts
// the gap buffer moves, grow linearly when the document and the ranges
// both grow 4× (a copy per range grows 16×).
func TestDidChangeRangesLinear(t *testing.T) {
	for _, order := range []string{"descending", "ascending"} {
		scaling.Linear(t, "didChange ranges, "+order, func(n int) {
			tx := newText(strings.Repeat("abcdefghij\n", n))
			e := newEdit(tx)
			for i := 0; i < n; i += 2 {
				k := n - 1 - i
				if order == "ascending" {
					k = i
				}
				if err := e.apply(protocol.Range{Start: pos(uint32(k), 3), End: pos(uint32(k), 5)}, "XYZ\n", utf16Units); err != nil {
					t.Fatal(err)
				}
				if order == "ascending" {
					i++ // the inserted line break moves the next line down
				}
			}
			_ = e.text()
		}, 1<<11, scaling.Count("bytes and line starts moved", &moved), scaling.Count("bytes walked", &walked))
	}
}

// allocated is the bytes f allocates.
func allocated(f func()) uint64 {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// FuzzSplice splices random text into random text, twice, and compares
// the buffer and its line index with rebuilding the text; and the
// positions of the result with counting from the line's start.
func FuzzSplice(f *testing.F) {
	f.Add("a\r\nb\rc\n", uint16(1), uint16(3), "\n\r", uint16(0), uint16(9), "x\r")
	f.Add(strings.Repeat("é€😀", 200)+"\n", uint16(0), uint16(0), "", uint16(400), uint16(700), "\r\n")
	f.Fuzz(func(t *testing.T, src string, a1, b1 uint16, s1 string, a2, b2 uint16, s2 string) {
		want := newText(src)
		e := newEdit(want)
		for _, ch := range []struct {
			a, b uint16
			s    string
		}{{a1, b1, s1}, {a2, b2, s2}} {
			a, b := int(ch.a)%(len(want.src)+1), int(ch.b)%(len(want.src)+1)
			a, b = notInCRLF(want.src, min(a, b)), notInCRLF(want.src, max(a, b))
			e.splice(a, b, ch.s)
			want = newText(want.src[:a] + ch.s + want.src[b:])
		}
		got := e.text()
		if got.src != want.src || fmt.Sprint(got.lines) != fmt.Sprint(want.lines) {
			t.Fatalf("%q %v, want %q %v", got.src, got.lines, want.src, want.lines)
		}
		for off := 0; off <= len(got.src); off += 1 + len(got.src)/200 {
			for _, enc := range []encoding{utf16Units, utf8Bytes, utf32Points} {
				if p, w := got.position(off, enc), naivePosition(got, off, enc); p != w {
					t.Fatalf("offset %d enc %d: %v, want %v", off, enc, p, w)
				}
			}
		}
	})
}
