// Package settings reads a project's settings for wfc: which warnings to
// turn off or up for a whole project, without a `// wfc:ignore` comment in
// every file. They live in a file named wfc.json; the nearest one in a
// file's directory or above it governs that file. The command line and the
// language server both use this package and pass the result to the pipeline
// (pipeline.Options.Settings), so they agree.
//
// The file (JSON Schema: docs/schema/settings.schema.json):
//
//	{
//	  "$schema": "https://github.com/wfc-lang/wfc/docs/schema/settings.schema.json",
//	  "disable": ["WF203"],
//	  "error": ["WF201", "WF312"]
//	}
//
// Only warnings can be named: an error cannot be disabled, and is already an
// error.
package settings

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/wfc-lang/wfc/diag"
)

// FileName is the name of a settings file.
const FileName = "wfc.json"

// maxFileSize bounds a settings file: it names a few dozen codes.
const maxFileSize = 1 << 20

// file is the JSON form of a settings file.
type file struct {
	Schema  string   `json:"$schema,omitempty"`
	Disable []string `json:"disable,omitempty"`
	Error   []string `json:"error,omitempty"`
}

// Parse reads the text of a settings file. name is only used in errors.
func Parse(name string, b []byte) (diag.Settings, error) {
	var f file
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return diag.Settings{}, fmt.Errorf("%s: %v (see docs/schema/settings.schema.json)", name, err)
	}
	if dec.More() {
		return diag.Settings{}, fmt.Errorf("%s: more than one JSON value", name)
	}
	s := diag.Settings{Disable: map[diag.ID]bool{}, Error: map[diag.ID]bool{}}
	if err := addCodes(s.Disable, f.Disable); err != nil {
		return diag.Settings{}, fmt.Errorf("%s: \"disable\": %v", name, err)
	}
	if err := addCodes(s.Error, f.Error); err != nil {
		return diag.Settings{}, fmt.Errorf("%s: \"error\": %v", name, err)
	}
	if both := common(s.Disable, s.Error); both != "" {
		return diag.Settings{}, fmt.Errorf("%s: %s is both disabled and made an error; name it once", name, both)
	}
	return s, nil
}

// ParseCodes reads a comma-separated list of codes, as given to --disable
// and --error ("WF203,WF312", or "203, 312").
func ParseCodes(list string) ([]diag.ID, error) {
	var codes []diag.ID
	for _, part := range strings.Split(list, ",") {
		c := Normalize(part)
		if c == "" {
			continue
		}
		codes = append(codes, c)
	}
	m := map[diag.ID]bool{}
	if err := addCodes(m, codes); err != nil {
		return nil, err
	}
	return codes, nil
}

// Normalize writes a code the catalogue's way: " wf203" and "203" are WF203.
func Normalize(code string) diag.ID {
	c := strings.ToUpper(strings.TrimSpace(code))
	if c != "" && !strings.HasPrefix(c, "WF") {
		c = "WF" + c
	}
	return diag.ID(c)
}

// addCodes adds codes to m; each must be a catalogued warning.
func addCodes[S ~string](m map[diag.ID]bool, codes []S) error {
	for _, raw := range codes {
		code := Normalize(string(raw))
		c, ok := diag.Lookup(code)
		switch {
		case !ok:
			return fmt.Errorf("%q is not a diagnostic code (`wfc explain` lists them)", raw)
		case c.Severity != diag.Warning:
			return fmt.Errorf("%s is an error; only warnings can be disabled or made errors", code)
		}
		m[code] = true
	}
	return nil
}

// common returns a code in both sets, the smallest, or "".
func common(a, b map[diag.ID]bool) diag.ID {
	var both []diag.ID
	for c := range a {
		if b[c] {
			both = append(both, c)
		}
	}
	slices.Sort(both)
	if len(both) == 0 {
		return ""
	}
	return both[0]
}

// Override applies settings given on the command line on top of a file's:
// a code named by the override leaves the other set.
func Override(base, over diag.Settings) diag.Settings {
	out := diag.Settings{Disable: map[diag.ID]bool{}, Error: map[diag.ID]bool{}}
	for c := range base.Disable {
		if !over.Error[c] {
			out.Disable[c] = true
		}
	}
	for c := range base.Error {
		if !over.Disable[c] {
			out.Error[c] = true
		}
	}
	for c := range over.Disable {
		out.Disable[c] = true
	}
	for c := range over.Error {
		out.Error[c] = true
	}
	return out
}

// Finder finds the settings file that governs each source file, reading
// each settings file once. It is safe for concurrent use.
type Finder struct {
	mu    sync.Mutex
	byDir map[string]found
}

// found is what a directory's search ended with.
type found struct {
	path string // the settings file, or "" when there is none
	s    diag.Settings
	err  error
}

// NewFinder returns a Finder with an empty cache.
func NewFinder() *Finder { return &Finder{byDir: map[string]found{}} }

// For returns the settings of a source file, the path of the settings file
// that governs it ("" when none does) and any error reading that file.
// A file named like standard input ("<stdin>") is governed from the working
// directory.
func (f *Finder) For(source string) (diag.Settings, string, error) {
	abs, err := filepath.Abs(source)
	if err != nil {
		return diag.Settings{}, "", err
	}
	r := f.search(filepath.Dir(abs))
	return r.s, r.path, r.err
}

// search looks for FileName in dir and above it.
func (f *Finder) search(dir string) found {
	f.mu.Lock()
	r, ok := f.byDir[dir]
	f.mu.Unlock()
	if ok {
		return r
	}
	p := filepath.Join(dir, FileName)
	b, err := readSmall(p)
	switch {
	case err == nil:
		s, perr := Parse(p, b)
		r = found{path: p, s: s, err: perr}
	case errors.Is(err, fs.ErrNotExist):
		if parent := filepath.Dir(dir); parent != dir {
			r = f.search(parent)
		}
	default:
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		r = found{path: p, err: fmt.Errorf("cannot read %s: %v", p, err)}
	}
	f.mu.Lock()
	f.byDir[dir] = r
	f.mu.Unlock()
	return r
}

// readSmall reads a regular file of at most maxFileSize bytes.
func readSmall(p string) ([]byte, error) {
	info, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	if info.Size() > maxFileSize {
		return nil, fmt.Errorf("larger than %d bytes", maxFileSize)
	}
	return os.ReadFile(p)
}
