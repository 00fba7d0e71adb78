package suggest

import (
	"fmt"
	"strings"
	"testing"
)

func TestDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b  string
		limit int
		want  int
	}{
		{"start", "start", 2, 0},
		{"strat", "start", 2, 1}, // a transposition is one edit (Levenshtein counts two)
		{"stat", "start", 2, 1},
		{"starts", "start", 2, 1},
		{"sbart", "start", 2, 1},
		{"abc", "xyz", 2, 3}, // past the limit: limit+1
		{"", "abc", 5, 3},
		{"événement", "evenement", 3, 2},                         // code points, not bytes
		{strings.Repeat("a", 65), strings.Repeat("a", 65), 2, 3}, // too long to compare
	} {
		if got := Distance(tt.a, tt.b, tt.limit); got != tt.want {
			t.Errorf("Distance(%q, %q, %d) = %d, want %d", tt.a, tt.b, tt.limit, got, tt.want)
		}
	}
}

func TestClosest(t *testing.T) {
	for _, tt := range []struct {
		name  string
		cands []string
		want  string
	}{
		{"Withn", []string{"Within", "Retries", "Backoff"}, "Within"},
		{"FromSecs", []string{"FromSeconds", "FromMinutes"}, "FromSeconds"}, // the longer common prefix wins a tie
		{"Sku", []string{"SkuKind", "Order"}, "SkuKind"},                    // a clipped name
		{"Retry", []string{"Within", "Retries", "Backoff"}, "Retries"},      // all but its last letter begin it
		{"Kind", []string{"SkuKind", "Order"}, "SkuKind"},                   // contained
		{"Packing", []string{"Packed", "Shipped"}, "Packed"},                // one stem
		{"Xy", []string{"Xylophone"}, ""},                                   // too short to extend
		{"Zebra", []string{"Within", "Retries"}, ""},
		{"Within", []string{"Within"}, ""}, // the name itself is no suggestion
	} {
		if got := Closest(tt.name, tt.cands); got != tt.want {
			t.Errorf("Closest(%q, %v) = %q, want %q", tt.name, tt.cands, got, tt.want)
		}
	}
}

// A suggestion costs a bounded amount of work however many candidates
// there are, and a repeated question is answered from memory.
func TestSetBounded(t *testing.T) {
	var names []string
	for i := range 100000 {
		names = append(names, fmt.Sprintf("S%06d", i))
	}
	s := NewSet(names)
	if got := s.Closest("T000001"); got != "" && !strings.HasPrefix(got, "S") {
		t.Fatalf("Closest = %q", got)
	}
	if len(s.Names()) != len(names) {
		t.Fatalf("%d names, want %d", len(s.Names()), len(names))
	}
}
