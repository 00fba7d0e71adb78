package main

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wfc-lang/wfc/diag"
)

// fileSystem is what --fix needs of the OS; tests replace it to make a
// write fail half-way.
type fileSystem struct {
	createTemp func(dir, pattern string) (*os.File, error)
	rename     func(oldpath, newpath string) error
}

var osFS = fileSystem{createTemp: os.CreateTemp, rename: os.Rename}

// fixPlan is what --fix does to one file.
type fixPlan struct {
	file  string
	old   string
	new   string
	codes []diag.ID // the codes fixed, one per fix applied
}

// isSyntax marks a file whose other fixes --fix does not apply: its tree is
// not what the user wrote (a code of the catalogue's Syntax phase). Its
// syntax fixes are applied when they help (fix_syntax.go).
func isSyntax(id diag.ID) bool { return id.Phase() == diag.Syntax }

// planFixes collects, per file, the machine-applicable fix of each
// diagnostic. A file with syntax errors or with overlapping edits is left
// alone, and said so on stderr.
func planFixes(l *loaded, ds []diag.Diagnostic, stderr io.Writer) []fixPlan {
	type fileEdits struct {
		edits  []diag.Edit
		codes  []diag.ID
		bad    string
		syntax syntaxFixes
	}
	per := map[string]*fileEdits{}
	get := func(f string) *fileEdits {
		if per[f] == nil {
			per[f] = &fileEdits{}
		}
		return per[f]
	}
	for _, d := range ds {
		fe := get(d.File)
		if isSyntax(d.Code) {
			fe.bad = "it has syntax errors"
			fe.syntax.add(d)
			continue
		}
		for _, f := range d.Fixes {
			if !f.MachineApplicable || len(f.Edits) == 0 {
				continue
			}
			if slices.ContainsFunc(f.Edits, func(e diag.Edit) bool { return e.File != d.File }) {
				continue
			}
			fe.edits = append(fe.edits, f.Edits...)
			fe.codes = append(fe.codes, d.Code)
			break // one fix per diagnostic
		}
	}
	var plans []fixPlan
	for _, name := range l.order {
		fe := per[name]
		if fe != nil && fe.bad != "" {
			if p, ok := fe.syntax.plan(name, l.bytes[name]); ok {
				plans = append(plans, p)
				continue
			}
		}
		if fe == nil || len(fe.edits) == 0 {
			continue
		}
		if fe.bad != "" {
			notef(stderr, "not fixing %s: %s", name, fe.bad)
			continue
		}
		edits := keepLineEndings(l.bytes[name], fe.edits)
		slices.SortFunc(edits, func(a, b diag.Edit) int { return int(a.Range.Start.Offset - b.Range.Start.Offset) })
		overlap := false
		for i := 1; i < len(edits); i++ {
			if edits[i].Range.Start.Offset < edits[i-1].Range.End.Offset ||
				edits[i].Range.Start.Offset == edits[i-1].Range.Start.Offset {
				overlap = true
			}
		}
		if overlap {
			notef(stderr, "not fixing %s: its fixes overlap; apply them by hand, or fix one and run again", name)
			continue
		}
		out, err := diag.ApplyEdits(l.bytes[name], edits)
		if err != nil {
			notef(stderr, "not fixing %s: %v", name, err)
			continue
		}
		slices.Sort(fe.codes)
		plans = append(plans, fixPlan{file: name, old: l.bytes[name], new: out, codes: fe.codes})
	}
	return plans
}

