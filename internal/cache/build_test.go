package cache

import (
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
)

// TestReleaseName: a build is named by what it was built from only when
// that says everything about it — a released module version, or a clean
// VCS checkout; a development, dirty or modified build, or one that says
// nothing, is named by its executable instead.
func TestReleaseName(t *testing.T) {
	build := func(version string, settings ...string) *debug.BuildInfo {
		bi := &debug.BuildInfo{Main: debug.Module{Path: "github.com/wfc-lang/wfc", Version: version}}
		for i := 0; i+1 < len(settings); i += 2 {
			bi.Settings = append(bi.Settings, debug.BuildSetting{Key: settings[i], Value: settings[i+1]})
		}
		return bi
	}
	for _, tc := range []struct {
		what string
		bi   *debug.BuildInfo
		want string // "": named by its executable
	}{
		{"no build information", nil, ""},
		{"a released version", build("v1.2.3"), "module v1.2.3"},
		{"a released version, built from a clean checkout", build("v1.2.3", "vcs.revision", "abc", "vcs.modified", "false"), "module v1.2.3"},
		{"a released version with local changes", build("v1.2.3", "vcs.revision", "abc", "vcs.modified", "true"), ""},
		{"a pseudo-version of a dirty tree", build("v1.2.4-0.20260101-abcdef+dirty"), ""},
		{"a development build of a clean checkout", build("(devel)", "vcs.revision", "abc", "vcs.modified", "false"), "vcs abc"},
		{"no version, a clean checkout", build("", "vcs.revision", "abc", "vcs.modified", "false"), "vcs abc"},
		{"a development build with local changes", build("(devel)", "vcs.revision", "abc", "vcs.modified", "true"), ""},
		{"a development build, not knowing whether it is modified", build("(devel)", "vcs.revision", "abc"), ""},
		{"a development build without a revision", build("(devel)", "vcs.modified", "false"), ""},
		{"no version and no VCS (a test binary)", build(""), ""},
	} {
		got, ok := releaseName(tc.bi)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("%s: releaseName = %q, %v; want %q, %v", tc.what, got, ok, tc.want, tc.want != "")
		}
	}
}

// TestBuildIdentity: this test binary is no release, so it is named by
// its executable: its path, size and modification time, which change
// with every rebuild.
func TestBuildIdentity(t *testing.T) {
	id, ok := BuildIdentity()
	if !ok {
		t.Fatal("no identity for the test binary")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	info, err := os.Stat(exe)
	if err != nil {
		t.Skip(err)
	}
	for _, part := range []string{" exe " + strconv.Quote(exe) + " ", " " + strconv.FormatInt(info.Size(), 10) + " ", strconv.FormatInt(info.ModTime().UnixNano(), 10)} {
		if !strings.Contains(id, part) {
			t.Errorf("identity %q does not hold %q", id, part)
		}
	}
	if again, _ := BuildIdentity(); again != id {
		t.Errorf("two identities of one build: %q and %q", id, again)
	}
}
