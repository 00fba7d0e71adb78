package safefile

import (
	"errors"
	"strings"
	"testing"
)

// ReadSized reads the whole input whatever the size it was told (a file
// that grew or shrank since its stat), and a file of the size it was told
// in one allocation: 100,000 small files once made half of their reading's
// garbage in io.ReadAll's doubling.
func TestReadSized(t *testing.T) {
	for _, tt := range []struct {
		src  string
		size int64
	}{
		{"", 0}, {"workflow W { }", 14}, {"workflow W { }", 3}, {"workflow W { }", 100},
		{strings.Repeat("x", 5000), 5000}, {strings.Repeat("x", 5000), 0}, {"a", -1},
	} {
		b, err := ReadSized(strings.NewReader(tt.src), tt.size, 1<<20)
		if err != nil || string(b) != tt.src {
			t.Errorf("ReadSized(%d bytes, told %d) = %d bytes, %v", len(tt.src), tt.size, len(b), err)
		}
	}
	// Past the limit, whatever the size it was told.
	for _, size := range []int64{0, 10, 11, 1000} {
		if _, err := ReadSized(strings.NewReader(strings.Repeat("x", 11)), size, 10); !errors.As(err, new(TooLargeError)) {
			t.Errorf("11 bytes, limit 10, told %d: %v, want TooLargeError", size, err)
		}
	}
	src := strings.Repeat("x", 111)
	r := strings.NewReader(src)
	if n := testing.AllocsPerRun(100, func() {
		r.Reset(src)
		if _, err := ReadSized(r, int64(len(src)), 1<<20); err != nil {
			t.Fatal(err)
		}
	}); n > 2 {
		t.Errorf("%v allocations to read 111 bytes of known size, want at most 2", n)
	}
}
