//go:build !unix

package format

import (
	"testing"
	"time"
)

// cpuTime is not measured here: the benchmark reports wall time only.
func cpuTime(*testing.B) time.Duration { return 0 }
