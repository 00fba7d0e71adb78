package diag

import (
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"unicode/utf8"
)

// Ignore is a `// wfc:ignore CODE… reason` comment. On a line of its own it
// silences its codes on the next line; at the end of a line (Trailing), on
// that line.
type Ignore struct {
	File     string
	Range    Range // the comment
	Codes    []ID
	Trailing bool
	Cut      Range // what removing the comment deletes: its line, or the comment and the space before it
}

// TargetLine is the line whose warnings the comment silences.
func (ig Ignore) TargetLine() int32 { return ig.line() }

// line is the line whose diagnostics the comment silences.
func (ig Ignore) line() int32 {
	if ig.Trailing {
		return ig.Range.Start.Line
	}
	return ig.Range.Start.Line + 1
}

// SuppressOptions give Suppress what it needs beyond the diagnostics.
type SuppressOptions struct {
	// Sources hold each file's text, to find each code in its comment
	// (its range, and how it was written). Without a file's text, the
	// comment's Codes are used and WF317 points at the whole comment.
	Sources Sources
	// Scope returns the range of the file in which an error can hide the
	// warning code that ig silences (its milestone, its state, its
	// declaration); ok false means the whole file. An ignore whose warning
	// an error may hide is not stale: the warning cannot be evaluated, and
	// it returns when the error is fixed.
	Scope func(ig Ignore, code ID) (r Range, ok bool)
	// Exported says that a backend ran, so the codes of the Export phase
	// (WF401–WF405) were looked for. Without it an ignore of such a code
	// is not stale: `wfc check` does not run the export, and the ignore is
	// for `wfc export`.
	Exported bool
}

// ignoreCode is one code written in an ignore comment.
type ignoreCode struct {
	text  string // as written: `wf312`
	code  ID     // upper case: `WF312`
	r     Range  // where it is written
	cut   Range  // what removing it deletes: the code and one separator run
	known bool   // r and cut are known (the comment's text was available)
}

// Suppress drops the warnings that ignore comments silence (a diagnostic is
// silenced when its range starts on the ignore's line and the ignore names
// its code, in any case) and reports what is wrong with the ignores as
// WF317 (see staleIgnores). Errors cannot be ignored.
func Suppress(ds []Diagnostic, ignores []Ignore, opt SuppressOptions) []Diagnostic {
	if len(ignores) == 0 {
		return ds
	}
	type key struct {
		file string
		line int32
		code ID
	}
	codes := make([][]ignoreCode, len(ignores))
	used := make([][]bool, len(ignores))
	at := map[key][][2]int{} // (ignore, code) by what they silence
	for i, ig := range ignores {
		codes[i] = ig.codes(opt.Sources)
		used[i] = make([]bool, len(codes[i]))
		for j, c := range codes[i] {
			k := key{ig.File, ig.line(), c.code}
			at[k] = append(at[k], [2]int{i, j})
		}
	}
	out := ds[:0:0]
	for _, d := range ds {
		if d.Severity == Warning && d.Code != WF317 {
			if idx, ok := at[key{d.File, d.Range.Start.Line, d.Code}]; ok {
				for _, ij := range idx {
					used[ij[0]][ij[1]] = true
				}
				continue
			}
		}
		out = append(out, d)
	}
	hidden := errorLines(ds)
	for i, ig := range ignores {
		out = append(out, staleIgnores(ig, codes[i], used[i], func(code ID) bool {
			return !opt.Exported && code.Phase() == Export || hidden.within(ig, code, opt.Scope)
		})...)
	}
	return out
}

