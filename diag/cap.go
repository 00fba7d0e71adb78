package diag

import "fmt"

// MaxPerCode is how many diagnostics of one code one file reports; past it
// one more diagnostic, at the first one left out, counts the rest. The
// lexer caps its own codes lower (lexer.MaxPerCode) and the parser its
// syntax errors; this cap holds for every code, so a hostile file cannot
// make the output (a SARIF log, the editor's problem list) grow without
// bound: a 4.8 MB file of unknown names once gave 320,000 SARIF results.
const MaxPerCode = 1000

// Cap keeps the first MaxPerCode diagnostics of each code in each file of
// ds, which is sorted (Sort), and replaces the rest by one diagnostic that
// counts them, with the same code and severity at the position of the
// first left out, so the order stays sorted. It reuses ds.
func Cap(ds []Diagnostic) []Diagnostic {
	type key struct {
		file string
		code ID
	}
	var seen map[key]int
	for _, d := range ds {
		if seen == nil {
			seen = map[key]int{}
		}
		k := key{d.File, d.Code}
		seen[k]++
	}
	over := false
	for _, n := range seen {
		over = over || n > MaxPerCode
	}
	if !over {
		return ds
	}
	counts := map[key]int{}
	out := ds[:0]
	for _, d := range ds {
		k := key{d.File, d.Code}
		counts[k]++
		switch n := counts[k]; {
		case n <= MaxPerCode:
			out = append(out, d)
		case n == MaxPerCode+1:
			out = append(out, Diagnostic{File: d.File, Severity: d.Severity, Code: d.Code, Range: d.Range,
				Message: fmt.Sprintf("%d more %s diagnostics in this file are not reported one by one (at most %d of each code per file are)", seen[k]-MaxPerCode, d.Code, MaxPerCode)})
		}
	}
	return out
}
