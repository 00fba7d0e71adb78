package cache

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
)

// BuildIdentity tells this build of wfc from every other whose output may
// differ: a released version, or a clean VCS revision, names it (so a CI
// cache restored into a fresh install of the same version hits); any other
// build (modified sources, `go run`, a test binary) is named by its
// executable's path, size and modification time, so a rebuild never reads
// its predecessor's entries.
func BuildIdentity() (string, bool) {
	id := runtime.GOOS + "/" + runtime.GOARCH + " " + runtime.Version()
	bi, _ := debug.ReadBuildInfo() // nil without build information
	if name, ok := releaseName(bi); ok {
		return id + " " + name, true
	}
	exe, err := os.Executable()
	if err != nil {
		return "", false
	}
	info, err := os.Stat(exe)
	if err != nil {
		return "", false
	}
	return fmt.Sprintf("%s exe %q %d %d", id, exe, info.Size(), info.ModTime().UnixNano()), true
}

// releaseName names a build by what it was built from, when that says
// all: a module version that is not a development or dirty one, or a VCS
// revision without local changes. false: the build must be named by its
// executable (bi nil: no build information).
func releaseName(bi *debug.BuildInfo) (string, bool) {
	if bi == nil {
		return "", false
	}
	v := bi.Main.Version
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	switch {
	case v != "" && v != "(devel)" && !strings.Contains(v, "dirty") && modified != "true":
		return "module " + v, true
	case rev != "" && modified == "false":
		return "vcs " + rev, true
	}
	return "", false
}
