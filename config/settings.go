// Package config reads a project's settings for wfc: which warnings to
// turn off or up for a whole project, without a `// wfc:ignore` comment in
// every file. They live in a file named wfc.json; the nearest one in a
// file's directory or above it governs that file. The command line and the
// language server both use this package and pass the result to the pipeline
// (wfc.Options.Settings), so they agree.
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
package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"unicode"

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
// It is as strict as the schema (docs/schema/settings.schema.json): the
// keys are spelled exactly ("DISABLE" is not "disable"), each at most
// once, the lists are arrays (not null) of codes (`WF203`; `wf203` and
// `203` are read as WF203, as on the command line), with no code twice;
// anything else is an error that names what is wrong, never a
// setting silently dropped.
func Parse(name string, b []byte) (diag.Settings, error) {
	f, err := decodeStrict(b)
	if err != nil {
		return diag.Settings{}, fmt.Errorf("%s: %v (see docs/schema/settings.schema.json)", name, err)
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

// decodeStrict reads a settings file token by token: encoding/json alone
// matches keys without regard to case, keeps the last of duplicate keys
// and accepts null for a list.
func decodeStrict(b []byte) (file, error) {
	var f file
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil {
		return f, err
	} else if t != json.Delim('{') {
		return f, fmt.Errorf("the settings are a JSON object, not %s", tokenText(t))
	}
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return f, err
		}
		key := t.(string) // object keys are strings
		if seen[key] {
			return f, fmt.Errorf("%q is given twice", key)
		}
		seen[key] = true
		switch key {
		case "$schema":
			v, err := dec.Token()
			if err != nil {
				return f, err
			}
			str, ok := v.(string)
			if !ok {
				return f, fmt.Errorf("\"$schema\" is a string, not %s", tokenText(v))
			}
			f.Schema = str
		case "disable", "error":
			list, err := stringList(dec, key)
			if err != nil {
				return f, err
			}
			if key == "disable" {
				f.Disable = list
			} else {
				f.Error = list
			}
		default:
			if k := strings.ToLower(key); k == "disable" || k == "error" || k == "$schema" {
				return f, fmt.Errorf("unknown key %q: keys are written in lower case, %q", key, k)
			}
			return f, fmt.Errorf("unknown key %q: the keys are \"disable\", \"error\" and \"$schema\"", key)
		}
	}
	if _, err := dec.Token(); err != nil { // the closing }
		return f, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return f, errors.New("more than one JSON value")
	}
	return f, nil
}

// stringList reads the array of codes of key.
func stringList(dec *json.Decoder, key string) ([]string, error) {
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if t != json.Delim('[') {
		return nil, fmt.Errorf("%q is an array of codes, not %s", key, tokenText(t))
	}
	var out []string
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		code, ok := t.(string)
		if !ok {
			return nil, fmt.Errorf("%q holds codes written \"WF203\", not %s", key, tokenText(t))
		}
		n := string(Normalize(code))
		if seen[n] {
			return nil, fmt.Errorf("%q names %s twice", key, n)
		}
		seen[n] = true
		out = append(out, code)
	}
	_, err = dec.Token() // the closing ]
	return out, err
}

// tokenText names a JSON token for a message.
func tokenText(t json.Token) string {
	switch t := t.(type) {
	case nil:
		return "null"
	case json.Delim:
		if t == '{' {
			return "an object"
		}
		return "an array"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	}
	return "a number"
}

// ParseCodes reads a list of codes separated by commas or white space,
// line breaks included, as given to --disable and --error ("WF203,WF312",
// "203, 312").
func ParseCodes(list string) ([]diag.ID, error) {
	var codes []diag.ID
	for _, part := range strings.FieldsFunc(list, func(r rune) bool { return r == ',' || unicode.IsSpace(r) }) {
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
	cwd := ""
	if !filepath.IsAbs(source) {
		var err error
		if cwd, err = os.Getwd(); err != nil {
			return diag.Settings{}, "", err
		}
	}
	r := f.search(SearchDir(cwd, source))
	return r.s, r.path, r.err
}

// SearchDir is the directory For starts its search from for a source file:
// the directory of its absolute path, a relative name taken from cwd. Files
// with the same SearchDir have the same settings, whatever their names'
// spelling (`a/sub/`, `a/sub/..`, `./a/x.wf`).
func SearchDir(cwd, source string) string {
	if filepath.IsAbs(source) {
		return filepath.Dir(filepath.Clean(source))
	}
	return filepath.Dir(filepath.Join(cwd, source))
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
