package wfctemporal

import (
	"bytes"
	"encoding/json"
	"sort"
	"testing"

	commonpb "go.temporal.io/api/common/v1"
	"google.golang.org/protobuf/encoding/protojson"

	export "github.com/wfc-lang/wfc/codegen/temporal"
)

// TestJSONIsTheAPIForm: every retryPolicy that `wfc export temporal`
// writes for testdata parses as Temporal's API message (protojson, which
// rejects unknown fields and malformed durations) into the same values
// as the Go API returns.
func TestJSONIsTheAPIForm(t *testing.T) {
	progs := programs(t)
	keys := make([]string, 0, len(progs))
	for k := range progs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	n := 0
	for _, key := range keys {
		es := lowerExport(progs[key])
		var b bytes.Buffer
		if err := export.WriteJSON(&b, es); err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Entries []struct {
				RetryPolicy json.RawMessage `json:"retryPolicy"`
			} `json:"entries"`
		}
		if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		for i, je := range doc.Entries {
			if !es[i].Step {
				continue
			}
			n++
			var pb commonpb.RetryPolicy
			if err := protojson.Unmarshal(je.RetryPolicy, &pb); err != nil {
				t.Fatalf("%s: %s: %v", key, je.RetryPolicy, err)
			}
			want := RetryPolicy(es[i])
			if pb.GetInitialInterval().AsDuration() != want.InitialInterval ||
				pb.GetBackoffCoefficient() != want.BackoffCoefficient ||
				pb.GetMaximumInterval().AsDuration() != want.MaximumInterval ||
				pb.GetMaximumAttempts() != want.MaximumAttempts {
				t.Errorf("%s: JSON %s reads as %v, the Go API says %+v", key, je.RetryPolicy, &pb, want)
			}
		}
	}
	if n < 10 {
		t.Fatalf("only %d steps", n)
	}
}
