package check

import (
	"fmt"
	"slices"
	"testing"
)

// TestByName: the same answers as a map, below, at and past smallScope
// entries, whether the size was known up front or the table grew.
func TestByName(t *testing.T) {
	for _, n := range []int{0, 1, smallScope, smallScope + 1, 3 * smallScope} {
		for _, hint := range []int{0, n} {
			b := newByName[int](hint)
			want := map[string]int{}
			var names []string
			for i := range n {
				name := fmt.Sprintf("s%02d", n-i) // put out of order: keys sorts
				b.put(name, i+1)
				want[name] = i + 1
				names = append(names, name)
			}
			for name, v := range want {
				if got, ok := b.get(name); !ok || got != v || b.lookup(name) != v {
					t.Errorf("n=%d hint=%d: %s = %d, %v; want %d", n, hint, name, got, ok, v)
				}
			}
			if got, ok := b.get("absent"); ok || got != 0 || b.lookup("absent") != 0 {
				t.Errorf("n=%d hint=%d: absent = %d, %v", n, hint, got, ok)
			}
			slices.Sort(names)
			if got := b.keys(); !slices.Equal(got, names) && (len(got) != 0 || len(names) != 0) {
				t.Errorf("n=%d hint=%d: keys %v, want %v", n, hint, got, names)
			}
		}
	}
}
