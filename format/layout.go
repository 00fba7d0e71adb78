package format

import "github.com/wfc-lang/wfc/lexer"

// entryKind says what one line-starting entry of a body is.
type entryKind uint8

const (
	eMember   entryKind = iota // a declaration, setting, statement… with its trailing comments
	eComment                   // comments on a line of their own
	eTrailing                  // comments after the `{` that opens the body, on its line
)

// align says which run of consecutive members an entry lines up with.
type align uint8

const (
	alignNone    align = iota
	alignSetting       // `Name = …;`: the `=` line up
	alignBlock         // `Name { … }` on one line: the `{` line up
)

// entry is one member or comment line of a body: items s..e.
type entry struct {
	s, e  int
	last  int // a member's last token (trailing comments follow it)
	kind  entryKind
	open  int  // the member's block `{`, or -1
	catch int  // the `{` of the `catch` after a step's block, or -1
	flat  bool // the block (and its catch) stays on one line
	blank bool // a blank line before it
	align align
	pad   int // spaces added before item s+1 to line it up
}

// body prints the members between items lo and hi (exclusive), one per
// line at indentation level: the inside of an expanded block, or the file.
// In an enum's body, members end at commas.
func (p *printer) body(lo, hi, level int, enum bool) {
	base := len(p.ents)
	p.collect(lo, hi, level, enum)
	ents := p.ents[base:]
	alignRuns(p, ents)
	for k := range ents {
		en := p.ents[base+k] // p.ents may grow (and move) while printing
		if en.kind == eTrailing {
			p.out = append(p.out, ' ')
			p.items1(en.s, en.e, level)
			continue
		}
		if p.it[en.s].pin == pinJoin {
			p.sep(en.s-1, en.s, 0) // on a line an ignore covers: stays on it
		} else {
			p.newline(level*indentWidth, en.blank && k > 0 || p.it[en.s].pin == pinBlank)
		}
		if en.kind == eComment {
			p.items1(en.s, en.e, level)
			continue
		}
		p.member(en, level, enum)
	}
	p.ents = p.ents[:base]
}

// collect splits the body between lo and hi into entries on p.ents.
func (p *printer) collect(lo, hi, level int, enum bool) {
	first := true
	for i := lo + 1; i < hi; {
		it := &p.it[i]
		en := entry{s: i, open: -1, catch: -1, blank: it.nl >= 2}
		if it.comment() {
			j := p.lineRest(i, hi)
			switch {
			case first && lo >= 0 && it.nl == 0:
				en.kind, en.e = eTrailing, j
				p.ents = append(p.ents, en)
				i = j + 1
				continue
			case j+1 >= hi || p.it[j+1].nl > 0 || p.it[j].cls == cLine:
				en.kind, en.e = eComment, j
				p.ents = append(p.ents, en)
				i, first = j+1, false
				continue
			}
			// Comments that lead a member on its line belong to it.
		}
		end, open := p.memberEnd(i, hi, enum)
		if open >= 0 && !enum {
			// A step's block may be followed by `catch { … }`: one member.
			if c := p.catchAfter(end, hi); c >= 0 {
				en.catch, end = c, int(p.it[c].match)
			}
		}
		en.last, en.e, en.open = end, p.lineRest(end, hi), open
		if open >= 0 {
			m := int(p.it[open].match)
			en.flat = m == open+1 && en.catch < 0 || p.it[m].pin == pinJoin ||
				p.it[open].line == p.it[end].line && level*indentWidth+p.flatWidth(i, end, Width) <= Width
		}
		p.ents = append(p.ents, en)
		i, first = en.e+1, false
	}
}

// lineRest returns the last of the comments that follow item i on its
// line, or i if none does (nothing follows a line comment).
func (p *printer) lineRest(i, hi int) int {
	for i+1 < hi && p.it[i+1].comment() && p.it[i+1].nl == 0 && p.it[i].cls != cLine {
		i++
	}
	return i
}

// memberEnd returns the last token of the member that starts at item s and
// its block's `{` (or -1): a member ends at a `;` outside brackets, at the
// `}` of its block, in an enum at a comma, or at the end of the body.
func (p *printer) memberEnd(s, hi int, enum bool) (end, open int) {
	depth, last := 0, s
	for i := s; i < hi; i++ {
		it := &p.it[i]
		if it.comment() {
			continue
		}
		last = i
		if it.cls != cPunct || it.end-it.off != 1 {
			continue
		}
		switch p.src[it.off] {
		case '(', '[':
			depth++
		case ')', ']':
			depth = max(0, depth-1)
		case ';':
			if depth == 0 {
				return i, -1
			}
		case ',':
			if depth == 0 && enum {
				return i, -1
			}
		case '{':
			if depth == 0 && it.match > int32(i) && int(it.match) < hi {
				return int(it.match), i
			}
		}
	}
	return last, -1
}

// catchAfter returns the `{` of a `catch { … }` that follows the block
// closing at item end (comments between them allowed), or -1: `catch` is a
// contextual word, the one that follows a durable step's block.
func (p *printer) catchAfter(end, hi int) int {
	j := end + 1
	for j < hi && p.it[j].comment() {
		j++
	}
	if j+1 >= hi || p.it[j].cls != cWord || p.text(j) != "catch" || !p.punct(j+1, '{') {
		return -1
	}
	if m := int(p.it[j+1].match); m > j+1 && m < hi {
		return j + 1
	}
	return -1
}

