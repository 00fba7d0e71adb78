package diag

import (
	"fmt"
	"slices"
	"strings"
)

// ApplyEdits applies edits (all for one file) to src. Edits are applied by
// byte offset; overlapping edits or edits outside src are an error, and src
// is left untouched.
func ApplyEdits(src string, edits []Edit) (string, error) {
	es := slices.Clone(edits)
	slices.SortStableFunc(es, func(a, b Edit) int {
		if a.Range.Start.Offset != b.Range.Start.Offset {
			return int(a.Range.Start.Offset - b.Range.Start.Offset)
		}
		return int(a.Range.End.Offset - b.Range.End.Offset)
	})
	var out strings.Builder
	out.Grow(len(src))
	at := 0
	for _, e := range es {
		s, t := int(e.Range.Start.Offset), int(e.Range.End.Offset)
		if s < at || s > t || t > len(src) {
			return "", fmt.Errorf("edit at bytes %d-%d overlaps another edit or lies outside the file", s, t)
		}
		out.WriteString(src[at:s])
		out.WriteString(e.NewText)
		at = t
	}
	out.WriteString(src[at:])
	return out.String(), nil
}
