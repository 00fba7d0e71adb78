package diag

import (
	"fmt"
	"slices"
)

// ApplyEdits applies edits (all for one file) to src. Edits are applied by
// byte offset; overlapping edits or edits outside src are an error, and src
// is left untouched.
func ApplyEdits(src []byte, edits []Edit) ([]byte, error) {
	es := slices.Clone(edits)
	slices.SortStableFunc(es, func(a, b Edit) int {
		if a.Range.Start.Offset != b.Range.Start.Offset {
			return a.Range.Start.Offset - b.Range.Start.Offset
		}
		return a.Range.End.Offset - b.Range.End.Offset
	})
	out := make([]byte, 0, len(src))
	at := 0
	for _, e := range es {
		s, t := e.Range.Start.Offset, e.Range.End.Offset
		if s < at || s > t || t > len(src) {
			return nil, fmt.Errorf("edit at bytes %d-%d overlaps another edit or lies outside the file", s, t)
		}
		out = append(out, src[at:s]...)
		out = append(out, e.NewText...)
		at = t
	}
	return append(out, src[at:]...), nil
}
