package main

import (
	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/wfc-lang/wfc/diag"
)

// unifiedDiff is the unified diff, three lines of context, of a file's change
// from old to new; `wfc fmt -d` and `wfc check --fix --diff` both print it.
// It is a minimal line diff (Myers, as gopls computes it): an unchanged line
// is context, never removed and added again. The name is escaped
// (diag.Escape) so that a line break in it cannot forge a header line.
func unifiedDiff(name, old, new string) string {
	from, to := "a/"+diag.Escape(name), "b/"+diag.Escape(name)
	d, err := udiff.ToUnified(from, to, old, udiff.Lines(old, new), udiff.DefaultContextLines)
	if err != nil {
		// Cannot happen: the edits are computed from old. Replace the whole
		// text, an edit that is valid by construction.
		d, _ = udiff.ToUnified(from, to, old, []udiff.Edit{{Start: 0, End: len(old), New: new}}, udiff.DefaultContextLines)
	}
	return d
}