// staleIgnores reports what is wrong with one ignore comment, as WF317:
//   - no code at all: the comment, with a fix that removes it;
//   - every code silences nothing: the comment, with a fix that removes it;
//   - some codes silence nothing: each such code, with a fix that removes
//     just that code;
//   - a code that silences something but is written in lower case: a fix
//     that writes it in upper case.
//
// A code silences nothing when it names an error or no code at all, or when
// its line has no such warning and no error can hide one (hidden).
func staleIgnores(ig Ignore, codes []ignoreCode, used []bool, hidden func(code ID) bool) []Diagnostic {
	if len(codes) == 0 {
		return []Diagnostic{staleComment(ig, "this `wfc:ignore` names no code: write `// wfc:ignore WF312 reason`")}
	}
	var stale []int
	var why []string
	var out []Diagnostic
	for j, c := range codes {
		cat, known := Lookup(c.code)
		switch {
		case used[j]:
			if c.text != string(c.code) && c.known {
				d := New(ig.File, c.r, WF317, fmt.Sprintf("write `%s` in upper case, as codes are written everywhere else", c.code))
				d.Fixes = []Fix{{Title: fmt.Sprintf("write `%s`", c.code), MachineApplicable: true,
					Edits: []Edit{{File: ig.File, Range: c.r, NewText: string(c.code)}}}}
				out = append(out, d)
			}
		case !known:
			stale, why = append(stale, j), append(why, fmt.Sprintf("`%s` is not a wfc code", c.text))
		case cat.Severity == Error:
			stale, why = append(stale, j), append(why, fmt.Sprintf("`%s` is an error, and errors cannot be ignored (fix the error instead)", c.code))
		case hidden(c.code):
			// An error may hide the warning: not known to be stale.
		default:
			where := "the next line"
			if ig.Trailing {
				where = "this line"
			}
			stale, why = append(stale, j), append(why, fmt.Sprintf("%s has no `%s` warning", where, c.code))
		}
	}
	if len(stale) == len(codes) {
		return append(out, staleComment(ig, fmt.Sprintf("this `wfc:ignore` silences nothing: %s; remove the comment", strings.Join(why, "; "))))
	}
	for k, j := range stale {
		c := codes[j]
		r := ig.Range
		if c.known {
			r = c.r
		}
		d := New(ig.File, r, WF317, fmt.Sprintf("`%s` in this `wfc:ignore` silences nothing: %s; remove the code", c.text, why[k]))
		if c.known {
			d.Fixes = []Fix{{Title: fmt.Sprintf("remove `%s` from the comment", c.text), MachineApplicable: true,
				Edits: []Edit{{File: ig.File, Range: c.cut, NewText: ""}}}}
		}
		out = append(out, d)
	}
	return out
}

// staleComment is WF317 on a whole comment, with the fix that removes it.
func staleComment(ig Ignore, msg string) Diagnostic {
	d := New(ig.File, ig.Range, WF317, msg)
	d.Fixes = []Fix{{Title: "remove the stale `wfc:ignore` comment", MachineApplicable: true,
		Edits: []Edit{{File: ig.File, Range: ig.Cut, NewText: ""}}}}
	return d
}