// alignRuns sets the padding of runs of consecutive members of one kind:
// settings line up their `=`, one-line `Name { … }` blocks their `{`. A blank
// line or a comment line ends a run.
func alignRuns(p *printer, ents []entry) {
	for k := range ents {
		ents[k].align = p.alignOf(&ents[k])
	}
	for k := 0; k < len(ents); {
		a := ents[k].align
		j := k + 1
		for j < len(ents) && a != alignNone && ents[j].align == a && !ents[j].blank {
			j++
		}
		widest := 0
		for _, en := range ents[k:j] {
			widest = max(widest, int(p.it[en.s].width))
		}
		for m := k; m < j; m++ {
			ents[m].pad = widest - int(p.it[ents[m].s].width)
		}
		k = j
	}
}

func (p *printer) alignOf(en *entry) align {
	if en.kind != eMember || en.s+1 > en.e || p.it[en.s].pin == pinJoin {
		return alignNone
	}
	first := &p.it[en.s]
	if first.kind != lexer.Ident && !(first.cls == cKeyword && p.text(en.s) == "default") {
		return alignNone
	}
	switch {
	case first.kind == lexer.Ident && p.punct(en.s+1, '='):
		return alignSetting
	case en.open == en.s+1 && en.flat:
		return alignBlock
	}
	return alignNone
}

// member prints one member, starting on the current line: its tokens, its
// block (on one line, or expanded with its own body) and trailing comments.
func (p *printer) member(en entry, level int, enum bool) {
	cont := (level + contLevels) * indentWidth
	breaks := p.chainBreaks(en, level)
	for i := en.s; i <= en.e; i++ {
		if i > en.s {
			if len(breaks) > 0 && breaks[0] == i && p.it[i].pin != pinJoin {
				breaks = breaks[1:]
				p.newline(cont, p.it[i].pin == pinBlank)
			} else {
				if len(breaks) > 0 && breaks[0] == i {
					breaks = breaks[1:]
				}
				p.sep(i-1, i, cont)
			}
			if i == en.s+1 {
				for range en.pad {
					p.out = append(p.out, ' ')
				}
			}
		}
		if (i == en.open || i == en.catch) && !en.flat {
			m := int(p.it[i].match)
			p.write(i)
			p.body(i, m, level+1, p.isEnum(en))
			if p.it[m].pin == pinJoin {
				p.sep(m-1, m, cont)
			} else {
				p.newline(level*indentWidth, p.it[m].pin == pinBlank)
			}
			p.write(m)
			i = m
			continue
		}
		p.write(i)
	}
}

// items1 prints items s..e from the current position.
func (p *printer) items1(s, e, level int) {
	cont := (level + contLevels) * indentWidth
	p.write(s)
	for i := s + 1; i <= e; i++ {
		p.sep(i-1, i, cont)
		p.write(i)
	}
}

// sep writes what goes between adjacent items a and b inside a member: a
// newline where a comment needs one (after a line comment; around a comment
// that had one in the source), else a space or nothing.
func (p *printer) sep(a, b, cont int) {
	A, B := &p.it[a], &p.it[b]
	switch {
	case B.pin == pinJoin:
		if p.spaced(a, b) {
			p.out = append(p.out, ' ')
		}
	case A.cls == cLine || B.pin >= pinBreak || B.nl > 0 && (B.comment() || A.cls == cBlock):
		p.newline(cont, B.pin == pinBlank)
	case p.spaced(a, b):
		p.out = append(p.out, ' ')
	}
}

// isEnum reports whether the member is an enum declaration.
func (p *printer) isEnum(en entry) bool {
	for i := en.s; i < en.open; i++ {
		if p.it[i].cls == cKeyword && p.text(i) == "enum" {
			return true
		}
	}
	return false
}

// chainBreaks returns where a member whose head (up to its block, or all of
// it) is wider than Width breaks its `Backoff` chains: before each
// `.Member(…)` that follows a call, at the chain's bracket depth.
func (p *printer) chainBreaks(en entry, level int) []int {
	if en.kind != eMember || en.flat {
		return nil
	}
	head, extra := en.last, 0
	if en.open >= 0 {
		head, extra = en.open-1, 2
	}
	if level*indentWidth+p.flatWidth(en.s, head, Width)+extra <= Width {
		return nil
	}
	var breaks []int
	depth := 0
	chain := -1 // depth of the chain being scanned, or -1
	prev := -1  // previous token
	for i := en.s; i <= head; i++ {
		it := &p.it[i]
		if it.comment() {
			continue
		}
		isP := it.cls == cPunct && it.end-it.off == 1
		c := byte(0)
		if isP {
			c = p.src[it.off]
		}
		if chain >= 0 && depth == chain && !(c == '.' || c == '(' || it.kind == lexer.Ident) {
			chain = -1
		}
		switch c {
		case '(', '[':
			depth++
		case ')', ']':
			depth = max(0, depth-1)
			if depth < chain {
				chain = -1
			}
		case '.':
			if chain >= 0 && depth == chain && prev >= 0 && p.punct(prev, ')') {
				breaks = append(breaks, i)
			}
		}
		// A named argument after a broken chain, in the member's outer
		// call (a step's `timeout:` and `deadline:` after its `retry:`),
		// starts a line of its own rather than trailing the chain's last
		// line past Width.
		if len(breaks) > 0 && depth == 1 && chain < 0 && it.kind == lexer.Ident && prev >= 0 && p.punct(prev, ',') &&
			i+1 <= head && p.punct(i+1, ':') {
			breaks = append(breaks, i)
		}
		if chain < 0 && it.kind == lexer.Ident && p.text(i) == "Backoff" && i+1 <= head && p.punct(i+1, '.') {
			chain = depth
		}
		prev = i
	}
	return breaks
}
