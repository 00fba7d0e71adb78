package parser

import (
	"sync/atomic"

	"github.com/wfc-lang/wfc/lexer"
)

// brackets is the parser's one bracket tracker: the splitter, the nesting
// guard, the search for a matching bracket and the naming of an unclosed
// one all use it. A closer pops to its matching opener, so a missing `)`
// inside braces does not swallow the `}` that closes them, and `)` or `]`
// never close past a `{`.
//
// Each opener links to the one of its kind below it, and the top opener of
// each kind is kept, so finding the opener a closer matches costs O(1)
// amortised, whatever the input: `[`×N then `)`×N is linear, not
// quadratic. One slice holds it all, so a tracker that is reset and used
// again (chunkParser.scratch) allocates nothing once it has grown.
type brackets struct {
	open []openBracket
	top  [3]int32 // per kind (see kindOf): 1 + index in open of its top opener, 0 for none
}

type openBracket struct {
	c    byte  // '(', '[' or '{'
	prev int32 // 1 + index in open of the opener of the same kind below it, 0 for none
	tok  int   // token index
}

func kindOf(c byte) int {
	switch c {
	case '(', ')':
		return 0
	case '[', ']':
		return 1
	}
	return 2
}

// bracketAt returns token i's bracket character, or 0.
func (fp *fileParser) bracketAt(i int) byte {
	t := fp.toks[i]
	if t.Kind != lexer.Punct || t.End-t.Off != 1 {
		if isVirtualBrace(t) {
			if c := fp.virtualText(i)[0]; c == '{' || c == '}' {
				return c
			}
		}
		return 0
	}
	switch c := fp.src[t.Off]; c {
	case '(', ')', '[', ']', '{', '}':
		return c
	}
	return 0
}

func isOpener(c byte) bool { return c == '(' || c == '[' || c == '{' }

// push opens bracket c at token tok.
func (b *brackets) push(c byte, tok int) {
	tracked.Add(1)
	k := kindOf(c)
	b.open = append(b.open, openBracket{c: c, prev: b.top[k], tok: tok})
	b.top[k] = int32(len(b.open))
}

// close pops to the opener matching c. It reports whether there was one,
// and how many brackets it closed (more than one: some were left open).
func (b *brackets) close(c byte) (ok bool, popped int) {
	t := b.top[kindOf(c)]
	if t == 0 {
		return false, 0
	}
	at := int(t) - 1
	if c != '}' && int(b.top[2])-1 > at {
		return false, 0 // a `)` never closes past a `{`
	}
	popped = len(b.open) - at
	links := int64(0)
	for k := range b.top {
		for b.top[k] != 0 && int(b.top[k])-1 >= at {
			b.top[k] = b.open[b.top[k]-1].prev
			links++
		}
	}
	tracked.Add(links)
	b.open = b.open[:at]
	return true, popped
}

// depth is the number of open brackets.
func (b *brackets) depth() int { return len(b.open) }

// innermost returns the innermost open bracket.
func (b *brackets) innermost() (openBracket, bool) {
	if len(b.open) == 0 {
		return openBracket{}, false
	}
	return b.open[len(b.open)-1], true
}

func (b *brackets) reset() {
	b.open = b.open[:0]
	b.top = [3]int32{}
}

// track feeds token i to b and returns its bracket character (0 if none).
func (fp *fileParser) track(b *brackets, i int) byte {
	c := fp.bracketAt(i)
	switch {
	case c == 0:
	case isOpener(c):
		b.push(c, i)
	default:
		b.close(c)
	}
	return c
}

// matching returns the index of the bracket closing the one at open, or -1
// when it is not closed by its own kind before hi.
func (fp *fileParser) matching(open, hi int) int {
	var b brackets
	for i := open; i < hi; i++ {
		c := fp.bracketAt(i)
		switch {
		case c == 0:
		case isOpener(c):
			b.push(c, i)
		default:
			if ok, popped := b.close(c); !ok || popped != 1 {
				scanned.Add(int64(i + 1 - open))
				return -1
			}
			if b.depth() == 0 {
				scanned.Add(int64(i + 1 - open))
				return i
			}
		}
	}
	scanned.Add(int64(max(0, hi-open)))
	return -1
}