// codes finds the codes of an ignore in its comment's text: after
// `wfc:ignore`, the words (separated by spaces, tabs or commas) that look
// like a code in any case; the reason starts at the first other word.
func (ig Ignore) codes(srcs Sources) []ignoreCode {
	src, ok := srcs[ig.File]
	if !ok || int(ig.Range.End.Offset) > len(src) {
		var out []ignoreCode
		for _, c := range ig.Codes {
			out = append(out, ignoreCode{text: string(c), code: c})
		}
		return out
	}
	text := src[ig.Range.Start.Offset:ig.Range.End.Offset]
	i := strings.Index(text, "wfc:ignore")
	if i < 0 {
		return nil
	}
	i += len("wfc:ignore")
	// The words (codes, then the reason's first word) are found twice: once
	// to count the codes, so the result is allocated once at its size (an
	// ignore of 16,000 codes grew it 30 times, allocating five times its
	// size), then to fill it.
	sep := func(c byte) bool { return c == ' ' || c == '	' || c == ',' }
	word := func(i int) (start, end int) {
		for i < len(text) && sep(text[i]) {
			i++
		}
		end = i
		for end < len(text) && !sep(text[end]) {
			end++
		}
		return i, end
	}
	n := 0
	for k := i; ; n++ {
		start, end := word(k)
		if start == end || !isCode(text[start:end]) {
			break
		}
		k = end
	}
	if n == 0 {
		return nil
	}
	// pos converts an offset of text; columns count code points. It counts
	// on from the offset it was last asked, so the ascending offsets below
	// cost one pass over the comment, not one per code (an ignore of
	// 100,000 codes stays linear).
	lastK, lastCol := 0, int32(0)
	pos := func(k int) Pos {
		if k < lastK {
			lastK, lastCol = 0, 0
		}
		ignoreColumnBytes.Add(int64(k - lastK))
		lastCol += int32(utf8.RuneCountInString(text[lastK:k]))
		lastK = k
		return Pos{Line: ig.Range.Start.Line, Column: ig.Range.Start.Column + lastCol, Offset: ig.Range.Start.Offset + int32(k)}
	}
	out := make([]ignoreCode, n)
	for k := range out {
		start, end := word(i)
		t := text[start:end]
		c := &out[k]
		*c = ignoreCode{text: t, code: ID(strings.ToUpper(t)), r: Range{Start: pos(start), End: pos(end)}, known: true}
		// Removing the code takes the separator after it: up to the next
		// word (a code or the reason), or before it when it is the last
		// word.
		c.cut = c.r
		if k > 0 {
			out[k-1].cut.End = c.r.Start
		}
		i = end
	}
	if next, end := word(i); next < end {
		out[n-1].cut.End = pos(next)
	} else if n > 1 {
		out[n-1].cut.Start = out[n-2].r.End
	}
	return out
}

// ignoreColumnBytes counts the bytes that reading ignore comments' codes
// counts columns over: one pass over each comment, however many codes it
// has. TestIgnoreCodesLinear reads it (a count, unlike a time, does not
// depend on the machine).
var ignoreColumnBytes atomic.Int64

func isCode(w string) bool {
	return len(w) == 5 && strings.EqualFold(w[:2], "WF") && strings.Trim(w[2:], "0123456789") == ""
}

// errorLinesByFile holds the lines of error diagnostics, sorted, by file.
type errorLinesByFile map[string][]int32

func errorLines(ds []Diagnostic) errorLinesByFile {
	m := errorLinesByFile{}
	for _, d := range ds {
		if d.Severity == Error {
			m[d.File] = append(m[d.File], d.Range.Start.Line)
		}
	}
	for _, ls := range m {
		slices.Sort(ls)
	}
	return m
}

// within reports whether an error lies in the scope where it can hide the
// warning code that ig silences.
func (m errorLinesByFile) within(ig Ignore, code ID, scope func(Ignore, ID) (Range, bool)) bool {
	ls := m[ig.File]
	if len(ls) == 0 {
		return false
	}
	if scope == nil {
		return true
	}
	r, ok := scope(ig, code)
	if !ok {
		return true
	}
	k, _ := slices.BinarySearch(ls, r.Start.Line)
	return k < len(ls) && ls[k] <= r.End.Line
}

// Settings are a project's per-file choices about warnings, keyed by code.
// They apply after ignore comments: Disable drops a warning, Error promotes
// a warning to an error. An error code can be neither disabled nor demoted:
// errors mean the program is wrong, whatever the settings.
type Settings struct {
	Disable map[ID]bool
	Error   map[ID]bool
}

// Apply returns ds with s applied, in the same order. It reuses ds's array.
func (s Settings) Apply(ds []Diagnostic) []Diagnostic {
	if len(s.Disable) == 0 && len(s.Error) == 0 {
		return ds
	}
	out := ds[:0]
	for _, d := range ds {
		if d, keep := s.Adjust(d); keep {
			out = append(out, d)
		}
	}
	return out
}

// Adjust applies s to one diagnostic: keep is false when s disables it.
func (s Settings) Adjust(d Diagnostic) (_ Diagnostic, keep bool) {
	if d.Severity != Warning {
		return d, true
	}
	if s.Disable[d.Code] {
		return d, false
	}
	if s.Error[d.Code] {
		d.Severity = Error
	}
	return d, true
}
