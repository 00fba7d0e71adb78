package main

import (
	"io"
	"os"
	"runtime/pprof"
)

// profileCPU writes a CPU profile of the whole run to path when path is
// not empty (WFC_CPUPROFILE, docs/limits.md): what scripts/pgo.sh turns
// into cmd/wfc/default.pgo, the profile the compiler optimizes the command
// with. The returned function ends the profile. A profile that cannot be
// written is one line on stderr, never a failed run.
func profileCPU(path string, stderr io.Writer) (stop func()) {
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		notef(stderr, "WFC_CPUPROFILE: %v", err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		notef(stderr, "WFC_CPUPROFILE: %v", err)
		f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			notef(stderr, "WFC_CPUPROFILE: %v", err)
		}
	}
}
