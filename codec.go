package wfc

import (
	"encoding/binary"
	"errors"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/diag"
)

// The cache's entries are written in a compact binary form of their own:
// varints, strings with their length, and nothing reflective. A warm run
// reads an entry per file, and encoding/gob spent more time on the
// hundred entries of the corpus than checking the one file that changed.
// The cache checks each entry whole before it is read (internal/cache);
// the decoder still bounds every length and fails, as a miss, on anything
// that does not parse (TestCodecRoundTrip, FuzzDecodeEntry).

// codecVersion starts every entry; change it when the format changes.
const codecVersion = 1

// enc writes an entry. File names are written as the cache names them
// (file: an absolute path), so that the command line, which names a file
// as it was given, and the language server, which names it by its path,
// read each other's entries.
type enc struct {
	b    []byte
	file func(string) string
}

func (e *enc) uint(x uint64)  { e.b = binary.AppendUvarint(e.b, x) }
func (e *enc) int(x int64)    { e.b = binary.AppendVarint(e.b, x) }
func (e *enc) bool(x bool)    { e.uint(uint64(b2i(x))) }
func (e *enc) str(s string)   { e.uint(uint64(len(s))); e.b = append(e.b, s...) }
func (e *enc) bytes(p []byte) { e.b = append(e.b, p...) }

func (e *enc) pos(p diag.Pos) {
	e.int(int64(p.Line))
	e.int(int64(p.Column))
	e.int(int64(p.Offset))
}

func (e *enc) rng(r diag.Range) { e.pos(r.Start); e.pos(r.End) }

func (e *enc) strs(xs []string) {
	e.uint(uint64(len(xs)))
	for _, x := range xs {
		e.str(x)
	}
}

func (e *enc) diags(ds []diag.Diagnostic) {
	e.uint(uint64(len(ds)))
	for _, d := range ds {
		e.str(e.file(d.File))
		e.int(int64(d.Severity))
		e.str(string(d.Code))
		e.str(d.Message)
		e.rng(d.Range)
		e.bool(d.Related != nil)
		e.uint(uint64(len(d.Related)))
		for _, r := range d.Related {
			e.str(e.file(r.File))
			e.rng(r.Range)
			e.str(r.Message)
		}
		e.bool(d.Fixes != nil)
		e.uint(uint64(len(d.Fixes)))
		for _, f := range d.Fixes {
			e.str(f.Title)
			e.bool(f.MachineApplicable)
			e.bool(f.Edits != nil)
			e.uint(uint64(len(f.Edits)))
			for _, ed := range f.Edits {
				e.str(e.file(ed.File))
				e.rng(ed.Range)
				e.str(ed.NewText)
			}
		}
	}
}

// names writes a list of names, each one the file declares as the index
// of its first declaration (the most of them: a file reads mostly its own
// names), the others in full.
func (e *enc) names(xs []string, own map[string]int) {
	e.uint(uint64(len(xs)))
	for _, x := range xs {
		if i, ok := own[x]; ok {
			e.uint(uint64(i + 1))
			continue
		}
		e.uint(0)
		e.str(x)
	}
}

func (e *enc) uses(u check.Uses, own map[string]int) {
	e.names(u.Names, own)
	e.bool(u.AllNames)
	e.bool(u.Principals)
	e.bool(u.Workflows)
	e.bool(u.Tests)
}

func (e *enc) ranges(rs []diag.Range) {
	e.uint(uint64(len(rs)))
	for _, r := range rs {
		e.rng(r)
	}
}

