//go:build unix

package cache

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// oNonblock opens without blocking: opening a FIFO with no writer waits for
// ever otherwise. Regular files read as usual.
const oNonblock = syscall.O_NONBLOCK

// privateDir says why the cache directory info is not the user's alone
// ("" when it is): another user owns it, or others may write to it.
func privateDir(info fs.FileInfo) string {
	if why := owner(info); why != "" {
		return why
	}
	if perm := info.Mode().Perm(); perm&0o022 != 0 {
		return fmt.Sprintf("others can write to it (mode %04o): it must be writable by its owner alone", perm)
	}
	return ""
}

// privateFile says why the secret's file info is not the user's alone.
func privateFile(info fs.FileInfo) string {
	if why := owner(info); why != "" {
		return why
	}
	if perm := info.Mode().Perm(); perm&0o077 != 0 {
		return fmt.Sprintf("can be read or written by others (mode %04o): it must be 0600", perm)
	}
	return ""
}

func owner(info fs.FileInfo) string {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return ""
	}
	if uid := os.Geteuid(); int64(st.Uid) != int64(uid) {
		return fmt.Sprintf("owned by another user (uid %d), not by you (uid %d)", st.Uid, uid)
	}
	return ""
}

// diskUse is the disk a file uses: its blocks, which for a small entry are
// many times its length (a 200-byte entry takes a 4 KiB block).
func diskUse(info fs.FileInfo) int64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return int64(st.Blocks) * 512 //nolint:unconvert // widths differ by platform
	}
	return roundToBlock(info.Size())
}
