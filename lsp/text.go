package lsp

import (
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/lsp/protocol"
)

// encoding is the unit LSP positions count characters in, as negotiated at
// initialize: UTF-16 code units (the default), bytes, or code points.
type encoding int

const (
	utf16Units encoding = iota
	utf8Bytes
	utf32Points
)

func (e encoding) kind() protocol.PositionEncodingKind {
	switch e {
	case utf8Bytes:
		return protocol.PositionEncodingKindUTF8
	case utf32Points:
		return protocol.PositionEncodingKindUTF32
	}
	return protocol.PositionEncodingKindUTF16
}

// negotiate picks the client's first offered encoding that the server speaks.
// wfc counts code points, so utf-32 needs no conversion and wins if offered;
// utf-8 is next (offsets are bytes); utf-16 is the mandatory fallback.
func negotiate(offered []protocol.PositionEncodingKind) encoding {
	best := utf16Units
	for _, k := range offered {
		switch k {
		case protocol.PositionEncodingKindUTF32:
			return utf32Points
		case protocol.PositionEncodingKindUTF8:
			best = utf8Bytes
		}
	}
	return best
}

// text is a document's content with its line index. LSP lines end at \n,
// \r\n or \r; lines[i] is the byte offset where line i starts.
//
// Converting a position counts characters from the start of its line; on a
// long line (a minified or hostile file: one line of 1 MB) that would cost
// the line's length per diagnostic, so marks record, every markStride
// bytes of a long line, how many units of each encoding lie before: a
// conversion counts from the nearest mark, at most markStride bytes.
type text struct {
	src   string
	lines []int
	marks [3]lazyMarks // by encoding, made on first use
}

// markStride is the most bytes a conversion counts.
const markStride = 256

// mark is a rune boundary of a long line and the units before it on its
// line.
type mark struct{ off, units int }

type lazyMarks struct {
	once sync.Once
	m    []mark
}

func newText(src string) *text {
	return &text{src: src, lines: lineStarts(src, []int{0}, 0, len(src))}
}

// lineStarts appends to lines the starts of the lines that begin in
// (from, to]: after every \n, \r\n and lone \r of src[from:to].
func lineStarts[S ~string | ~[]byte](src S, lines []int, from, to int) []int {
	for i := from; i < to; i++ {
		switch src[i] {
		case '\n':
			lines = append(lines, i+1)
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				continue // the \n ends the line
			}
			lines = append(lines, i+1)
		}
	}
	return lines
}

// lineEnd is the offset where line i's content ends (before its line break).
func (t *text) lineEnd(i int) int { return lineEnd(t.src, t.lines, i) }

func lineEnd[S ~string | ~[]byte](src S, lines []int, i int) int {
	if i+1 >= len(lines) {
		return len(src)
	}
	end := lines[i+1]
	if end > 0 && src[end-1] == '\n' {
		end--
	}
	if end > lines[i] && src[end-1] == '\r' {
		end--
	}
	return end
}

// marksFor returns the marks of enc, making them on first use (texts are
// shared by concurrent requests).
func (t *text) marksFor(enc encoding) []mark {
	lm := &t.marks[enc]
	lm.once.Do(func() {
		for line := range t.lines {
			start, end := t.lines[line], t.lineEnd(line)
			if end-start <= markStride {
				continue
			}
			walked.Add(int64(end - start))
			n, last := 0, start
			for i := start; i < end; {
				if i-last >= markStride {
					lm.m = append(lm.m, mark{i, n})
					last = i
				}
				r, size := utf8.DecodeRuneInString(t.src[i:end])
				n += units(r, size, enc)
				i += size
			}
		}
	})
	return lm.m
}

// from is where to start counting toward offset off on the line that
// starts at start: the last mark at or before off on that line, or the
// line's start.
func (t *text) from(start, off int, enc encoding) (i, n int) {
	if off-start <= markStride {
		return start, 0
	}
	ms := t.marksFor(enc)
	k := sort.Search(len(ms), func(k int) bool { return ms[k].off > off }) - 1
	if k >= 0 && ms[k].off >= start {
		return ms[k].off, ms[k].units
	}
	return start, 0
}

// fromUnits is from for a count of units on the line [start, end).
func (t *text) fromUnits(start, end, want int, enc encoding) (i, n int) {
	if end-start <= markStride {
		return start, 0
	}
	ms := t.marksFor(enc)
	lo := sort.Search(len(ms), func(k int) bool { return ms[k].off >= start })
	hi := sort.Search(len(ms), func(k int) bool { return ms[k].off >= end })
	k := lo + sort.Search(hi-lo, func(k int) bool { return ms[lo+k].units > want }) - 1
	if k >= lo {
		return ms[k].off, ms[k].units
	}
	return start, 0
}

