package wfc

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/codegen"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/internal/cache"
	"github.com/wfc-lang/wfc/parser"
)

// Session checks one program again and again, doing again only what the
// changes since its last run can change: a file whose text is the same
// keeps its parse; a file is checked again only when its text changed or
// when the summary of something it read changed (summary.go); every other
// file keeps what it yielded — its diagnostics, its lints, its tables and,
// when the session makes the model, its objects, which the files checked
// again point at (check.Options.Reuse). With Options.Cache, what each file
// yields outlives the process, the way Go's build cache keeps export data:
// a run that finds a file's entry neither parses nor checks it unless it
// must. The result is always what Run on the same files gives, byte for
// byte (TestSessionAsRun, over random edits).
//
// The language server keeps one Session for its life; the command line
// makes one per run, with the cache. A Session is safe for concurrent use;
// its runs take turns. A Result is never changed after Run returns it.
type Session struct {
	opt   Options
	mu    sync.Mutex
	units map[string]*unit
	// model is the model the units' objects (fr) belong to: the last run's,
	// when the session makes one; modelOf are the files it was made of, in
	// order.
	model   *check.Program
	modelOf []*ast.File
	// names are the run's names of its files and the cache's (with a
	// cache).
	names *naming
	// once: the session runs once (the package's Run), so nothing is kept
	// for a later run.
	once bool
	// partialSafe says whether the checker's rules allow checking files
	// apart (check.PartialRecheckSafe, read from the rules' declared
	// scopes); a test puts a program-wide rule in its place.
	partialSafe func() bool
}

// NewSession starts a session that runs with opt.
func NewSession(opt Options) *Session {
	return &Session{opt: opt, units: map[string]*unit{}, partialSafe: check.PartialRecheckSafe}
}

// minCached is the size below which a file is not cached: reading or
// writing its entry would cost more than parsing and checking it (a file
// of one short workflow; a program of 100,000 of them would otherwise
// write 100,000 entries).
var minCached = 256 // a variable for the tests (export_test.go)

// unit is what the session knows of one file. A unit is never changed
// once a run has finished with it: a run that learns more makes a new one.
type unit struct {
	name, src string
	// canon is the name the cache gives the file (naming). Without a
	// cache, its name.
	canon string
	key   cache.Key // its cache entry's key (with Options.Cache)
	keyed bool

	// Its parse. file is nil for a file known from the cache alone (then
	// cached is set); sum is made from file when first asked (summary).
	file    *ast.File
	cached  bool
	syntax  []diag.Diagnostic
	sum     *summary
	ignores []diag.Ignore
	scopes  *fileScopes // for a file with ignore comments
	stubbed *ast.File

	// Its check, valid while its deps are as they were.
	checked      bool
	diags, lints []diag.Diagnostic
	direct       check.Uses
	deps         depSet

	// Its part of the model, when the session makes one.
	fr        *check.FileResult
	schedules []*codegen.Schedule
	refs      []string // the files its objects point at
}

func (u *unit) clone() *unit { v := *u; return &v }

// parsed records u's parse.
func (u *unit) parsed(f *ast.File, syntax []diag.Diagnostic) {
	u.file, u.syntax, u.sum = f, syntax, nil
	u.ignores, u.scopes, u.stubbed = f.Ignores, nil, nil
	if len(f.Ignores) > 0 {
		u.scopes = scopesOf(f)
	}
}

// summary is what u declares for the others.
func (u *unit) summary() *summary {
	if u.sum == nil {
		u.sum = summarize(u.file, u.canon)
	}
	return u.sum
}

// stub is u's file for a check that does not look inside it.
func (u *unit) stub() *ast.File {
	if u.file != nil {
		return u.file
	}
	if u.stubbed == nil {
		u.stubbed = u.summary().stub(u.name, u.src, u.ignores)
	}
	return u.stubbed
}

