package interp_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/wfc-lang/wfc/interp"
)

// TestTypedArgument: an argument's source form reads as the typed value
// JSON writes, decimals keeping their exact text.
func TestTypedArgument(t *testing.T) {
	for _, c := range []struct {
		text, typ string
		value     any
	}{
		{`"hi"`, "string", "hi"},
		{`"a \"q\""`, "string", `a "q"`},
		{`""`, "string", ""},
		{"42", "int", json.Number("42")},
		{"-7", "int", json.Number("-7")},
		{"99999999999999999999", "decimal", "99999999999999999999"},
		{"49.90", "decimal", "49.90"},
		{"-0.5", "decimal", "-0.5"},
		{"true", "bool", true},
		{"false", "bool", false},
		{"Ok", "name", "Ok"},
		{"Decision.Ok", "name", "Decision.Ok"},
		{"1.", "name", "1."},
		{".5", "name", ".5"},
		{"-", "name", "-"},
	} {
		got := interp.TypedArgument(c.text)
		if got.Type != c.typ || got.Value != c.value {
			t.Errorf("%s: %s %#v, want %s %#v", c.text, got.Type, got.Value, c.typ, c.value)
		}
	}
}

// TestEntryJSON: an entry's JSON names its times' unit and types its
// arguments, beside version 2's fields; it reads back whole, from this
// release's JSON and from version 2's alone, the named fields winning.
func TestEntryJSON(t *testing.T) {
	e := interp.Entry{At: 600_000_000, Due: 500_000_000, Held: true, Kind: interp.KCall, Wait: 30, Until: 40,
		Name: "Pay.Charge", Args: []string{`"x"`, "49.90", "Ok", "3"}}
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"at_ticks":600000000`, `"due_ticks":500000000`, `"wait_ticks":30`, `"until_ticks":40`,
		`"at":600000000`, `"due":500000000`, `"wait":30`, `"until":40`,
		`"arguments":[{"type":"string","value":"x"},{"type":"decimal","value":"49.90"},{"type":"name","value":"Ok"},{"type":"int","value":3}]`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the JSON has no %s:\n%s", want, b)
		}
	}
	var back interp.Entry
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(e, back); diff != "" {
		t.Errorf("read back (-want +got):\n%s", diff)
	}
	var old interp.Entry
	if err := json.Unmarshal([]byte(`{"at":7,"due":6,"kind":"wait","wait":5,"until":9}`), &old); err != nil {
		t.Fatal(err)
	}
	if old.At != 7 || old.Due != 6 || old.Wait != 5 || old.Until != 9 || old.Kind != interp.KWait {
		t.Errorf("version 2's JSON read as %+v", old)
	}
	var both interp.Entry
	if err := json.Unmarshal([]byte(`{"at":7,"at_ticks":8,"due":6,"due_ticks":8,"kind":"start"}`), &both); err != nil {
		t.Fatal(err)
	}
	if both.At != 8 || both.Due != 8 {
		t.Errorf("the named fields did not win: %+v", both)
	}
	zero, _ := json.Marshal(interp.Entry{Kind: interp.KStart})
	if strings.Contains(string(zero), "wait_ticks") || strings.Contains(string(zero), "until_ticks") || strings.Contains(string(zero), "arguments") {
		t.Errorf("an entry without a wait, an end or arguments writes them: %s", zero)
	}
}