// offset converts an LSP position into a byte offset. A character past the
// end of its line means the end of the line, and a line past the end of the
// text means the end of the text (as the specification asks); a position
// inside a character is an error.
func (t *text) offset(p protocol.Position, enc encoding) (int, error) {
	line := int(p.Line)
	if line >= len(t.lines) {
		return len(t.src), nil
	}
	start, end := t.lines[line], t.lineEnd(line)
	i, n := t.fromUnits(start, end, int(p.Character), enc)
	return count(t.src, i, end, n, p, enc)
}

// walked counts the bytes that conversions between offsets and positions
// walk (marks made, then at most markStride bytes per conversion), and
// moved the bytes and line starts that edits move: TestPositionsOnOneLineLinear
// and TestDidChangeRangesLinear read them (a count, unlike a time, does not
// depend on the machine).
var walked, moved atomic.Int64

// count walks src from offset i (n units into its line) to the position
// p, on a line that ends at end.
func count[S ~string | ~[]byte](src S, i, end, n int, p protocol.Position, enc encoding) (int, error) {
	want := int(p.Character)
	from := i
	for i < end {
		if n == want {
			break
		}
		r, size := decode(src[i:end])
		n += units(r, size, enc)
		if n > want {
			walked.Add(int64(i - from))
			return 0, fmt.Errorf("position %d:%d falls inside a character", p.Line, p.Character)
		}
		i += size
	}
	walked.Add(int64(i - from))
	return i, nil
}

// decode is utf8.DecodeRune for strings and byte slices alike.
func decode[S ~string | ~[]byte](s S) (rune, int) {
	if len(s) > 0 && s[0] < utf8.RuneSelf {
		return rune(s[0]), 1
	}
	var b [utf8.UTFMax]byte
	n := copy(b[:], s[:min(len(s), utf8.UTFMax)])
	return utf8.DecodeRune(b[:n])
}

// units is how many units of enc the rune r (size bytes in UTF-8) takes.
func units(r rune, size int, enc encoding) int {
	switch enc {
	case utf8Bytes:
		return size
	case utf32Points:
		return 1
	}
	if r >= 0x10000 && r != utf8.RuneError {
		return 2
	}
	return 1
}

// position converts a byte offset into an LSP position.
func (t *text) position(off int, enc encoding) protocol.Position {
	off = max(0, min(off, len(t.src)))
	line := sort.Search(len(t.lines), func(i int) bool { return t.lines[i] > off }) - 1
	start := t.lines[line]
	end := min(off, t.lineEnd(line))
	i, n := t.from(start, end, enc)
	walked.Add(int64(end - i))
	for i < end {
		r, size := utf8.DecodeRuneInString(t.src[i:end])
		n += units(r, size, enc)
		i += size
	}
	return protocol.Position{Line: uint32(line), Character: uint32(n)}
}

// rng converts a diag.Range (whose byte offsets are exact) into an LSP range.
func (t *text) rng(r diag.Range, enc encoding) protocol.Range {
	return protocol.Range{Start: t.position(int(r.Start.Offset), enc), End: t.position(int(r.End.Offset), enc)}
}

// apply applies one incremental change and returns the new text.
func (t *text) apply(r protocol.Range, newText string, enc encoding) (*text, error) {
	e := newEdit(t)
	if err := e.apply(r, newText, enc); err != nil {
		return nil, err
	}
	return e.text(), nil
}

// edit applies the changes of one didChange to a copy of a text: one copy
// of the document and of its line index however many ranges the change
// has (a copy per range made K ranges cost K documents).
//
// The copy is a gap buffer: the document is buf[:gs] + buf[ge:], and a
// range is spliced at the gap, which moves to it first. Editors send the
// ranges of one change in document order or its reverse (multi-cursor
// edits, a rename's references), so the gap moves about the document's
// length in all, not once per range. The line index is split the same
// way: before holds the line starts up to the gap, as offsets; after the
// ones past it, as distances from the document's end, which an edit before
// them does not change — the nearest to the gap last, so moving the gap
// moves starts from the end of one slice to the end of the other.
type edit struct {
	buf           []byte
	gs, ge        int
	before, after []int
	fresh         []int // scratch: starts found past the gap
}

func newEdit(t *text) *edit {
	e := &edit{buf: []byte(t.src), gs: len(t.src), ge: len(t.src), before: append([]int(nil), t.lines...)}
	return e
}

// n is the document's length.
func (e *edit) n() int { return len(e.buf) - (e.ge - e.gs) }

// at is the document's byte i.
func (e *edit) at(i int) byte {
	if i < e.gs {
		return e.buf[i]
	}
	return e.buf[i+e.ge-e.gs]
}