// Run checks files as one program, as the package's Run does, doing again
// only what changed since the session's last run.
func (s *Session) Run(ctx context.Context, files []Source) *Result {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := &Result{Sources: sourcesOf(files, s.opt)}
	if r.Err = ctx.Err(); r.Err != nil {
		return r
	}
	model := !s.opt.DiagnosticsOnly || s.opt.Export != nil
	if s.once && !s.cacheable(files) {
		return s.whole(ctx, files, r, model)
	}
	us := s.load(files, model)
	if r.Err = ctx.Err(); r.Err != nil {
		// The parses are good whatever happens next: keep them, so that a
		// run cancelled now (the user typed on) does not cost the next one.
		s.keep(us)
		return r
	}
	ns := newNamespace(us)
	again := s.stale(us, ns, model)
	if n := count(again); n > 0 {
		if model {
			s.checkModel(us, again)
		} else {
			s.checkAlone(us, again, ns)
		}
		s.settle(us, again, ns)
		s.store(us, again)
	} else if model && !s.sameFiles(us) {
		// Files gone or reordered, nothing to check again: the model is
		// the same objects, in the program's order.
		s.checkModel(us, again)
	}
	var ds []diag.Diagnostic
	for i, u := range us {
		if again[i] {
			r.Rechecked = append(r.Rechecked, u.name)
		}
		ds = append(ds, u.syntax...)
		ds = append(ds, u.diags...)
		ds = append(ds, u.lints...)
	}
	exported := false
	if model {
		r.Program = &ast.Program{Files: make([]*ast.File, len(us))}
		r.Checked = &check.Result{Program: s.model}
		r.info = make(map[string]*check.Info, len(us))
		for i, u := range us {
			r.Program.Files[i] = u.file
			r.Schedules = append(r.Schedules, u.schedules...)
			r.Checked.Diags = append(r.Checked.Diags, u.diags...)
			if u.fr != nil {
				r.Checked.Consumers = append(r.Checked.Consumers, u.fr.Consumers...)
				if s.opt.Info {
					r.info[u.name] = &u.fr.Info
				}
			}
		}
		if s.opt.Export != nil {
			if errs, _ := diag.Counts(ds); errs == 0 {
				ds = append(ds, s.opt.Export(r.Schedules)...)
				exported = true // its codes were looked for
			}
		}
	}
	ends := make([]fileEnd, len(us))
	for i, u := range us {
		ends[i] = fileEnd{name: u.name, ignores: u.ignores, scopes: u.scopes}
	}
	r.Diagnostics = finish(ends, ds, r.Sources, s.opt.Settings, exported)
	s.keep(us)
	r.Err = ctx.Err()
	return r
}

