package check

import "github.com/wfc-lang/wfc/internal/suggest"

// nameSet is a list of candidate names prepared for suggestions (package
// suggest, which the parser uses too).
type nameSet = suggest.Set

func newNameSet(names []string) *nameSet { return suggest.NewSet(names) }

// closest is the candidate nearest to name, or "" (suggest.Closest).
func closest(name string, candidates []string) string { return suggest.Closest(name, candidates) }
