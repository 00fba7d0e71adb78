package check

import "testing"

func TestSuggest(t *testing.T) {
	tests := []struct {
		name  string
		cands []string
		want  string
	}{
		{"Strat", []string{"Start", "Stop"}, "Start"},
		{"Runing", []string{"Running", "Queued"}, "Running"},
		{"FromSecs", []string{"FromDays", "FromSeconds", "FromMinutes"}, "FromSeconds"},
		{"Xyz", []string{"Start"}, ""},
		{"Start", []string{"Start"}, ""},
	}
	for _, tt := range tests {
		if got := closest(tt.name, tt.cands); got != tt.want {
			t.Errorf("closest(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestClosestLeavesCandidates: candidates are often package-level tables
// shared by concurrent checks (milestoneSettings), so closest must not sort
// or otherwise modify them. (A race detector run can miss this: fmt's
// buffer pool orders the goroutines of concurrent checks.)
func TestClosestLeavesCandidates(t *testing.T) {
	cands := []string{"Within", "Retries", "Backoff"}
	closest("Retires", cands)
	if cands[0] != "Within" || cands[1] != "Retries" || cands[2] != "Backoff" {
		t.Errorf("closest reordered its candidates: %v", cands)
	}
	if got := closest("Ab", []string{"Ac", "Aa"}); got != "Aa" {
		t.Errorf("a tie goes to the alphabetically first: got %q", got)
	}
}
