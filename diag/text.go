package diag

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// TextOptions control the text renderer.
type TextOptions struct {
	Color bool // ANSI colors (only on a terminal unless asked)
}

// Sources gives renderers the text of each file, by name. A missing file
// renders the diagnostic's first line only.
type Sources map[string]string

// WriteText renders diagnostics in the terminal format (README.md, "Text format"):
// `FILE:LINE:COL: SEVERITY[CODE]: MESSAGE`, the source line with the range
// underlined, related locations labelled, fix hints. The summary line is
// written separately by WriteSummary.
func WriteText(w io.Writer, ds []Diagnostic, src Sources, opt TextOptions) error {
	r := textRenderer{w: w, src: src, opt: opt, lines: map[string][]int{}}
	var b strings.Builder
	for i := range ds {
		r.diagnostic(&b, &ds[i])
		if _, err := io.WriteString(w, b.String()); err != nil {
			return err
		}
		b.Reset()
	}
	return nil
}

// Summary returns the last line of the text format: `2 errors, 1 warning in 3 files`.
func Summary(ds []Diagnostic, files int) string {
	e, wn := Counts(ds)
	return fmt.Sprintf("%s, %s in %s", plural(e, "error"), plural(wn, "warning"), plural(files, "file"))
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiRed    = "\x1b[1;31m"
	ansiYellow = "\x1b[1;33m"
	ansiBlue   = "\x1b[1;34m"
	ansiCyan   = "\x1b[1;36m"
	ansiGreen  = "\x1b[1;32m"
)

// maxShown is how many columns of a source line are shown around a range;
// longer lines are cut to a window so a 2 MB line does not flood a terminal.
const maxShown = 160

type textRenderer struct {
	w     io.Writer
	src   Sources
	opt   TextOptions
	lines map[string][]int // line start offsets per file, built lazily
}

func (r *textRenderer) paint(color, s string) string {
	if !r.opt.Color {
		return s
	}
	return color + s + ansiReset
}

func (r *textRenderer) diagnostic(b *strings.Builder, d *Diagnostic) {
	sevColor := ansiRed
	if d.Severity == Warning {
		sevColor = ansiYellow
	}
	// File names and messages carry input text: escaped (escape.go). The
	// file name starts the line, so it must not read as a workflow command.
	fmt.Fprintf(b, "%s: %s%s\n",
		r.paint(ansiBold, fmt.Sprintf("%s:%d:%d", EscapeLineStart(d.File), d.Range.Start.Line, d.Range.Start.Column)),
		r.paint(sevColor, fmt.Sprintf("%s[%s]", d.Severity, Escape(string(d.Code)))),
		r.paint(ansiBold, ": "+Escape(d.Message)))
	gutter := len(fmt.Sprint(d.Range.End.Line))
	for _, rel := range d.Related {
		if n := len(fmt.Sprint(rel.Range.End.Line)); n > gutter {
			gutter = n
		}
	}
	r.snippet(b, d.File, d.Range, "", sevColor, '^', gutter)
	for _, rel := range d.Related {
		if rel.File != d.File {
			fmt.Fprintf(b, "%s %s:%d:%d\n", strings.Repeat(" ", gutter)+r.paint(ansiBlue, " ::: "), Escape(rel.File), rel.Range.Start.Line, rel.Range.Start.Column)
		}
		r.snippet(b, rel.File, rel.Range, Escape(rel.Message), ansiBlue, '-', gutter)
	}
	for _, f := range d.Fixes {
		label := "help"
		if f.MachineApplicable {
			label = "fix"
		}
		fmt.Fprintf(b, "%s %s: %s\n", strings.Repeat(" ", gutter)+r.paint(ansiBlue, " ="), r.paint(ansiGreen, label), Escape(f.Title))
		if prev, ok := r.preview(f); ok {
			fmt.Fprintf(b, "%s%s\n", r.paint(ansiBlue, strings.Repeat(" ", gutter)+" | "), prev)
		}
	}
}

// lineStarts returns the byte offsets at which each line of file starts.
func (r *textRenderer) lineStarts(file string) []int {
	if ls, ok := r.lines[file]; ok {
		return ls
	}
	ls := LineStarts(r.src[file])
	r.lines[file] = ls
	return ls
}

// LineStarts returns the byte offsets at which each line of src starts.
// Lines end at LF, CR LF or a lone CR, as the lexer, editors and LSP count
// them.
func LineStarts(src string) []int {
	ls := []int{0}
	for i := 0; ; {
		k := strings.IndexAny(src[i:], "\r\n")
		if k < 0 {
			return ls
		}
		i += k + 1
		if src[i-1] == '\r' && i < len(src) && src[i] == '\n' {
			i++
		}
		ls = append(ls, i)
	}
}

// lineText returns the text of 1-based line n of file, without its newline.
func (r *textRenderer) lineText(file string, n int) (string, int, bool) {
	src, ok := r.src[file]
	if !ok {
		return "", 0, false
	}
	ls := r.lineStarts(file)
	if n < 1 || n > len(ls) {
		return "", 0, false
	}
	start := ls[n-1]
	end := len(src)
	if n < len(ls) {
		end = ls[n] - 1
		if end > start && src[end] == '\n' && src[end-1] == '\r' {
			end--
		}
	}
	if n == 1 && strings.HasPrefix(src[start:end], "\uFEFF") {
		start += 3 // a byte order mark takes no column
	}
	return src[start:end], start, true
}