// lineCount is the number of lines.
func (e *edit) lineCount() int { return len(e.before) + len(e.after) }

// lineStart is where line i starts.
func (e *edit) lineStart(i int) int {
	if i < len(e.before) {
		return e.before[i]
	}
	return e.n() - e.after[len(e.after)-1-(i-len(e.before))]
}

// moveGap moves the gap to the document's offset p.
func (e *edit) moveGap(p int) {
	n := e.n()
	switch {
	case p < e.gs:
		k := e.gs - p
		moved.Add(int64(k))
		copy(e.buf[e.ge-k:e.ge], e.buf[p:e.gs])
		e.gs, e.ge = p, e.ge-k
		for len(e.before) > 1 && e.before[len(e.before)-1] > p {
			e.after = append(e.after, n-e.before[len(e.before)-1])
			e.before = e.before[:len(e.before)-1]
			moved.Add(1)
		}
	case p > e.gs:
		k := p - e.gs
		moved.Add(int64(k))
		copy(e.buf[e.gs:p], e.buf[e.ge:e.ge+k])
		e.gs, e.ge = p, e.ge+k
		for len(e.after) > 0 && n-e.after[len(e.after)-1] <= p {
			e.before = append(e.before, n-e.after[len(e.after)-1])
			e.after = e.after[:len(e.after)-1]
			moved.Add(1)
		}
	}
}

// grow makes the gap at least k bytes long, doubling the buffer so a
// change's insertions cost linear time in all.
func (e *edit) grow(k int) {
	if e.ge-e.gs >= k {
		return
	}
	size := max(2*len(e.buf), e.n()+k+64)
	buf := make([]byte, size)
	moved.Add(int64(e.n()))
	copy(buf, e.buf[:e.gs])
	tail := len(e.buf) - e.ge
	copy(buf[size-tail:], e.buf[e.ge:])
	e.buf, e.ge = buf, size-tail
}

// text is the result (a second copy: strings are immutable).
func (e *edit) text() *text {
	e.moveGap(e.n())
	return &text{src: string(e.buf[:e.gs]), lines: append([]int(nil), e.before...)}
}

// offset is text.offset on the buffer. The gap moves to the line's start,
// so the line is contiguous.
func (e *edit) offset(p protocol.Position, enc encoding) (int, error) {
	line := int(p.Line)
	if line >= e.lineCount() {
		return e.n(), nil
	}
	start := e.lineStart(line)
	end := e.n()
	if line+1 < e.lineCount() {
		end = e.lineStart(line + 1)
		if end > start && e.at(end-1) == '\n' {
			end--
		}
		if end > start && e.at(end-1) == '\r' {
			end--
		}
	}
	e.moveGap(start)
	d := e.ge - e.gs
	off, err := count(e.buf, start+d, end+d, 0, p, enc)
	return off - d, err
}

// apply replaces the range r with s.
func (e *edit) apply(r protocol.Range, s string, enc encoding) error {
	from, err := e.offset(r.Start, enc)
	if err != nil {
		return err
	}
	to, err := e.offset(r.End, enc)
	if err != nil {
		return err
	}
	if to < from {
		return fmt.Errorf("range end %d:%d precedes its start", r.End.Line, r.End.Character)
	}
	e.splice(from, to, s)
	return nil
}

// splice replaces the document's bytes [from, to) with s and mends the
// line index. A line starts at q after a \n, or after a \r that no \n
// follows: it depends on the bytes q-1 and q only, so the starts to find
// again are those in [from, from+len(s)+1] — [from, to+1] before the
// change; the others keep their offset (before the change) or their
// distance from the end (after it).
func (e *edit) splice(from, to int, s string) {
	e.moveGap(from)
	n := e.n()
	for len(e.after) > 0 && n-e.after[len(e.after)-1] <= to+1 {
		e.after = e.after[:len(e.after)-1]
	}
	e.ge += to - from
	for len(e.before) > 1 && e.before[len(e.before)-1] >= from {
		e.before = e.before[:len(e.before)-1]
	}
	e.grow(len(s))
	copy(e.buf[e.gs:], s)
	e.gs += len(s)
	n = e.n()
	e.fresh = e.fresh[:0]
	for q := max(from, 1); q <= min(from+len(s)+1, n); q++ {
		c := e.at(q - 1)
		if c != '\n' && (c != '\r' || q < n && e.at(q) == '\n') {
			continue
		}
		if q <= e.gs {
			e.before = append(e.before, q)
		} else {
			e.fresh = append(e.fresh, q)
		}
	}
	for i := len(e.fresh) - 1; i >= 0; i-- {
		e.after = append(e.after, n-e.fresh[i])
	}
}
