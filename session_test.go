package wfc_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/wfc-lang/wfc"
	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/codegen"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/internal/corpus"
	"github.com/wfc-lang/wfc/parser"
)

// crossFiles are programs whose files read each other in every way the
// checker reads across files: types, Tracks through three files,
// duplicates, principals, tests of workflows elsewhere, suggestions.
var crossFiles = [][]string{
	{
		"enum Stage { Open, Done, Lost }\nenum Verdict { Ok, No }",
		"[Principal] entity Job { Stage Stage; string Title; }",
		"workflow W {\n  Tracks = Job.Stage;\n  Initial = Open;\n  event E(Verdict v);\n  state Open { subscribe E(Verdict v) { Finished { Within = TimeSpan.FromMinutes(5); Retries = 2; Unfinished { goto Lost; } } } on E(Verdict v) { Ok { goto Done; } No { goto Lost; } } }\n  terminal Done { }\n  terminal error Lost { }\n}",
		"test \"w\" { Workflow = W; Send(E(Verdict.Ok)); Expect.End(Done); }\ntest \"v\" { Expect.State(Open); }",
		"[Principal] entity Person { string Name; Stage S; }\nentity Note { Job J; Person Author; Stag Typo; }",
	},
	{
		"enum A { X }\nentity B { string S; }",
		"entity A { string T; }\nworkflow W { Initial = S; state S { } }",
		"enum B { Y }\nworkflow W { Initial = S; event Go(A a); state S { } }",
		"entity C { A a; B b; }\ntest \"t\" { Workflow = V; }",
	},
}

// sessionPrograms are the programs the session's tests edit: the
// cross-file ones, the examples, a small generated corpus, and golden
// cases cut into one file per declaration.
func sessionPrograms(t *testing.T) [][]parser.Source {
	var out [][]parser.Source
	for _, files := range crossFiles {
		var srcs []parser.Source
		for i, f := range files {
			srcs = append(srcs, parser.Source{Name: fmt.Sprintf("f%d.wf", i), Src: f + "\n"})
		}
		out = append(out, srcs)
	}
	for _, dir := range []string{"testdata/examples/jobflow", "testdata/examples/orders", "testdata/cases/multifile"} {
		names, _ := filepath.Glob(filepath.Join(dir, "*.wf"))
		var srcs []parser.Source
		for _, n := range names {
			b, err := os.ReadFile(n)
			if err != nil {
				t.Fatal(err)
			}
			srcs = append(srcs, parser.Source{Name: filepath.Base(n), Src: string(b)})
		}
		out = append(out, srcs)
	}
	var gen []parser.Source
	for _, f := range corpus.Generate(160, 4) {
		gen = append(gen, parser.Source{Name: f.Name, Src: f.Src})
	}
	out = append(out, gen)
	cases, _ := filepath.Glob("testdata/cases/*.wf")
	sort.Strings(cases)
	every := 5
	if testing.Short() {
		every = 15
	}
	for i, n := range cases {
		if i%every != 0 {
			continue
		}
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, splitDecls(string(b)))
	}
	return out
}

// splitDecls cuts src into one file per top-level declaration (what lies
// between two declarations goes with the first).
func splitDecls(src string) []parser.Source {
	prog, _ := parser.Parse([]parser.Source{{Name: "x.wf", Src: src}}, parser.Options{Workers: 1})
	ds := prog.Files[0].Decls
	if len(ds) < 2 {
		return []parser.Source{{Name: "f00.wf", Src: src}}
	}
	var out []parser.Source
	for i := range ds {
		lo, hi := int(ds[i].Pos().Offset), len(src)
		if i == 0 {
			lo = 0
		}
		if i+1 < len(ds) {
			hi = int(ds[i+1].Pos().Offset)
		}
		if lo < hi {
			out = append(out, parser.Source{Name: fmt.Sprintf("f%02d.wf", i), Src: src[lo:hi]})
		}
	}
	return out
}

// editor makes random edits of a program: keystrokes, renames of global
// names (everywhere or in one file), declarations moved between files,
// files added, deleted and reordered, and settings changed.
type editor struct {
	rng      *rand.Rand
	files    []parser.Source
	settings map[string]diag.Settings
	fresh    int
}

var identRE = regexp.MustCompile(`\b[A-Z][A-Za-z0-9_]*\b`)

func (e *editor) pick() int { return e.rng.Intn(len(e.files)) }

