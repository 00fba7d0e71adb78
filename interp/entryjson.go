package interp

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/wfc-lang/wfc/lexer"
)

// JSON units (docs/language.md, "JSON output"): every time or duration in
// wfc's JSON names its unit in its field name (`at_ticks`, `wait_ms`,
// `elapsed_ms`), and a call's arguments are typed values. A transcript
// entry's unlabelled `at`, `due`, `wait` and `until` (ticks) and its
// `args` (source text) are the version-2 fields, still written in this
// release beside the new ones and to be dropped in the next.

// entryFields is Entry without its methods: its fields, with their tags.
type entryFields Entry

// entryJSON is an entry as its JSON has it.
type entryJSON struct {
	entryFields
	AtTicks    Ticks      `json:"at_ticks"`
	DueTicks   Ticks      `json:"due_ticks"`
	WaitTicks  *Ticks     `json:"wait_ticks,omitempty"`
	UntilTicks *Ticks     `json:"until_ticks,omitempty"`
	Arguments  []Argument `json:"arguments,omitempty"`
}

// Argument is a call's or an event's argument as JSON writes it: its type
// and its value.
type Argument struct {
	// Type is "string", "int", "decimal", "bool", or "name" (an enum
	// member as written, qualified or not, or another name).
	Type string `json:"type"`
	// Value is the string's value (unquoted), the int as a JSON number,
	// the decimal's exact text, the bool, or the name.
	Value any `json:"value"`
}

// TypedArgument reads an argument's source form (Entry.Args) as a typed
// value.
func TypedArgument(text string) Argument {
	switch {
	case strings.HasPrefix(text, `"`):
		return Argument{"string", lexer.Unquote(text)}
	case text == "true" || text == "false":
		return Argument{"bool", text == "true"}
	}
	digits := strings.TrimPrefix(text, "-")
	if digits != "" && strings.Trim(digits, "0123456789") == "" {
		if _, err := strconv.ParseInt(text, 10, 64); err == nil {
			return Argument{"int", json.Number(text)}
		}
		return Argument{"decimal", text}
	}
	if whole, frac, ok := strings.Cut(digits, "."); ok && whole != "" && frac != "" &&
		strings.Trim(whole, "0123456789") == "" && strings.Trim(frac, "0123456789") == "" {
		return Argument{"decimal", text}
	}
	return Argument{"name", text}
}

// MarshalJSON writes the entry with its times in ticks under named
// fields, and its arguments typed, beside the version-2 fields.
func (e Entry) MarshalJSON() ([]byte, error) {
	j := entryJSON{entryFields: entryFields(e), AtTicks: e.At, DueTicks: e.Due}
	if e.Wait != 0 {
		j.WaitTicks = &j.entryFields.Wait
	}
	if e.Until != 0 {
		j.UntilTicks = &j.entryFields.Until
	}
	for _, a := range e.Args {
		j.Arguments = append(j.Arguments, TypedArgument(a))
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads an entry written by this release or the last: the
// named fields win over the version-2 ones when both are there.
func (e *Entry) UnmarshalJSON(b []byte) error {
	var j struct {
		entryFields
		AtTicks    *Ticks `json:"at_ticks"`
		DueTicks   *Ticks `json:"due_ticks"`
		WaitTicks  *Ticks `json:"wait_ticks"`
		UntilTicks *Ticks `json:"until_ticks"`
	}
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*e = Entry(j.entryFields)
	for _, f := range []struct {
		from *Ticks
		to   *Ticks
	}{{j.AtTicks, &e.At}, {j.DueTicks, &e.Due}, {j.WaitTicks, &e.Wait}, {j.UntilTicks, &e.Until}} {
		if f.from != nil {
			*f.to = *f.from
		}
	}
	return nil
}
