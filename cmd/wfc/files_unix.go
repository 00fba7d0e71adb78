//go:build unix

package main

import (
	"io/fs"
	"os"
	"syscall"
)

// fileKey identifies a file by device and inode, so that one file named two
// ways (`a.wf ./a.wf`, a directory and a file inside it, a symlink and its
// target) is read once.
type fileKey struct{ dev, ino uint64 }

// keyOf returns info's identity; ok is false where the OS gives none.
func keyOf(info fs.FileInfo) (k fileKey, ok bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return fileKey{}, false
	}
	return fileKey{uint64(st.Dev), uint64(st.Ino)}, true //nolint:unconvert // widths differ by platform
}

// links is the number of hard links to the file (1 where the OS cannot tell).
func links(info fs.FileInfo) uint64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink) //nolint:unconvert // widths differ by platform
	}
	return 1
}

// keepOwner gives f the owner and group of info, so a file fixed by root
// stays its owner's.
func keepOwner(f *os.File, info fs.FileInfo) error {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	return f.Chown(int(st.Uid), int(st.Gid))
}