// openAt returns the innermost bracket still open at token at, counting
// from token lo.
func (fp *fileParser) openAt(lo, at int) (openBracket, bool) {
	var b brackets
	scanned.Add(int64(max(0, at-lo)))
	for i := lo; i < at; i++ {
		fp.track(&b, i)
	}
	return b.innermost()
}

// lostBrace finds, among tokens [lo, hi), the `{` whose `}` went missing,
// by indentation: a `}` that starts its line left of the line of the `{` it
// closes, and level with the line of an outer `{` still open, is that outer
// block's `}`, so the inner `{` is the one left unclosed. It returns that
// `{`, the first token after it that starts a line no deeper than the `{`'s
// line (where its `}` belongs), and that `}` with the outer `{`. Without such a sign (one-line code,
// sloppy indentation) it returns ok false and the caller names the
// innermost open bracket instead.
func (fp *fileParser) lostBrace(lo, hi int) (lost lostBraceAt, ok bool) {
	var b brackets
	indents := map[int]uint32{} // `{` token -> indentation of its line
	indent := fp.indentOf(lo)
	i := lo
	defer func() { scanned.Add(int64(i - lo)) }()
	for ; i < hi; i++ {
		first := i == 0 || fp.toks[i].Line != fp.toks[i-1].Line
		if first {
			indent = fp.toks[i].Col
		}
		if first && fp.bracketAt(i) == '}' {
			if top, ok := b.innermost(); ok && top.c == '{' && fp.toks[i].Col < indents[top.tok] {
				if outer, ok := levelWithOuter(&b, indents, fp.toks[i].Col); ok {
					return lostBraceAt{top, fp.blockEnd(top.tok, indents[top.tok], i), i, outer}, true
				}
			}
		}
		if fp.track(&b, i) == '{' {
			indents[i] = indent
		}
		if b.depth() > MaxNesting {
			break // reported as too deep; this also keeps levelWithOuter short
		}
	}
	return lostBraceAt{}, false
}

// lostBraceAt is what lostBrace finds: the `{` that lost its `}`, the token
// where its block ends (at), and the `}` that closed it by count (closer)
// though by indentation it is the `}` of outer.
type lostBraceAt struct {
	open       openBracket
	at, closer int
	outer      openBracket
}

// levelWithOuter returns the innermost `{` open below the innermost bracket
// of b that stands on a line indented by col.
func levelWithOuter(b *brackets, indents map[int]uint32, col uint32) (openBracket, bool) {
	k := len(b.open) - 2
	for ; k >= 0; k-- {
		if o := b.open[k]; o.c == '{' && indents[o.tok] == col {
			break
		}
	}
	scanned.Add(int64(len(b.open) - 1 - k))
	if k < 0 {
		return openBracket{}, false
	}
	return b.open[k], true
}

// indentOf is the column of the first token on token i's line.
func (fp *fileParser) indentOf(i int) uint32 {
	from := i
	for i > 0 && fp.toks[i-1].Line == fp.toks[i].Line {
		i--
	}
	if i != from {
		scanned.Add(int64(from - i))
	}
	return fp.toks[i].Col
}

// blockEnd is the first token after the `{` at open, up to limit, that
// starts a line indented no deeper than indent: where the block ends.
func (fp *fileParser) blockEnd(open int, indent uint32, limit int) int {
	k := open + 1
	for ; k < limit; k++ {
		if fp.toks[k].Line != fp.toks[k-1].Line && fp.toks[k].Col <= indent {
			break
		}
	}
	scanned.Add(int64(k - open))
	return min(k, limit)
}

// scanned counts the tokens and open brackets that the bracket searches
// above (matching, openAt, lostBrace, levelWithOuter, indentOf, blockEnd)
// look at, besides the splitter's one pass: recovery and reports search
// from where they are, never from the file's start. tracked counts the openers trackers push and the links
// close follows to pop them: each opener is pushed once and unlinked once,
// whatever the closers. Both grow no faster than the input:
// TestHostileInputsAreLinear reads them (a count, unlike a time, does not
// depend on the machine).
var scanned, tracked atomic.Int64
