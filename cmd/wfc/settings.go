package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"github.com/wfc-lang/wfc/config"
	"github.com/wfc-lang/wfc/diag"
)

// settingsFlags are --disable and --error, which apply on top of each
// file's wfc.json.
type settingsFlags struct {
	disable, error []string
}

func (f *settingsFlags) register(fl *pflag.FlagSet) {
	// StringArray, not StringSlice: pflag reads a slice's value as CSV,
	// which silently drops everything after a line break in it.
	fl.StringArrayVar(&f.disable, "disable", nil, "warnings not to report, comma-separated (WF203,WF312); on top of wfc.json")
	fl.StringArrayVar(&f.error, "error", nil, "warnings to report as errors, comma-separated (WF201); on top of wfc.json")
}

// parse validates the flags: catalogued warnings, none named by both.
func (f *settingsFlags) parse() (diag.Settings, error) {
	s := diag.Settings{Disable: map[diag.ID]bool{}, Error: map[diag.ID]bool{}}
	for _, x := range []struct {
		flag  string
		codes []string
		into  map[diag.ID]bool
	}{{"--disable", f.disable, s.Disable}, {"--error", f.error, s.Error}} {
		codes, err := config.ParseCodes(strings.Join(x.codes, ","))
		if err != nil {
			return s, fmt.Errorf("%s: %v", x.flag, err)
		}
		for _, c := range codes {
			x.into[c] = true
		}
	}
	for c := range s.Disable {
		if s.Error[c] {
			return s, fmt.Errorf("%s is given to both --disable and --error; give it to one", c)
		}
	}
	return s, nil
}

// applySettings finds the wfc.json that governs each loaded file, applies
// the flags on top, and keeps the result for the pipeline. A settings file
// that cannot be read or is invalid is a problem of the run (exit 2),
// named once; its files are checked without it.
func applySettings(l *loaded, over diag.Settings, stderr io.Writer) {
	finder := config.NewFinder()
	bad := map[string]bool{}
	// A file's settings are its directory's (the wfc.json found from
	// there up), so they are kept per directory; and the directories one
	// wfc.json governs share its settings (read-only): 100,000 files hold
	// one copy, not 100,000, and no entry each.
	perDir := map[string]diag.Settings{}
	byPath := map[string]diag.Settings{}
	dirOf := settingsDir()
	for _, name := range l.order {
		dir := dirOf(name)
		if _, ok := perDir[dir]; ok {
			continue
		}
		s, path, err := finder.For(name)
		if err != nil {
			if !bad[path] {
				bad[path] = true
				l.notify(stderr, path, err.Error())
			}
			s = diag.Settings{}
		}
		got, ok := byPath[path]
		if !ok {
			got = config.Override(s, over)
			byPath[path] = got
		}
		perDir[dir] = got
	}
	l.settings = func(file string) diag.Settings { return perDir[dirOf(file)] }
}

// settingsDir returns the directory the settings finder searches from for
// a file name (config.SearchDir), with the working directory read once.
func settingsDir() func(name string) string {
	cwd, _ := os.Getwd()
	return func(name string) string { return config.SearchDir(cwd, name) }
}