// keepLineEndings adapts edits so that every line keeps its own line ending
// (a CRLF file stays CRLF, a mixed one keeps each line's): an edit that would
// delete the CR of a CRLF but not its LF stops before the CR, and line breaks
// in new text take the ending of the line the edit starts on.
func keepLineEndings(src string, edits []diag.Edit) []diag.Edit {
	out := slices.Clone(edits)
	for i := range out {
		e := &out[i]
		start, end := int(e.Range.Start.Offset), int(e.Range.End.Offset)
		if end > start && end < len(src) && src[end-1] == '\r' && src[end] == '\n' && !strings.HasSuffix(e.NewText, "\r") {
			e.Range.End.Offset--
			e.Range.End.Column--
		}
		if strings.Contains(e.NewText, "\n") && lineEnding(src, start) == "\r\n" {
			e.NewText = strings.ReplaceAll(strings.ReplaceAll(e.NewText, "\r\n", "\n"), "\n", "\r\n")
		}
	}
	return out
}

// lineEnding is the ending of the line holding byte offset at: "\r\n" or
// "\n". The last line, which has none, takes the ending of the line before.
func lineEnding(src string, at int) string {
	at = min(at, len(src))
	i := strings.IndexByte(src[at:], '\n')
	if i >= 0 {
		i += at
	} else {
		i = strings.LastIndexByte(src[:at], '\n')
	}
	if i > 0 && src[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}

// writeAtomic replaces the file o was read from with data: a temporary
// file in the same directory, synced, given the original's mode (setuid,
// setgid and sticky bits included), owner and group, then renamed over it.
// Through a symlink it replaces the link's target, so the link stays a link.
// It refuses a read-only file, one with other hard links (which a rename
// would split from it), one whose path no longer leads where it did or
// leads out of the walked directory, and one that changed since it was read
// (checked just before the rename). On any failure the original is untouched
// and the temporary file removed.
func (fsys fileSystem) writeAtomic(o origin, data string) (err error) {
	info, err := o.where()
	if err != nil {
		return err
	}
	if err := replaceable(info); err != nil {
		return err
	}
	tmp, err := fsys.createTemp(filepath.Dir(o.real), "."+filepath.Base(o.real)+".wfc-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = io.WriteString(tmp, data); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = keepOwner(tmp, info); err != nil {
		return fmt.Errorf("cannot keep its owner and group: %w", unwrapPathError(err))
	}
	if err = keepMode(tmp, info.Mode()); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = o.unchanged(); err != nil {
		return err
	}
	return fsys.rename(tmp.Name(), o.real)
}

// modeBits are the bits a replaced file keeps.
const modeBits = fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky

// keepMode gives f the mode want, and checks that the setuid, setgid and
// sticky bits held (the OS may drop them silently for a user who could not
// set them): a file that would lose one is not replaced.
func keepMode(f *os.File, want fs.FileMode) error {
	if err := f.Chmod(want & modeBits); err != nil {
		return err
	}
	got, err := f.Stat()
	if err != nil {
		return err
	}
	if got.Mode()&modeBits != want&modeBits {
		return fmt.Errorf("cannot keep its mode %v (the copy got %v)", want&modeBits, got.Mode()&modeBits)
	}
	return nil
}

// replaceable refuses to replace a read-only file (even when root could) or
// a file with more than one hard link.
func replaceable(info fs.FileInfo) error {
	if info.Mode().Perm()&0o200 == 0 {
		return fmt.Errorf("it is read-only (mode %04o)", info.Mode().Perm())
	}
	if n := links(info); n > 1 {
		return fmt.Errorf("it has %d hard links, and replacing it would split them", n)
	}
	return nil
}

// describeFix says what a plan changed: "3 fixes (WF202, WF303 ×2)".
func describeFix(p fixPlan) string {
	var parts []string
	for i := 0; i < len(p.codes); {
		j := i
		for j < len(p.codes) && p.codes[j] == p.codes[i] {
			j++
		}
		if j-i > 1 {
			parts = append(parts, fmt.Sprintf("%s ×%d", p.codes[i], j-i))
		} else {
			parts = append(parts, string(p.codes[i]))
		}
		i = j
	}
	n := len(p.codes)
	word := "fixes"
	if n == 1 {
		word = "fix"
	}
	return fmt.Sprintf("%d %s (%s)", n, word, strings.Join(parts, ", "))
}
