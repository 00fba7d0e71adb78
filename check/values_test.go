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

// TestQuoteList: names in messages, with the list cut short past
// listedNames (a message must not grow with the program).
func TestQuoteList(t *testing.T) {
	many := []string{"A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L"}
	for _, tt := range []struct {
		xs   []string
		want string
	}{
		{[]string{"A"}, "`A`"},
		{[]string{"A", "B"}, "`A` and `B`"},
		{[]string{"A", "B", "C"}, "`A`, `B` and `C`"},
		{many, "`A`, `B`, `C`, `D`, `E`, `F`, `G`, `H`, `I`, `J` and 2 more"},
	} {
		if got := quoteList(tt.xs); got != tt.want {
			t.Errorf("quoteList(%v) = %q, want %q", tt.xs, got, tt.want)
		}
	}
	if got := orList([]string{"A", "B", "C"}); got != "`A`, `B` or `C`" {
		t.Errorf("orList: %q", got)
	}
}