// step makes one edit and says what it was.
func (e *editor) step() string {
	switch k := e.rng.Intn(20); {
	case k < 6:
		return e.keystroke()
	case k < 9:
		return e.rename(e.rng.Intn(2) == 0)
	case k < 11:
		return e.move()
	case k < 12 && len(e.files) > 1:
		i := e.pick()
		name := e.files[i].Name
		e.files = slices.Delete(e.files, i, i+1)
		return "delete " + name
	case k < 13:
		e.fresh++
		src := e.files[e.pick()].Src
		if e.rng.Intn(2) == 0 {
			src = identRE.ReplaceAllStringFunc(src, func(s string) string { return s + "Copy" })
		}
		name := fmt.Sprintf("new%d.wf", e.fresh)
		e.files = append(e.files, parser.Source{Name: name, Src: src})
		return "add " + name
	case k < 14:
		e.rng.Shuffle(len(e.files), func(i, j int) { e.files[i], e.files[j] = e.files[j], e.files[i] })
		return "reorder"
	case k < 16:
		f := e.files[e.pick()].Name
		choices := []diag.Settings{{}, {Disable: map[diag.ID]bool{"WF203": true, "WF312": true}}, {Error: map[diag.ID]bool{"WF201": true, "WF203": true, "WF317": true}}}
		e.settings[f] = choices[e.rng.Intn(len(choices))]
		return "settings of " + f
	case k < 17:
		// An ignore comment on a random line.
		i := e.pick()
		src := e.files[i].Src
		codes := []string{"WF203", "WF312", "WF201", "wf310", "WF999"}
		e.files[i].Src = insertLine(src, e.rng.Intn(strings.Count(src, "\n")+1), "// wfc:ignore "+codes[e.rng.Intn(len(codes))]+" reason")
		return "ignore in " + e.files[i].Name
	default:
		return e.keystroke()
	}
}

func insertLine(src string, line int, text string) string {
	lines := strings.SplitAfter(src, "\n")
	if line > len(lines) {
		line = len(lines)
	}
	out := strings.Join(lines[:line], "") + text + "\n" + strings.Join(lines[line:], "")
	return out
}

func (e *editor) keystroke() string {
	i := e.pick()
	src := e.files[i].Src
	if len(src) == 0 {
		e.files[i].Src = "enum Empty { A }\n"
		return "fill " + e.files[i].Name
	}
	at := e.rng.Intn(len(src))
	for at > 0 && src[at]&0xC0 == 0x80 {
		at--
	}
	n := 0
	if e.rng.Intn(3) == 0 {
		n = 1
		for at+n < len(src) && src[at+n]&0xC0 == 0x80 {
			n++
		}
	}
	ins := []string{" ", "\n", "x", "", "é", "}", "{", ";", "\"", "  \n  ", "1", "A"}[e.rng.Intn(12)]
	e.files[i].Src = src[:at] + ins + src[min(at+n, len(src)):]
	return fmt.Sprintf("keystroke %q at %s:%d", ins, e.files[i].Name, at)
}

// rename renames a capitalised name (a global one, often) to another name
// of the program or a new one, in every file or in one.
func (e *editor) rename(everywhere bool) string {
	var names []string
	for _, f := range e.files {
		names = append(names, identRE.FindAllString(f.Src, -1)...)
	}
	if len(names) == 0 {
		return "nothing to rename"
	}
	from := names[e.rng.Intn(len(names))]
	to := names[e.rng.Intn(len(names))]
	if e.rng.Intn(2) == 0 {
		e.fresh++
		to = fmt.Sprintf("%sV%d", from, e.fresh)
	}
	re := regexp.MustCompile(`\b` + regexp.QuoteMeta(from) + `\b`)
	only := e.pick()
	for i := range e.files {
		if everywhere || i == only {
			e.files[i].Src = re.ReplaceAllString(e.files[i].Src, to)
		}
	}
	return fmt.Sprintf("rename %s to %s (everywhere %v)", from, to, everywhere)
}

// move moves a top-level declaration to the end of another file.
func (e *editor) move() string {
	i, j := e.pick(), e.pick()
	prog, _ := parser.Parse([]parser.Source{e.files[i]}, parser.Options{Workers: 1})
	ds := prog.Files[0].Decls
	if len(ds) == 0 || i == j {
		return "nothing to move"
	}
	k := e.rng.Intn(len(ds))
	src := e.files[i].Src
	lo, hi := int(ds[k].Pos().Offset), int(ds[k].End().Offset)
	if lo < 0 || hi > len(src) || lo > hi {
		return "nothing to move"
	}
	text := src[lo:hi]
	e.files[i].Src = src[:lo] + src[hi:]
	e.files[j].Src += "\n" + text + "\n"
	return fmt.Sprintf("move %s:%d to %s", e.files[i].Name, lo, e.files[j].Name)
}

