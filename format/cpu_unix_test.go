//go:build unix

package format

import (
	"syscall"
	"testing"
	"time"
)

// cpuTime is the CPU time the process has used (user and system): on a
// shared machine it measures the work, where wall time measures the queue.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
