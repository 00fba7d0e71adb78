package lsp

import (
	"fmt"
	"sort"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/internal/lsp/protocol"
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
type text struct {
	src   string
	lines []int
}

func newText(src string) *text {
	t := &text{src: src, lines: []int{0}}
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\n':
			t.lines = append(t.lines, i+1)
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
			t.lines = append(t.lines, i+1)
		}
	}
	return t
}

// lineEnd is the offset where line i's content ends (before its line break).
func (t *text) lineEnd(i int) int {
	if i+1 >= len(t.lines) {
		return len(t.src)
	}
	end := t.lines[i+1]
	if end > 0 && t.src[end-1] == '\n' {
		end--
	}
	if end > t.lines[i] && t.src[end-1] == '\r' {
		end--
	}
	return end
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
	want := int(p.Character)
	n := 0
	for i := start; i < end; {
		if n == want {
			return i, nil
		}
		r, size := utf8.DecodeRuneInString(t.src[i:end])
		n += units(r, size, enc)
		if n > want {
			return 0, fmt.Errorf("position %d:%d falls inside a character", p.Line, p.Character)
		}
		i += size
	}
	return end, nil
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
		return len(utf16.Encode([]rune{r}))
	}
	return 1
}

// position converts a byte offset into an LSP position.
func (t *text) position(off int, enc encoding) protocol.Position {
	off = max(0, min(off, len(t.src)))
	line := sort.Search(len(t.lines), func(i int) bool { return t.lines[i] > off }) - 1
	start := t.lines[line]
	end := min(off, t.lineEnd(line))
	n := 0
	for i := start; i < end; {
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
func (t *text) apply(r protocol.Range, newText string, enc encoding) (string, error) {
	s, err := t.offset(r.Start, enc)
	if err != nil {
		return "", err
	}
	e, err := t.offset(r.End, enc)
	if err != nil {
		return "", err
	}
	if e < s {
		return "", fmt.Errorf("range end %d:%d precedes its start", r.End.Line, r.End.Character)
	}
	return t.src[:s] + newText + t.src[e:], nil
}