// rendered is everything a caller can print of a run's diagnostics.
func rendered(t *testing.T, r *wfc.Result, files int) string {
	t.Helper()
	var b bytes.Buffer
	if err := diag.WriteText(&b, r.Diagnostics, r.Sources, diag.TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := diag.WriteJSON(&b, r.Diagnostics, files); err != nil {
		t.Fatal(err)
	}
	if err := diag.WriteSARIF(&b, r.Diagnostics, r.Sources, diag.SARIFOptions{Version: "test"}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// schedules is what the tables and their consumers say.
func schedules(r *wfc.Result) []string {
	var out []string
	for _, s := range r.Schedules {
		c := s.Consumer
		out = append(out, fmt.Sprintf("%s %s:%v %d %d %d %v", codegen.Place(c), c.FileName(), c.Pos, s.Attempts, s.GivesUp, s.GivesUpLatest, s.Rows))
	}
	return out
}

// names is what each file's Info says of the file's own nodes: every
// name's object, by where the object is declared, so two runs' models can
// be compared (a one-time Run's Info is the whole program's, shared by
// its files; a session's is each file's own).
func names(r *wfc.Result) []string {
	var out []string
	for _, f := range r.Program.Files {
		in := r.Info(f.Name)
		if in == nil {
			out = append(out, f.Name+": no info")
			continue
		}
		idents := map[*ast.Ident]bool{}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Ident:
				idents[n] = true
				if o, ok := in.Defs[n]; ok {
					out = append(out, fmt.Sprintf("%s:%d def %s", f.Name, n.Range.Start.Offset, where(o)))
				}
				if o, ok := in.Uses[n]; ok {
					out = append(out, fmt.Sprintf("%s:%d use %s", f.Name, n.Range.Start.Offset, where(o)))
				}
			case *ast.Name, *ast.StringLit:
				if o, ok := in.Uses[n]; ok {
					out = append(out, fmt.Sprintf("%s:%d use %s", f.Name, n.Pos().Offset, where(o)))
				}
			}
			return true
		})
		for _, w := range in.Words {
			if idents[w.Ident] {
				out = append(out, fmt.Sprintf("%s:%d word %s", f.Name, w.Ident.Range.Start.Offset, w.Builtin.Word.Name))
			}
		}
	}
	sort.Strings(out)
	return out
}

// where is an object's kind and the place of its declaration.
func where(o check.Object) string {
	if o == nil || reflect.ValueOf(o).IsNil() {
		return fmt.Sprintf("%T nil", o)
	}
	file := ""
	switch o := o.(type) {
	case *check.Enum:
		file = o.Decl.File.Name
	case *check.EnumMember:
		file = o.Enum.Decl.File.Name
	case *check.Entity:
		file = o.Decl.File.Name
	case *check.Field:
		file = o.Entity.Decl.File.Name
	case *check.Workflow:
		file = o.Decl.File.Name
	case *check.State:
		file = o.Workflow.Decl.File.Name
	case *check.Event:
		file = o.Workflow.Decl.File.Name
	case *check.Subscription:
		file = o.State.Workflow.Decl.File.Name
	case *check.Step:
		if o.State != nil {
			file = o.State.Workflow.Decl.File.Name
		}
		return fmt.Sprintf("%T %s %v", o, file, o.Decl.Range.Start)
	}
	if id := o.Name(); id != nil {
		return fmt.Sprintf("%T %s:%d", o, file, id.Range.Start.Offset)
	}
	return fmt.Sprintf("%T %s", o, file)
}