// encodeEntry is u's entry; file names a file of the program as the cache
// does.
func encodeEntry(u *unit, file func(string) string) ([]byte, bool) {
	e := &enc{b: make([]byte, 0, 4096), file: file}
	e.uint(codecVersion)
	s := u.summary()
	e.bool(s.Overwhelmed)
	e.rng(s.Range)
	e.uint(uint64(len(s.Decls)))
	for _, d := range s.Decls {
		e.uint(uint64(d.Kind))
		e.bool(d.HasName)
		e.str(d.Name)
		e.rng(d.NameAt)
		e.rng(d.Range)
		e.rng(d.Keyword)
		e.uint(uint64(len(d.Attrs)))
		for _, a := range d.Attrs {
			e.bool(a.HasName)
			e.str(a.Name)
			e.rng(a.At)
			e.rng(a.NameAt)
			e.bool(a.HasArgs)
		}
		e.bytes(d.Hash[:])
	}
	e.diags(u.syntax)
	e.uint(uint64(len(u.ignores)))
	for _, ig := range u.ignores {
		e.str(e.file(ig.File))
		e.rng(ig.Range)
		e.uint(uint64(len(ig.Codes)))
		for _, c := range ig.Codes {
			e.str(string(c))
		}
		e.bool(ig.Trailing)
		e.rng(ig.Cut)
	}
	e.bool(u.scopes != nil)
	if u.scopes != nil {
		e.ranges(u.scopes.Decls)
		e.ranges(u.scopes.States)
		e.ranges(u.scopes.Consumers)
	}
	e.diags(u.diags)
	e.diags(u.lints)
	own := make(map[string]int, len(s.Decls))
	for i, d := range s.Decls {
		if _, ok := own[d.Name]; !ok && d.HasName && d.Kind != kindTest {
			own[d.Name] = i
		}
	}
	e.uses(u.direct, own)
	e.names(u.deps.Own, own)
	e.uses(u.deps.Ext, own)
	e.bytes(u.deps.Sum[:])
	return e.b, true
}

var errCodec = errors.New("wfc: not a cache entry of this version")

// dec reads an entry. Its bytes are copied into one string once, and
// every string read is a part of it: the hundreds of names an entry holds
// cost no allocation each.
type dec struct {
	b    string
	err  error
	file func(string) string // the run's name of a file named as the cache names it
}

func (d *dec) fail() {
	if d.err == nil {
		d.err = errCodec
	}
	d.b = ""
}

func (d *dec) uint() uint64 {
	x, n := uvarint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return x
}

func (d *dec) int() int64 {
	ux, n := uvarint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	x := int64(ux >> 1)
	if ux&1 != 0 {
		x = ^x
	}
	return x
}

// uvarint is binary.Uvarint over a string.
func uvarint(s string) (uint64, int) {
	var x uint64
	var shift uint
	for i := 0; i < len(s) && i < binary.MaxVarintLen64; i++ {
		c := s[i]
		if c < 0x80 {
			if i == binary.MaxVarintLen64-1 && c > 1 {
				return 0, -(i + 1) // overflow
			}
			return x | uint64(c)<<shift, i + 1
		}
		x |= uint64(c&0x7f) << shift
		shift += 7
	}
	return 0, 0
}

func (d *dec) i32() int32 {
	x := d.int()
	if int64(int32(x)) != x {
		d.fail()
		return 0
	}
	return int32(x)
}

func (d *dec) bool() bool { return d.uint() == 1 }

// count is a length, which cannot be more than the bytes left (each item
// takes at least one).
func (d *dec) count() int {
	n := d.uint()
	if n > uint64(len(d.b)) {
		d.fail()
		return 0
	}
	return int(n)
}

func (d *dec) str() string {
	n := d.count()
	s := d.b[:n]
	d.b = d.b[n:]
	return s
}

func (d *dec) hash() (h [32]byte) {
	if len(d.b) < len(h) {
		d.fail()
		return h
	}
	copy(h[:], d.b)
	d.b = d.b[len(h):]
	return h
}

func (d *dec) pos() diag.Pos {
	return diag.Pos{Line: d.i32(), Column: d.i32(), Offset: d.i32()}
}

func (d *dec) rng() diag.Range { return diag.Range{Start: d.pos(), End: d.pos()} }

func (d *dec) strs() []string {
	n := d.count()
	if n == 0 {
		return nil
	}
	xs := make([]string, n)
	for i := range xs {
		xs[i] = d.str()
	}
	return xs
}

