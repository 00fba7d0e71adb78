//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package cache

import (
	"errors"
	"os"
	"syscall"
)

// lockWriter locks a temporary file being written, for as long as it stays
// open: the system releases the lock when the writer closes the file or
// dies, however it dies (SIGKILL included).
func lockWriter(f *os.File) {
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
}

// writerGone reports whether no process holds f's writer lock: known is
// false where locks cannot be had (some network file systems).
func writerGone(f *os.File) (gone, known bool) {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	switch {
	case err == nil:
		return true, true // held until f is closed
	case errors.Is(err, syscall.EWOULDBLOCK):
		return false, true
	}
	return false, false
}
