package diag

import (
	"fmt"
	"strings"
)

// Ignore is a `// wfc:ignore CODE… reason` comment. On a line of its own it
// silences its codes on the next line; at the end of a line (Trailing), on
// that line.
type Ignore struct {
	File     string
	Range    Range // the comment
	Codes    []string
	Trailing bool
	Cut      Range // what removing the comment deletes: its line, or the comment and the space before it
}

// line is the line whose diagnostics the comment silences.
func (ig Ignore) line() int32 {
	if ig.Trailing {
		return ig.Range.Start.Line
	}
	return ig.Range.Start.Line + 1
}

// Suppress drops the warnings that an ignore comment silences (a diagnostic
// silenced is one whose range starts on the ignore's line, with a code it
// names) and reports each ignore that silences nothing as WF317, with a fix
// that deletes it. Errors cannot be ignored: an ignore naming one is WF317
// too, and says so.
func Suppress(ds []Diagnostic, ignores []Ignore, isError func(code string) bool) []Diagnostic {
	if len(ignores) == 0 {
		return ds
	}
	type key struct {
		file string
		line int32
		code string
	}
	at := map[key][]int{} // ignore indices by what they silence
	for i, ig := range ignores {
		for _, c := range ig.Codes {
			k := key{ig.File, ig.line(), c}
			at[k] = append(at[k], i)
		}
	}
	used := make([]bool, len(ignores))
	out := ds[:0:0]
	for _, d := range ds {
		if d.Severity == Warning && d.Code != "WF317" {
			if idx, ok := at[key{d.File, d.Range.Start.Line, d.Code}]; ok {
				for _, i := range idx {
					used[i] = true
				}
				continue
			}
		}
		out = append(out, d)
	}
	for i, ig := range ignores {
		if used[i] {
			continue
		}
		var msg string
		var errs []string
		for _, c := range ig.Codes {
			if isError(c) {
				errs = append(errs, "`"+c+"`")
			}
		}
		switch {
		case len(ig.Codes) == 0:
			msg = "this `wfc:ignore` names no code: write `// wfc:ignore WF312 reason`"
		case len(errs) > 0:
			msg = fmt.Sprintf("this `wfc:ignore` silences nothing: %s %s an error, and errors cannot be ignored; fix the error instead", strings.Join(errs, ", "), map[bool]string{true: "is", false: "are"}[len(errs) == 1])
		default:
			where := "the next line"
			if ig.Trailing {
				where = "this line"
			}
			msg = fmt.Sprintf("this `wfc:ignore %s` silences nothing: %s has no such warning; remove the comment", strings.Join(ig.Codes, " "), where)
		}
		out = append(out, Diagnostic{
			File: ig.File, Severity: Warning, Code: "WF317", Message: msg, Range: ig.Range,
			Fixes: []Fix{{Title: "remove the stale `wfc:ignore` comment", MachineApplicable: true,
				Edits: []Edit{{File: ig.File, Range: ig.Cut, NewText: ""}}}},
		})
	}
	return out
}

// Settings are a project's per-file choices about warnings, keyed by code.
// They apply after ignore comments: Disable drops a warning, Error promotes
// a warning to an error. An error code can be neither disabled nor demoted:
// errors mean the program is wrong, whatever the settings.
type Settings struct {
	Disable map[string]bool
	Error   map[string]bool
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
