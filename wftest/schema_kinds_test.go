package wftest_test

import (
	"encoding/json"
	"os"
	"slices"
	"testing"

	"github.com/wfc-lang/wfc/wftest"
)

// TestSchemaItemKinds: docs/schema/test.schema.json allows every kind of
// coverage item wfc test writes, and no other (the schema once lacked
// step-cancelled and catch, so --format json -cover broke it).
func TestSchemaItemKinds(t *testing.T) {
	b, err := os.ReadFile("../docs/schema/test.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Defs struct {
			Item struct {
				Properties struct {
					Kind struct {
						Enum []string `json:"enum"`
					} `json:"kind"`
				} `json:"properties"`
			} `json:"item"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for k := wftest.ItemKind(1); ; k++ {
		name := k.String()
		if name == "" || name[0] == 'I' { // ItemKind(n): past the last kind
			break
		}
		kinds = append(kinds, name)
	}
	if len(kinds) < 10 {
		t.Fatalf("only %d kinds: %v", len(kinds), kinds)
	}
	got := slices.Sorted(slices.Values(doc.Defs.Item.Properties.Kind.Enum))
	slices.Sort(kinds)
	if !slices.Equal(got, kinds) {
		t.Errorf("the schema's coverage kinds are %v, wfc test writes %v", got, kinds)
	}
}
