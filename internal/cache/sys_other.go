//go:build !unix

package cache

import "io/fs"

// oNonblock: opening a file never blocks here (named pipes are not files).
const oNonblock = 0

// privateDir and privateFile check nothing where files have no Unix owner
// and mode (Windows: the default directory, under %LocalAppData%, is the
// user's own).
func privateDir(fs.FileInfo) string  { return "" }
func privateFile(fs.FileInfo) string { return "" }

// diskUse is the disk a file uses, counted in 4 KiB blocks where the system
// does not say.
func diskUse(info fs.FileInfo) int64 { return roundToBlock(info.Size()) }