func (d *dec) diags() []diag.Diagnostic {
	n := d.count()
	if n == 0 {
		return nil
	}
	ds := make([]diag.Diagnostic, n)
	for i := range ds {
		g := &ds[i]
		g.File = d.file(d.str())
		g.Severity = diag.Severity(d.int())
		g.Code = diag.ID(d.str())
		g.Message = d.str()
		g.Range = d.rng()
		if d.bool() {
			g.Related = make([]diag.Related, d.count())
		} else {
			d.count()
		}
		for j := range g.Related {
			g.Related[j] = diag.Related{File: d.file(d.str()), Range: d.rng(), Message: d.str()}
		}
		if d.bool() {
			g.Fixes = make([]diag.Fix, d.count())
		} else {
			d.count()
		}
		for j := range g.Fixes {
			f := &g.Fixes[j]
			f.Title = d.str()
			f.MachineApplicable = d.bool()
			if d.bool() {
				f.Edits = make([]diag.Edit, d.count())
			} else {
				d.count()
			}
			for k := range f.Edits {
				f.Edits[k] = diag.Edit{File: d.file(d.str()), Range: d.rng(), NewText: d.str()}
			}
		}
		if d.err != nil {
			return nil
		}
	}
	return ds
}

// names reads what enc.names wrote, with s the entry's summary.
func (d *dec) names(s *summary) []string {
	n := d.count()
	if n == 0 {
		return nil
	}
	xs := make([]string, n)
	for i := range xs {
		k := d.uint()
		switch {
		case k == 0:
			xs[i] = d.str()
		case k <= uint64(len(s.Decls)):
			xs[i] = s.Decls[k-1].Name
		default:
			d.fail()
			return nil
		}
	}
	return xs
}

func (d *dec) uses(s *summary) check.Uses {
	return check.Uses{Names: d.names(s), AllNames: d.bool(), Principals: d.bool(), Workflows: d.bool(), Tests: d.bool()}
}

func (d *dec) ranges() []diag.Range {
	n := d.count()
	if n == 0 {
		return nil
	}
	rs := make([]diag.Range, n)
	for i := range rs {
		rs[i] = d.rng()
	}
	return rs
}

// decodeEntry fills u from entry b; false (and u unchanged) if b is not an
// entry of this format. file is encodeEntry's inverse.
func decodeEntry(b []byte, u *unit, file func(string) string) bool {
	d := &dec{b: string(b), file: file}
	if d.uint() != codecVersion {
		return false
	}
	s := &summary{Overwhelmed: d.bool(), Range: d.rng()}
	s.Decls = make([]declSum, d.count())
	for i := range s.Decls {
		x := &s.Decls[i]
		x.Kind = declKind(d.uint())
		x.HasName = d.bool()
		x.Name = d.str()
		x.NameAt, x.Range, x.Keyword = d.rng(), d.rng(), d.rng()
		if n := d.count(); n > 0 {
			x.Attrs = make([]attrSum, n)
			for j := range x.Attrs {
				x.Attrs[j] = attrSum{HasName: d.bool(), Name: d.str(), At: d.rng(), NameAt: d.rng(), HasArgs: d.bool()}
			}
		}
		x.Hash = d.hash()
		if d.err != nil {
			return false
		}
	}
	syntax := d.diags()
	var ignores []diag.Ignore
	if n := d.count(); n > 0 {
		ignores = make([]diag.Ignore, n)
		for i := range ignores {
			ig := &ignores[i]
			ig.File, ig.Range = d.file(d.str()), d.rng()
			if k := d.count(); k > 0 {
				ig.Codes = make([]diag.ID, k)
				for j := range ig.Codes {
					ig.Codes[j] = diag.ID(d.str())
				}
			}
			ig.Trailing, ig.Cut = d.bool(), d.rng()
		}
	}
	var scopes *fileScopes
	if d.bool() {
		scopes = &fileScopes{Decls: d.ranges(), States: d.ranges(), Consumers: d.ranges()}
	}
	diags, lints := d.diags(), d.diags()
	direct := d.uses(s)
	own := d.names(s)
	ext := d.uses(s)
	sum := d.hash()
	if d.err != nil || len(d.b) != 0 {
		return false
	}
	u.sum, u.cached, u.syntax, u.ignores, u.scopes = s, true, syntax, ignores, scopes
	u.checked, u.diags, u.lints, u.direct = true, diags, lints, direct
	u.deps = depSet{Own: own, Ext: ext, Sum: sum}
	return true
}
