// Package diag defines the diagnostic every stage of wfc reports through:
// a file, a severity, a stable code, a one-line message, a primary range,
// related locations and fixes (text edits). It also sorts, de-duplicates and
// renders diagnostics (text for terminals, JSON for editors and tools).
//
// Positions (docs/language.md, "Lexical structure"): lines and columns are 1-based, columns
// count Unicode code points, offsets are 0-based bytes, ends are exclusive.
package diag

import (
	"cmp"
	"slices"
)

// Severity of a diagnostic.
type Severity int

const (
	// Error diagnostics make `wfc check` exit 1.
	Error Severity = iota
	// Warning diagnostics make `wfc check --strict` exit 1.
	Warning
)

func (s Severity) String() string {
	if s == Warning {
		return "warning"
	}
	return "error"
}

// Pos is one point in a file. The fields are 32-bit because every AST node
// holds two of them: it halves the tree's memory, and wfc reads no file over
// 4 GiB anyway.
type Pos struct {
	Line   int32 `json:"line"`   // 1-based
	Column int32 `json:"column"` // 1-based, in Unicode code points
	Offset int32 `json:"offset"` // 0-based, in bytes
}

// MakePos builds a Pos from ints.
func MakePos(line, column, offset int) Pos {
	return Pos{Line: int32(line), Column: int32(column), Offset: int32(offset)}
}

// Before reports whether p comes before q in the file.
func (p Pos) Before(q Pos) bool { return p.Offset < q.Offset }

// Range is a half-open stretch of a file: End is exclusive.
type Range struct {
	Start Pos `json:"start"`
	End   Pos `json:"end"`
}

// Related is a secondary location with its own label ("`Retries` set here").
type Related struct {
	File    string `json:"file"`
	Range   Range  `json:"range"`
	Message string `json:"message"`
}

// Edit replaces Range of File with NewText.
type Edit struct {
	File    string `json:"file"`
	Range   Range  `json:"range"`
	NewText string `json:"new_text"`
}

// Fix is one way out of a diagnostic, as text edits a tool can apply.
//
// MachineApplicable marks a fix that needs no human decision: `wfc check
// --fix` applies only those. Fixes that need a choice are shown, never applied.
type Fix struct {
	Title             string `json:"title"`
	MachineApplicable bool   `json:"machine_applicable"`
	Edits             []Edit `json:"edits"`
}

// Diagnostic is one problem found in a program.
type Diagnostic struct {
	File     string
	Severity Severity
	Code     ID
	Message  string
	Range    Range
	Related  []Related
	Fixes    []Fix
}

// List collects diagnostics. It is not safe for concurrent use; parallel
// stages keep one List each and merge them.
type List struct {
	Items []Diagnostic
}

// Add appends a diagnostic of code id with the catalogue's severity (New).
func (l *List) Add(file string, r Range, id ID, msg string) *Diagnostic {
	l.Items = append(l.Items, New(file, r, id, msg))
	return &l.Items[len(l.Items)-1]
}

// Counts returns the number of errors and warnings.
func Counts(ds []Diagnostic) (errors, warnings int) {
	for _, d := range ds {
		if d.Severity == Error {
			errors++
		} else {
			warnings++
		}
	}
	return errors, warnings
}

// Sort orders diagnostics deterministically: by the file's rank in fileOrder
// (files absent from it sort after, by name), then start offset, end offset,
// code and message. It then drops exact duplicates (same file, range, code
// and message), so a problem reached twice is reported once.
func Sort(ds []Diagnostic, fileOrder []string) []Diagnostic {
	rank := make(map[string]int, len(fileOrder))
	for i, f := range fileOrder {
		if _, ok := rank[f]; !ok {
			rank[f] = i
		}
	}
	fileRank := func(f string) int {
		if r, ok := rank[f]; ok {
			return r
		}
		return len(fileOrder)
	}
	slices.SortStableFunc(ds, func(a, b Diagnostic) int {
		if c := cmp.Compare(fileRank(a.File), fileRank(b.File)); c != 0 {
			return c
		}
		if c := cmp.Compare(a.File, b.File); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Range.Start.Offset, b.Range.Start.Offset); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Range.End.Offset, b.Range.End.Offset); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Code, b.Code); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Message, b.Message); c != 0 {
			return c
		}
		return compareRest(a, b)
	})
	return slices.CompactFunc(ds, func(a, b Diagnostic) bool {
		return a.File == b.File && a.Range == b.Range && a.Code == b.Code && a.Message == b.Message
	})
}

// compareRest orders diagnostics alike in file, range, code and message by
// everything else, so that Sort's order, and which of two such
// diagnostics its de-duplication keeps, never depends on the order they
// came in (a session assembles them from files checked at different
// times).
func compareRest(a, b Diagnostic) int {
	if c := cmp.Compare(a.Severity, b.Severity); c != 0 {
		return c
	}
	if c := slices.CompareFunc(a.Related, b.Related, func(x, y Related) int {
		return cmp.Or(cmp.Compare(x.File, y.File), compareRange(x.Range, y.Range), cmp.Compare(x.Message, y.Message))
	}); c != 0 {
		return c
	}
	return slices.CompareFunc(a.Fixes, b.Fixes, func(x, y Fix) int {
		if c := cmp.Or(cmp.Compare(x.Title, y.Title), compareBool(x.MachineApplicable, y.MachineApplicable)); c != 0 {
			return c
		}
		return slices.CompareFunc(x.Edits, y.Edits, func(p, q Edit) int {
			return cmp.Or(cmp.Compare(p.File, q.File), compareRange(p.Range, q.Range), cmp.Compare(p.NewText, q.NewText))
		})
	})
}

func compareRange(a, b Range) int {
	return cmp.Or(cmp.Compare(a.Start.Offset, b.Start.Offset), cmp.Compare(a.End.Offset, b.End.Offset))
}

func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}
