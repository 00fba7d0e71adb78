package diag

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestSARIFStreamedIsTheDocument: writing the results one at a time gives,
// byte for byte, the document json.Encoder writes whole (two-space indent,
// HTML unescaped): with no result, one, and several with related
// locations, fixes and text an HTML escaper would change.
func TestSARIFStreamedIsTheDocument(t *testing.T) {
	res := func(i int) sarifResult {
		id := 1
		return sarifResult{RuleID: "WF102", RuleIndex: i, Level: "error", Message: sarifText{"unknown type `<T>` & more"},
			Locations:           []sarifLocation{{PhysicalLocation: sarifPhysical{ArtifactLocation: sarifArtifact{"a.wf"}, Region: region(Range{})}}},
			RelatedLocations:    []sarifLocation{{ID: &id, Message: &sarifText{"first here"}}},
			PartialFingerprints: map[string]string{fingerprintKey: "x:1"},
			Fixes:               []sarifFix{{Description: sarifText{"write `>`"}}}}
	}
	for _, n := range []int{0, 1, 3} {
		var results []sarifResult
		for i := range n {
			results = append(results, res(i))
		}
		run := sarifRun{ColumnKind: "unicodeCodePoints", Results: []sarifResult{}, Invocations: []sarifInvocation{{ExecutionSuccessful: true}}}
		run.Tool.Driver = sarifDriver{Name: "wfc"}
		whole := run
		whole.Results = append([]sarifResult{}, results...)
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(sarifLog{Schema: "s", Version: "2.1.0", Runs: []sarifRun{whole}}); err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := writeStreamed(&got, sarifLog{Schema: "s", Version: "2.1.0", Runs: []sarifRun{run}}, results); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("%d results: streamed\n%s\nwhole\n%s", n, got.String(), want.String())
		}
	}
}