// modelClosed checks that the model's every enum, entity and workflow that
// any object points at is one of the model's own, declared in a file of
// the program as it is now.
func modelClosed(t *testing.T, r *wfc.Result, what string) {
	t.Helper()
	m := r.Checked.Program
	files := map[*ast.File]bool{}
	for _, f := range r.Program.Files {
		files[f] = true
	}
	enums, entities, workflows := map[*check.Enum]bool{}, map[*check.Entity]bool{}, map[*check.Workflow]bool{}
	for _, e := range m.Enums {
		enums[e] = true
		if !files[e.Decl.File] {
			t.Fatalf("%s: enum %s of a file not in the program", what, e.Decl.Name.Name)
		}
	}
	for _, e := range m.Entities {
		entities[e] = true
		if !files[e.Decl.File] {
			t.Fatalf("%s: entity of a file not in the program", what)
		}
	}
	for _, w := range m.Workflows {
		workflows[w] = true
		if !files[w.Decl.File] {
			t.Fatalf("%s: workflow of a file not in the program", what)
		}
	}
	ty := func(x check.Type) {
		if x.Enum != nil && !enums[x.Enum] || x.Entity != nil && !entities[x.Entity] {
			t.Fatalf("%s: a type points outside the model", what)
		}
	}
	for _, e := range m.Entities {
		for _, f := range e.Fields {
			ty(f.Type)
		}
	}
	for _, w := range m.Workflows {
		if w.TrackedEnum != nil && !enums[w.TrackedEnum] || w.Tracked != nil && !entities[w.Tracked.Entity] {
			t.Fatalf("%s: workflow %s tracks outside the model", what, w.Decl.Name.Name)
		}
		for _, ev := range w.Events {
			for _, p := range ev.Params {
				ty(p.Type)
			}
		}
		for _, s := range w.States {
			for _, h := range s.Handlers {
				if h.Enum != nil && !enums[h.Enum] {
					t.Fatalf("%s: a handler matches an enum outside the model", what)
				}
			}
		}
	}
	for _, ts := range m.Tests {
		if ts.Workflow != nil && !workflows[ts.Workflow] {
			t.Fatalf("%s: test %q runs a workflow outside the model", what, ts.Name)
		}
	}
}

