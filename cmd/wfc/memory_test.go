package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/internal/scaling"
	"github.com/wfc-lang/wfc/parser"
)

func TestNextLimit(t *testing.T) {
	const mb = 1 << 20
	tests := []struct{ limit, live, prev, want int64 }{
		{300 * mb, 100 * mb, 100 * mb, 300 * mb}, // far below: the limit holds
		{300 * mb, 225 * mb, 225 * mb, 300 * mb}, // exactly 75%: still holds
		{300 * mb, 226 * mb, 230 * mb, 452 * mb}, // past 75% twice: twice the live heap
		{300 * mb, 900 * mb, 800 * mb, 1600 * mb},
		{300 * mb, 280 * mb, 150 * mb, 300 * mb}, // once only: a slow mark, not a larger heap
		{300 * mb, 150 * mb, 280 * mb, 300 * mb},
	}
	for _, tt := range tests {
		if got := nextLimit(tt.limit, tt.live, tt.prev); got != tt.want {
			t.Errorf("nextLimit(%d MB, %d MB, %d MB) = %d MB, want %d MB", tt.limit/mb, tt.live/mb, tt.prev/mb, got/mb, tt.want/mb)
		}
	}
}

// enumProgram is one enum of n members, one per line: its live heap is
// about 40 bytes per input byte, more than the limit allows, so the limit
// must step aside rather than thrash.
func enumProgram(n int) *loaded {
	var b strings.Builder
	b.WriteString("enum E {\n")
	for i := range n {
		fmt.Fprintf(&b, "  M%d,\n", i)
	}
	b.WriteString("  Last\n}\n")
	src := b.String()
	return &loaded{sources: []parser.Source{{Name: "e.wf", Src: src}}, bytes: diag.Sources{"e.wf": src}, order: []string{"e.wf"}}
}

// TestMemoryLimitDoesNotThrash: under the command's memory settings, a
// program whose live heap passes the limit still checks in linear time.
func TestMemoryLimitDoesNotThrash(t *testing.T) {
	if testing.Short() {
		t.Skip("a million enum members")
	}
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	scaling.Linear(t, "enum members under the memory limit", func(n int) {
		l := enumProgram(n)
		restore := limitMemory(l)
		analyze(l)
		restore()
	}, 250000)
}