func count(bs []bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// cacheable reports whether some file's results may be read from or kept
// in the cache.
func (s *Session) cacheable(files []Source) bool {
	if s.opt.Cache == nil {
		return false
	}
	for _, f := range files {
		if len(f.Src) >= minCached && (s.opt.CacheFile == nil || s.opt.CacheFile(f.Name)) {
			return true
		}
	}
	return false
}

// whole is a run that keeps nothing for another (the package's Run, with
// no cache to read or write): one parse and one check of the whole
// program, with no units, summaries, deps or results by file — so a
// program of 100,000 small files costs what it did before sessions. A
// session's runs must give what it gives (TestSessionAsRun compares them).
func (s *Session) whole(ctx context.Context, files []Source, r *Result, model bool) *Result {
	prog, ds := parser.Parse(files, parser.Options{Workers: s.opt.Workers})
	if r.Err = ctx.Err(); r.Err != nil {
		return r
	}
	res := check.CheckWith(prog, check.Options{Info: s.opt.Info})
	ds = append(ds, res.Diags...)
	schedules, lints := Lower(res, s.opt.Lower)
	ds = append(ds, lints...)
	exported := false
	if model {
		r.Program, r.Checked, r.Schedules = prog, res, schedules
		if s.opt.Info {
			r.info = make(map[string]*check.Info, len(files))
			for _, f := range files {
				r.info[f.Name] = &res.Program.Info
			}
		}
		if s.opt.Export != nil {
			if errs, _ := diag.Counts(ds); errs == 0 {
				ds = append(ds, s.opt.Export(schedules)...)
				exported = true
			}
		}
	}
	res = nil // done with the model unless kept
	ends := make([]fileEnd, len(prog.Files))
	for i, f := range prog.Files {
		ends[i] = fileEnd{name: f.Name, ignores: f.Ignores}
		if len(f.Ignores) > 0 {
			ends[i].scopes = scopesOf(f)
		}
		r.Rechecked = append(r.Rechecked, f.Name)
	}
	r.Diagnostics = finish(ends, ds, r.Sources, s.opt.Settings, exported)
	r.Err = ctx.Err()
	return r
}

// keep makes us the session's units. The model stays the last one made:
// the units not checked again still belong to it.
func (s *Session) keep(us []*unit) {
	s.units = make(map[string]*unit, len(us))
	for _, u := range us {
		s.units[u.name] = u // of a name given twice, the last
	}
}

// load is a unit for each file: a copy of the session's own when the text
// is the same; else one from the cache; else a new parse (of the edited
// declaration alone when that is safe, else of the file). A file given
// twice is parsed and checked each time, and never cached.
func (s *Session) load(files []Source, model bool) []*unit {
	us := make([]*unit, len(files))
	seen := make(map[string]bool, len(files))
	s.names = nil
	if s.opt.Cache != nil {
		s.names = newNaming(files)
	}
	var todo []int
	for i, f := range files {
		old := s.units[f.Name]
		twice := seen[f.Name]
		seen[f.Name] = true
		if twice {
			old = nil
		}
		if old != nil && old.src == f.Src {
			us[i] = old.clone()
			if model && us[i].file == nil {
				todo = append(todo, i)
			}
			continue
		}
		u := &unit{name: f.Name, src: f.Src, canon: f.Name}
		if s.names != nil {
			u.canon = s.names.canon(f.Name)
		}
		if s.opt.Cache != nil && !twice && len(f.Src) >= minCached {
			u.key, u.keyed = s.opt.Cache.key(u.canon, f.Src, s.opt.Lower), true
			if !model {
				// A run that makes the model parses and checks every file
				// anyway; it only writes the entries, for the others.
				s.opt.Cache.load(u, s.names.name)
			}
		}
		if model && old != nil && old.file != nil {
			if nf, ok := reparseDecl(old.file, old.syntax, f.Name, f.Src); ok {
				u.parsed(nf, nil)
			}
		}
		if u.file == nil && (model || !u.cached) {
			todo = append(todo, i)
		}
		us[i] = u
	}
	s.parse(us, todo)
	return us
}

// parse parses the units at the indexes todo, in parallel.
func (s *Session) parse(us []*unit, todo []int) {
	if len(todo) == 0 {
		return
	}
	srcs := make([]Source, len(todo))
	for k, i := range todo {
		srcs[k] = Source{Name: us[i].name, Src: us[i].src}
	}
	prog, ds := parser.Parse(srcs, parser.Options{Workers: s.opt.Workers})
	byFile := map[string][]diag.Diagnostic{}
	for _, d := range ds {
		byFile[d.File] = append(byFile[d.File], d)
	}
	for k, i := range todo {
		f := prog.Files[k]
		if u := us[i]; u.cached && u.file == nil {
			// Known from the cache or an earlier run: the parse adds the
			// tree, which is what the summary was made of.
			u.file, u.stubbed = f, nil
			continue
		}
		us[i].parsed(f, byFile[f.Name])
	}
}

// stale are the units to check again: those never checked, those whose
// deps changed, and, for the model, those without objects and those whose
// objects point at a file checked again or gone.
func (s *Session) stale(us []*unit, ns *namespace, model bool) []bool {
	again := make([]bool, len(us))
	all := !s.partialSafe()
	n := 0
	for i, u := range us {
		if all || !u.checked || model && u.fr == nil || !ns.valid(i, u.deps) {
			again[i] = true
			n++
		}
	}
	if !model || n == 0 {
		return again
	}
	byName := make(map[string]int, len(us))
	for i, u := range us {
		byName[u.name] = i
	}
	for grew := true; grew; {
		grew = false
		for i, u := range us {
			if again[i] {
				continue
			}
			for _, name := range u.refs {
				if j, ok := byName[name]; !ok || again[j] {
					again[i], grew = true, true
					break
				}
			}
		}
	}
	return again
}

// checkModel checks the units again against the model of the others, and
// makes the new model.
func (s *Session) checkModel(us []*unit, again []bool) {
	prog := &ast.Program{Files: make([]*ast.File, len(us))}
	only := map[*ast.File]bool{}
	for i, u := range us {
		prog.Files[i] = u.file
		if again[i] {
			only[u.file] = true
		}
	}
	opt := check.Options{Info: s.opt.Info, Only: only, Reuse: s.model}
	if len(only) == len(us) || s.model == nil {
		opt = check.Options{Info: s.opt.Info, Only: only}
	}
	res := check.CheckWith(prog, opt)
	s.model, s.modelOf = res.Program, prog.Files
	s.yields(us, res)
}

// sameFiles reports whether the model is made of the units' files, in
// their order.
func (s *Session) sameFiles(us []*unit) bool {
	if len(us) != len(s.modelOf) {
		return false
	}
	for i, u := range us {
		if u.file != s.modelOf[i] {
			return false
		}
	}
	return true
}

// checkAlone checks the units again against the others' summaries: every
// file they read (and those read in turn) is parsed, the others are
// stubs. What a file reads is known once it is checked, so a check that
// read a stub is done again with that file parsed; it ends when nothing
// checked read a stub.
func (s *Session) checkAlone(us []*unit, again []bool, ns *namespace) {
	var start []int
	for i := range us {
		if again[i] {
			start = append(start, i)
		}
	}
	fresh := map[int]check.Uses{}
	direct := func(i int) check.Uses {
		if d, ok := fresh[i]; ok {
			return d
		}
		return us[i].direct
	}
	for {
		var todo []int
		for _, i := range ns.closure(start, direct) {
			if us[i].file == nil {
				todo = append(todo, i)
			}
		}
		slices.Sort(todo)
		if len(todo) == 0 && len(fresh) > 0 {
			return // nothing checked read a stub: the last check stands
		}
		s.parse(us, todo)
		prog := &ast.Program{Files: make([]*ast.File, len(us))}
		only := map[*ast.File]bool{}
		at := map[*ast.File]int{}
		for i, u := range us {
			prog.Files[i] = u.stub()
			if again[i] {
				only[u.file] = true
			}
			at[prog.Files[i]] = i
		}
		res := check.CheckWith(prog, check.Options{Only: only})
		for _, fr := range res.Files {
			fresh[at[fr.File]] = fr.Uses
		}
		s.yields(us, res)
	}
}

// yields records in the units what checking them gave, with their tables
// and lints.
func (s *Session) yields(us []*unit, res *check.Result) {
	at := make(map[*ast.File]int, len(us))
	for i, u := range us {
		if u.file != nil {
			at[u.file] = i
		}
	}
	keepModel := !s.opt.DiagnosticsOnly || s.opt.Export != nil
	for _, fr := range res.Files {
		i, ok := at[fr.File]
		if !ok {
			continue
		}
		u := us[i]
		u.checked = true
		u.diags, u.direct = fr.Diags, fr.Uses
		u.schedules, u.lints = Lower(&check.Result{Consumers: fr.Consumers}, s.opt.Lower)
		u.fr = nil
		if keepModel {
			u.fr = fr
		} else {
			u.schedules = nil // nobody reads them
		}
	}
}

// settle works out, for the units checked again, what they depend on (the
// closure of what they read) and the files their objects point at.
func (s *Session) settle(us []*unit, again []bool, ns *namespace) {
	for i, u := range us {
		if !again[i] || !u.checked {
			continue
		}
		u.deps = ns.split(i, ns.deps(i))
		u.refs = nil
		seen := map[int]bool{}
		for _, j := range ns.reads(u.direct) {
			if !seen[j] {
				seen[j] = true
				u.refs = append(u.refs, us[j].name)
			}
		}
	}
}

// store writes the entries of the units checked again (with Options.Cache).
func (s *Session) store(us []*unit, again []bool) {
	c := s.opt.Cache
	if c == nil {
		return
	}
	kvs := map[cache.Key][]byte{}
	for i, u := range us {
		if !again[i] || !u.keyed || !u.checked {
			continue
		}
		if s.opt.CacheFile != nil && !s.opt.CacheFile(u.name) {
			continue
		}
		if v, ok := encodeEntry(u, s.names.canon); ok {
			kvs[u.key] = v
		}
	}
	if len(kvs) > 0 {
		_ = c.c.PutAll(kvs) // best effort: a cache that cannot be written only makes the next run slower
	}
}

// naming maps a run's names of its files to the cache's and back: the
// cache names a file by its absolute path (its name when that cannot be
// had), so that the command line, which names a file as it was given, and
// the language server, which names it by its path, share its entries.
type naming struct {
	toCanon, fromCanon map[string]string
}

func newNaming(files []Source) *naming {
	n := &naming{toCanon: make(map[string]string, len(files)), fromCanon: make(map[string]string, len(files))}
	wd, err := os.Getwd() // once: filepath.Abs asks for each name
	for _, f := range files {
		if _, ok := n.toCanon[f.Name]; ok {
			continue
		}
		c := f.Name
		switch {
		case filepath.IsAbs(c):
			c = filepath.Clean(c)
		case err == nil:
			c = filepath.Join(wd, c)
		}
		n.toCanon[f.Name] = c
		if _, ok := n.fromCanon[c]; !ok {
			n.fromCanon[c] = f.Name
		}
	}
	return n
}

// canon is the cache's name of a file the run names name.
func (n *naming) canon(name string) string {
	if c, ok := n.toCanon[name]; ok {
		return c
	}
	return name
}

// name is the run's name of the file the cache names c. A file not in
// the run keeps the cache's name: an entry that names one is out of date
// anyway (its deps name that file's declarations).
func (n *naming) name(c string) string {
	if name, ok := n.fromCanon[c]; ok {
		return name
	}
	return c
}
