package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A line break in a --disable or --error value separates codes like a
// comma: pflag's CSV slices used to drop everything after it silently, so
// `--disable "WF203<LF>WF999"` checked clean instead of refusing WF999.
func TestSettingsFlagsLineBreaks(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("WFC_CACHE", filepath.Join(dir, "cache"))
	f := filepath.Join(dir, "a.wf")
	src := "workflow W { Initial = A; event Go();\n  state A { subscribe Go(); on Go { goto B; } }\n  state C { }\n  terminal B { } }\n"
	if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, flag := range []string{"--disable", "--error"} {
		var out, errb bytes.Buffer
		code := run([]string{"check", flag, "WF204\nWF999", f}, strings.NewReader(""), &out, &errb)
		if code != exitUsage || !strings.Contains(errb.String(), `"WF999" is not a diagnostic code`) {
			t.Errorf("%s with a line break: exit %d, stderr %q; want exit 2 naming WF999", flag, code, errb.String())
		}
	}
	var out, errb bytes.Buffer
	if code := run([]string{"check", "--disable", "WF204\r\nWF201", f}, strings.NewReader(""), &out, &errb); code != exitOK {
		t.Fatalf("exit %d, stderr %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "0 errors, 0 warnings") {
		t.Errorf("both codes should be disabled:\n%s", out.String())
	}
}
