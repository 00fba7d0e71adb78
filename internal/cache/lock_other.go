//go:build !(darwin || dragonfly || freebsd || linux || netbsd || openbsd)

package cache

import "os"

// Without flock, a temporary file's writer cannot be told alive or dead:
// the sweep goes by age alone (staleTemp).
func lockWriter(*os.File)                    {}
func writerGone(*os.File) (gone, known bool) { return false, false }