// TestSessionAsRun: over random edit sequences — keystrokes, renames,
// moved declarations, files added, deleted and reordered, ignore comments
// and settings changed — a session that keeps its model, one that keeps
// only diagnostics, and runs in fresh sessions over a cache kept across
// them (a process each) report exactly what a cold Run reports, rendered
// byte for byte; the model session's tables and names are a cold run's
// too, and its model never points outside itself.
func TestSessionAsRun(t *testing.T) {
	defer wfc.CacheEverything()()
	progs := sessionPrograms(t)
	steps := 10
	if testing.Short() {
		steps = 4
	}
	for pi, prog := range progs {
		t.Run(fmt.Sprintf("%d-%s", pi, prog[0].Name), func(t *testing.T) {
			e := &editor{rng: rand.New(rand.NewSource(int64(pi))), files: slices.Clone(prog), settings: map[string]diag.Settings{}}
			settings := func(f string) diag.Settings { return e.settings[f] }
			cache, err := wfc.OpenCache(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			model := wfc.NewSession(wfc.Options{Settings: settings, Info: true, Workers: 1})
			only := wfc.NewSession(wfc.Options{Settings: settings, DiagnosticsOnly: true, Workers: 1})
			cached := wfc.NewSession(wfc.Options{Settings: settings, Info: true, Cache: cache, Workers: 1})
			var log []string
			for step := 0; step <= steps; step++ {
				what := "start"
				if step > 0 {
					what = e.step()
				}
				log = append(log, what)
				ctx := context.Background()
				cold := wfc.Run(ctx, e.files, wfc.Options{Settings: settings, Info: true, Workers: 1})
				want := rendered(t, cold, len(e.files))
				runs := map[string]*wfc.Result{
					"model session":           model.Run(ctx, e.files),
					"diagnostics session":     only.Run(ctx, e.files),
					"a process over a cache":  wfc.NewSession(wfc.Options{Settings: settings, DiagnosticsOnly: true, Cache: cache, Workers: 1}).Run(ctx, e.files),
					"model session and cache": cached.Run(ctx, e.files),
				}
				for name, r := range runs {
					if got := rendered(t, r, len(e.files)); got != want {
						t.Fatalf("after %s, the %s differs from a cold run (-cold +%s):\n%s", strings.Join(log, "; "), name, name, cmp.Diff(want, got))
					}
				}
				for _, name := range []string{"model session", "model session and cache"} {
					r := runs[name]
					if d := cmp.Diff(schedules(cold), schedules(r)); d != "" {
						t.Fatalf("after %s, the %s's tables differ (-cold +session):\n%s", strings.Join(log, "; "), name, d)
					}
					if d := cmp.Diff(names(cold), names(r)); d != "" {
						t.Fatalf("after %s, the %s's names differ (-cold +session):\n%s", strings.Join(log, "; "), name, d)
					}
					modelClosed(t, r, name+" after "+strings.Join(log, "; "))
				}
			}
		})
	}
}

// TestSessionRechecks: a session checks again only the files an edit can
// change — the edited one, those that read what it declares, and those
// whose model points at it — and still reports what a cold run reports.
// The same holds across processes, through the cache.
func TestSessionRechecks(t *testing.T) {
	base := []parser.Source{
		{Name: "a.wf", Src: "enum Verdict { Ok, No }\nenum Stage { Open, Done }\n"},
		{Name: "b.wf", Src: "entity Job { Stage Stage; }\nworkflow W {\n  Tracks = Job.Stage;\n  Initial = Open;\n  event E(Verdict v);\n  state Open { subscribe E(Verdict v); on E(Verdict v) { Ok { goto Done; } No { goto Done; } } }\n  terminal Done { }\n}\n"},
		{Name: "c_test.wf", Src: "test \"t\" { Workflow = W; Send(E(Ok)); Expect.End(Done); }\n"},
		{Name: "d.wf", Src: "workflow Other {\n  Initial = A;\n  event Go();\n  state A { subscribe Go(); on Go { goto B; } }\n  terminal B { }\n}\n"},
	}
	// Files under a few hundred bytes are not worth an entry: these are
	// made long enough for one.
	pad := "// " + strings.Repeat("padding ", 40) + "\n"
	for i := range base {
		base[i].Src = pad + base[i].Src
	}
	for _, tc := range []struct {
		name     string
		file     string
		from, to string
		model    []string // checked again by a session that keeps the model
		alone    []string // by a process over the cache
	}{
		{"a workflow nothing reads", "d.wf", "goto B;", "goto  B;", []string{"d.wf"}, []string{"d.wf"}},
		{"a workflow a test runs", "b.wf", "goto Done; }", "goto  Done; }", []string{"b.wf", "c_test.wf"}, []string{"b.wf", "c_test.wf"}},
		// The test reads Verdict only through its workflow's model.
		{"an enum's member renamed", "a.wf", "Ok, No", "Okay, No", []string{"a.wf", "b.wf", "c_test.wf"}, []string{"a.wf", "b.wf", "c_test.wf"}},
		{"a tracked enum's member added", "a.wf", "Open, Done", "Open, Done, Lost", []string{"a.wf", "b.wf", "c_test.wf"}, []string{"a.wf", "b.wf", "c_test.wf"}},
		{"a comment in the test", "c_test.wf", "test", "// a comment\ntest", []string{"c_test.wf"}, []string{"c_test.wf"}},
		{"a duplicate declared", "d.wf", "workflow Other", "enum Job { X }\nworkflow Other", []string{"b.wf", "c_test.wf", "d.wf"}, []string{"b.wf", "c_test.wf", "d.wf"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := slices.Clone(base)
			ctx := context.Background()
			cache, err := wfc.OpenCache(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			model := wfc.NewSession(wfc.Options{Info: true})
			model.Run(ctx, files)
			wfc.NewSession(wfc.Options{DiagnosticsOnly: true, Cache: cache}).Run(ctx, files)
			i := slices.IndexFunc(files, func(s parser.Source) bool { return s.Name == tc.file })
			if !strings.Contains(files[i].Src, tc.from) {
				t.Fatalf("%s has no %q", tc.file, tc.from)
			}
			files[i].Src = strings.Replace(files[i].Src, tc.from, tc.to, 1)
			want := rendered(t, wfc.Run(ctx, files, wfc.Options{}), len(files))
			for _, run := range []struct {
				what  string
				r     *wfc.Result
				again []string
			}{
				{"the model session", model.Run(ctx, files), tc.model},
				{"a process over the cache", wfc.NewSession(wfc.Options{DiagnosticsOnly: true, Cache: cache}).Run(ctx, files), tc.alone},
			} {
				if got := rendered(t, run.r, len(files)); got != want {
					t.Errorf("%s differs from a cold run (-cold +got):\n%s", run.what, cmp.Diff(want, got))
				}
				if d := cmp.Diff(run.again, run.r.Rechecked); d != "" {
					t.Errorf("%s checked again (-want +got):\n%s", run.what, d)
				}
			}
			// Nothing changed: nothing is checked.
			if r := wfc.NewSession(wfc.Options{DiagnosticsOnly: true, Cache: cache}).Run(ctx, files); len(r.Rechecked) != 0 {
				t.Errorf("a process over the cache, nothing changed, checked %v again", r.Rechecked)
			}
			if r := model.Run(ctx, files); len(r.Rechecked) != 0 {
				t.Errorf("the model session, nothing changed, checked %v again", r.Rechecked)
			}
		})
	}
}

// allocated is the bytes f allocates.
func allocated(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// TestSessionLinear: a session's work grows with the number of files as
// the files do, counted in bytes allocated (a count the machine's load
// cannot change): its first run, a run after one file changed, and a new
// process's run over a cache, on n and 4n files that read a shared file.
// Quadratic work (a closure per file over every file, say) grows 16×.
func TestSessionLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("checks 4,000 files")
	}
	defer wfc.CacheEverything()()
	files := func(n int) []parser.Source {
		out := []parser.Source{{Name: "shared.wf", Src: "enum Stage { Open, Done }\nentity Job { Stage S; }\n"}}
		for i := range n {
			out = append(out, parser.Source{Name: fmt.Sprintf("w%05d.wf", i),
				Src: fmt.Sprintf("workflow W%d { Tracks = Job.S; Initial = Open; event Go(Stage s); state Open { subscribe Go(Stage s); on Go { goto Done; } } terminal Done { } }\n", i)})
		}
		return out
	}
	measure := func(n int) (first, edit, process uint64) {
		fs := files(n)
		ctx := context.Background()
		cache, err := wfc.OpenCache(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		s := wfc.NewSession(wfc.Options{Info: true})
		first = allocated(func() { s.Run(ctx, fs) })
		wfc.NewSession(wfc.Options{DiagnosticsOnly: true, Cache: cache}).Run(ctx, fs)
		fs[n/2].Src = strings.Replace(fs[n/2].Src, "goto Done;", "goto  Done;", 1)
		edit = allocated(func() { s.Run(ctx, fs) })
		process = allocated(func() { wfc.NewSession(wfc.Options{DiagnosticsOnly: true, Cache: cache}).Run(ctx, fs) })
		return
	}
	f1, e1, p1 := measure(1000)
	f4, e4, p4 := measure(4000)
	for _, c := range []struct {
		what   string
		n, n4x uint64
	}{{"first run", f1, f4}, {"a run after an edit", e1, e4}, {"a process over the cache", p1, p4}} {
		ratio := float64(c.n4x) / float64(c.n)
		t.Logf("%s: %d → %d bytes, %.1f×", c.what, c.n, c.n4x, ratio)
		if ratio > 6 {
			t.Errorf("%s allocates %.1f× as much for 4× the files: not linear", c.what, ratio)
		}
	}
}

// TestCacheSharedAcrossNames: the command line names a file as it was given
// (`flow.wf`), the language server by its path: each reads what the other
// left in the cache, and reports under its own names.
func TestCacheSharedAcrossNames(t *testing.T) {
	defer wfc.CacheEverything()()
	dir := t.TempDir()
	t.Chdir(dir)
	cache, err := wfc.OpenCache(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	rel := []parser.Source{
		{Name: "types.wf", Src: "enum Stage { Open, Done }\nentity Job { Stage S; }\n"},
		{Name: "flow.wf", Src: "workflow W { Tracks = Job.S; Initial = Open; event Go(); event Ping(); state Open { subscribe Go(); subscribe Ping(); on Go { goto Done; } } terminal Done { } }\n"},
	}
	abs := slices.Clone(rel)
	for i := range abs {
		abs[i].Name = filepath.Join(dir, abs[i].Name)
	}
	ctx := context.Background()
	opt := wfc.Options{DiagnosticsOnly: true, Cache: cache}
	for _, c := range []struct{ fill, read []parser.Source }{{rel, abs}, {abs, rel}} {
		if r := wfc.NewSession(opt).Run(ctx, c.fill); len(r.Diagnostics) == 0 {
			t.Fatal("the program has no diagnostic to carry")
		}
		r := wfc.NewSession(opt).Run(ctx, c.read)
		if len(r.Rechecked) != 0 {
			t.Errorf("named %s, checked again %v", c.read[0].Name, r.Rechecked)
		}
		want := rendered(t, wfc.Run(ctx, c.read, wfc.Options{}), len(c.read))
		if got := rendered(t, r, len(c.read)); got != want {
			t.Errorf("named %s, differs from a cold run (-cold +cached):\n%s", c.read[0].Name, cmp.Diff(want, got))
		}
		c.read[1].Src += " "
		c.fill[1].Src += " "
	}
}
