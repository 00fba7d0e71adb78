package check_test

import (
	"fmt"
	"testing"

	"github.com/wfc-lang/wfc/check"
)

// BenchmarkUnknownGotos: N unknown `goto`s among N states (suggestions).
func BenchmarkUnknownGotos(b *testing.B) {
	for _, n := range []int{1500, 6000} {
		prog := unknownGotos(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				check.Check(prog)
			}
		})
	}
}