// snippet prints the source line of rg with the range marked by mark, and
// label after the marks. It works on a window of the line around the range,
// so a megabyte-long line costs no more than a short one.
func (r *textRenderer) snippet(b *strings.Builder, file string, rg Range, label, color string, mark byte, gutter int) {
	text, lineStart, ok := r.lineText(file, int(rg.Start.Line))
	if !ok {
		return
	}
	s := clamp(int(rg.Start.Offset)-lineStart, 0, len(text))
	e := len(text)
	if rg.End.Line == rg.Start.Line {
		e = clamp(int(rg.End.Offset)-lineStart, s, len(text))
	}
	// Short lines are shown whole; long ones as a window of maxShown code
	// points, starting maxShown/4 before the range.
	from := s
	if len(text) <= maxShown || utf8.RuneCountInString(text[:min(len(text), 4*maxShown+4)]) <= maxShown {
		from = 0
	}
	for n := 0; from > 0 && n < maxShown/4; n++ {
		_, size := utf8.DecodeLastRuneInString(text[:from])
		from -= size
	}
	to := from
	for n := 0; to < len(text) && n < maxShown; n++ {
		_, size := utf8.DecodeRuneInString(text[to:])
		to += size
	}
	if to < s {
		to = s
	}
	before := displayRunes(text[from:s])
	inside := displayRunes(text[s:min(max(e, s), to)])
	after := displayRunes(text[min(max(e, s), to):to])
	var line, under strings.Builder
	if from > 0 {
		line.WriteString("…")
		under.WriteByte(' ')
	}
	for _, u := range before {
		line.WriteString(u)
		if u == "\t" {
			under.WriteByte('\t')
		} else {
			under.WriteByte(' ')
		}
	}
	for _, u := range inside {
		line.WriteString(u)
	}
	for _, u := range after {
		line.WriteString(u)
	}
	if to < len(text) {
		line.WriteString("…")
	}
	marks := strings.Repeat(string(mark), max(1, len(inside)))
	if rg.End.Line > rg.Start.Line || e > to {
		marks += "…"
	}
	if label != "" {
		marks += " " + label
	}
	pad := strings.Repeat(" ", gutter)
	fmt.Fprintf(b, "%s\n", r.paint(ansiBlue, pad+" |"))
	fmt.Fprintf(b, "%s %s\n", r.paint(ansiBlue, fmt.Sprintf("%*d |", gutter, rg.Start.Line)), line.String())
	fmt.Fprintf(b, "%s %s%s\n", r.paint(ansiBlue, pad+" |"), under.String(), r.paint(color, marks))
}

// preview shows the line a single-line fix produces, when all its edits
// touch one line of one file.
func (r *textRenderer) preview(f Fix) (string, bool) {
	if len(f.Edits) == 0 {
		return "", false
	}
	e0 := f.Edits[0]
	for _, e := range f.Edits {
		if e.File != e0.File || e.Range.Start.Line != e0.Range.Start.Line || e.Range.End.Line != e0.Range.Start.Line || strings.Contains(e.NewText, "\n") {
			return "", false
		}
	}
	text, start, ok := r.lineText(e0.File, int(e0.Range.Start.Line))
	if !ok || len(text) > maxShown*2 {
		return "", false
	}
	// Apply edits right to left on the line's bytes.
	edits := append([]Edit(nil), f.Edits...)
	for i := 1; i < len(edits); i++ {
		for j := i; j > 0 && edits[j].Range.Start.Offset > edits[j-1].Range.Start.Offset; j-- {
			edits[j], edits[j-1] = edits[j-1], edits[j]
		}
	}
	out := text
	for _, e := range edits {
		s, t := int(e.Range.Start.Offset)-start, int(e.Range.End.Offset)-start
		if s < 0 || t > len(out) || s > t {
			return "", false
		}
		out = out[:s] + e.NewText + out[t:]
	}
	return strings.Join(displayRunes(out), ""), true
}

// displayRunes splits a line into printable units, one per column: each
// invalid byte, control character, bidi control or ignorable becomes U+FFFD
// so the output stays valid UTF-8, no escape sequence or reordering reaches
// the terminal, and the underline stays aligned with the columns the lexer
// counted. The second `#` of `##[` becomes U+FFFD too: a CI runner reads
// `##[` anywhere in a line as a command (escape.go).
func displayRunes(s string) []string {
	out := make([]string, 0, len(s))
	for i := 0; i < len(s); {
		c, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case c == '\t':
			out = append(out, "\t")
		case c == '#' && strings.HasPrefix(s[i:], legacyCommand):
			out = append(out, "#", "\uFFFD")
			size = 2
		case c == utf8.RuneError && size == 1, unsafeRune(c):
			out = append(out, "\uFFFD")
		default:
			out = append(out, s[i:i+size])
		}
		i += size
	}
	return out
}

func clamp(v, lo, hi int) int {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}
