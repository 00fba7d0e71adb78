package check_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/parser"
)

// crossFile are programs whose files depend on each other in every way the
// checker reads across files.
var crossFile = map[string][]string{
	"tracks through three files": {
		"enum Stage { Open, Done, Lost }",
		"entity Job { Stage Stage; }",
		`workflow W { Tracks = Job.Stage; Initial = Open; event E(); state Open { subscribe E(); on E { goto Done; } } terminal Done { } }`,
	},
	"duplicates across files": {
		"enum A { X }\nentity B { string S; }",
		"entity A { string T; }\nworkflow W { Initial = S; state S { } }",
		"enum B { Y }\nworkflow W { Initial = S; state S { } }",
		"entity C { A a; B b; }",
	},
	"second principal": {
		"[Principal] entity P { string N; }",
		"[Principal] entity Q { string N; }",
		"[Principal] entity P { string M; }",
	},
	"unknown names and suggestions": {
		"enum Stage { Open }\nentity Jobs { Stage S; }",
		"workflow W { Tracks = Job.S; Initial = Open; event E(Stag s); state Open { } }",
		"entity E2 { Stag S; Stage T; W w; }",
	},
	"tests across files": {
		`workflow W { Autostart = true; Initial = A; event Go(); state A { subscribe Go(); on Go { goto B; } } terminal B { } }`,
		`test "one" { Workflow = W; Send(Go()); Expect.End(B); }`,
		`test "one" { Send(Go()); } test "two" { Workflow = V; }`,
	},
	"handler enum from another file": {
		"enum Verdict { Ok, No }",
		`workflow W { Initial = A; event D(Verdict v); state A { subscribe D(Verdict v); on D(Verdict v) { Ok { goto B; } Nope { goto B; } } } terminal B { } }`,
	},
}

// perFilePrograms are the programs TestPerFile checks: the cross-file ones,
// the examples, and every golden case cut into one file per declaration.
func perFilePrograms(t *testing.T) map[string][]parser.Source {
	out := map[string][]parser.Source{}
	for name, files := range crossFile {
		var srcs []parser.Source
		for i, f := range files {
			srcs = append(srcs, parser.Source{Name: fmt.Sprintf("f%d.wf", i), Src: f})
		}
		out[name] = srcs
	}
	for _, dir := range []string{"../testdata/examples/jobflow", "../testdata/examples/orders", "../testdata/cases/multifile"} {
		names, _ := filepath.Glob(filepath.Join(dir, "*.wf"))
		var srcs []parser.Source
		for _, n := range names {
			b, err := os.ReadFile(n)
			if err != nil {
				t.Fatal(err)
			}
			srcs = append(srcs, parser.Source{Name: filepath.Base(n), Src: string(b)})
		}
		out[dir] = srcs
	}
	cases, _ := filepath.Glob("../testdata/cases/*.wf")
	for _, n := range cases {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(n)] = splitDecls(string(b))
	}
	return out
}

// splitDecls cuts src into one file per top-level declaration (what lies
// between two declarations goes with the first).
func splitDecls(src string) []parser.Source {
	prog, _ := parser.Parse([]parser.Source{{Name: "x.wf", Src: src}}, parser.Options{Workers: 1})
	ds := prog.Files[0].Decls
	if len(ds) < 2 {
		return []parser.Source{{Name: "f0.wf", Src: src}}
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
		if lo >= hi {
			continue
		}
		out = append(out, parser.Source{Name: fmt.Sprintf("f%02d.wf", i), Src: src[lo:hi]})
	}
	return out
}

func diagKeys(ds []diag.Diagnostic) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = fmt.Sprintf("%+v", d)
	}
	slices.Sort(out)
	return out
}

// TestPerFile: checking a program file by file gives what a whole check
// gives. For every file of every program: the whole check's diagnostics
// are the union of its files' (PerFile); checking the file alone against
// the others (Only) reports what the whole check reported while checking
// it, and reads what it read; and checking it, with the files that point
// at it, against an earlier model (Reuse) gives the same and a model whose
// every pointer leads to an object of that model.
func TestPerFile(t *testing.T) {
	for name, srcs := range perFilePrograms(t) {
		t.Run(name, func(t *testing.T) {
			prog, _ := parser.Parse(srcs, parser.Options{Workers: 1})
			plain := check.Check(prog)
			whole := check.CheckWith(prog, check.Options{PerFile: true, Info: true})
			if len(whole.Files) != len(prog.Files) {
				t.Fatalf("%d files, %d results", len(prog.Files), len(whole.Files))
			}
			var union []diag.Diagnostic
			byFile := map[*ast.File]*check.FileResult{}
			for _, fr := range whole.Files {
				union = append(union, fr.Diags...)
				byFile[fr.File] = fr
			}
			if d := cmp.Diff(diagKeys(plain.Diags), diagKeys(union)); d != "" {
				t.Fatalf("the files' diagnostics are not the whole check's (-whole +files):\n%s", d)
			}
			if len(plain.Consumers) != len(whole.Consumers) {
				t.Fatalf("%d consumers, %d file by file", len(plain.Consumers), len(whole.Consumers))
			}
			// The files' Info are the whole check's, node for node.
			info := check.CheckWith(prog, check.Options{Info: true}).Program.Info
			defs, uses, words := 0, 0, 0
			for _, fr := range whole.Files {
				for id := range fr.Info.Defs {
					if _, ok := info.Defs[id]; !ok {
						t.Errorf("%s: %s at %v is a definition only file by file", fr.File.Name, id.Name, id.Range.Start)
					}
				}
				for n := range fr.Info.Uses {
					if _, ok := info.Uses[n]; !ok {
						t.Errorf("%s: a use at %v only file by file", fr.File.Name, n.Pos())
					}
				}
				defs, uses, words = defs+len(fr.Info.Defs), uses+len(fr.Info.Uses), words+len(fr.Info.Words)
			}
			if defs != len(info.Defs) || uses != len(info.Uses) || words != len(info.Words) {
				t.Errorf("file by file %d definitions, %d uses, %d words; whole %d, %d, %d", defs, uses, words, len(info.Defs), len(info.Uses), len(info.Words))
			}
			if len(whole.Program.Info.Defs) != 0 {
				t.Errorf("with PerFile, Program.Info holds %d definitions", len(whole.Program.Info.Defs))
			}
			for _, f := range prog.Files {
				want := byFile[f]
				part := check.CheckWith(prog, check.Options{Only: map[*ast.File]bool{f: true}})
				if len(part.Files) != 1 || part.Files[0].File != f {
					t.Fatalf("%s alone: %d results", f.Name, len(part.Files))
				}
				got := part.Files[0]
				if d := cmp.Diff(diagKeys(want.Diags), diagKeys(got.Diags)); d != "" {
					t.Errorf("%s alone: diagnostics differ (-whole +alone):\n%s", f.Name, d)
				}
				if d := cmp.Diff(want.Uses, got.Uses); d != "" {
					t.Errorf("%s alone: uses differ (-whole +alone):\n%s", f.Name, d)
				}
				if len(got.Consumers) != len(want.Consumers) {
					t.Errorf("%s alone: %d consumers, %d in the whole check", f.Name, len(got.Consumers), len(want.Consumers))
				}

				only := pointingAt(prog, whole, f)
				re := check.CheckWith(prog, check.Options{Only: only, Reuse: whole.Program, Info: true})
				var wantD, gotD []diag.Diagnostic
				for _, fr := range whole.Files {
					if only[fr.File] {
						wantD = append(wantD, fr.Diags...)
					}
				}
				for _, fr := range re.Files {
					gotD = append(gotD, fr.Diags...)
				}
				if d := cmp.Diff(diagKeys(wantD), diagKeys(gotD)); d != "" {
					t.Errorf("%s with an earlier model: diagnostics differ (-whole +again):\n%s", f.Name, d)
				}
				checkModel(t, f.Name, whole.Program, re.Program, only)
			}
		})
	}
}

// pointingAt is f with every file whose objects point at f's (its uses
// name something f declares, or it has tests and f workflows), and theirs
// in turn.
func pointingAt(prog *ast.Program, whole *check.Result, f *ast.File) map[*ast.File]bool {
	only := map[*ast.File]bool{f: true}
	for changed := true; changed; {
		changed = false
		for _, fr := range whole.Files {
			if only[fr.File] {
				continue
			}
			for g := range only {
				if readsFrom(fr, g) {
					only[fr.File], changed = true, true
					break
				}
			}
		}
	}
	return only
}

func readsFrom(fr *check.FileResult, g *ast.File) bool {
	for _, d := range g.Decls {
		if _, ok := d.(*ast.Workflow); ok && fr.Uses.Workflows {
			return true
		}
		if n := d.DeclName(); n != nil && slices.Contains(fr.Uses.Names, n.Name) {
			return true
		}
	}
	return false
}

// checkModel: the model made with Reuse holds the same objects as the
// earlier one for the files not checked, new ones for those checked, and
// every enum, entity and workflow any of them points at is one of its own.
func checkModel(t *testing.T, name string, old, m *check.Program, only map[*ast.File]bool) {
	t.Helper()
	if len(old.Enums) != len(m.Enums) || len(old.Entities) != len(m.Entities) || len(old.Workflows) != len(m.Workflows) || len(old.Tests) != len(m.Tests) {
		t.Errorf("%s: the model with Reuse has %d enums, %d entities, %d workflows, %d tests; the whole one %d, %d, %d, %d", name,
			len(m.Enums), len(m.Entities), len(m.Workflows), len(m.Tests), len(old.Enums), len(old.Entities), len(old.Workflows), len(old.Tests))
		return
	}
	enums, entities, workflows := map[*check.Enum]bool{}, map[*check.Entity]bool{}, map[*check.Workflow]bool{}
	for i, e := range m.Enums {
		enums[e] = true
		if (e == old.Enums[i]) == only[e.Decl.File] {
			t.Errorf("%s: enum %s kept or made anew wrongly", name, e.Decl.Name.Name)
		}
	}
	for i, e := range m.Entities {
		entities[e] = true
		if (e == old.Entities[i]) == only[e.Decl.File] {
			t.Errorf("%s: entity %s kept or made anew wrongly", name, e.Decl.Name.Name)
		}
	}
	for i, w := range m.Workflows {
		workflows[w] = true
		if (w == old.Workflows[i]) == only[w.Decl.File] {
			t.Errorf("%s: workflow %s kept or made anew wrongly", name, w.Decl.Name.Name)
		}
	}
	typeOK := func(ty check.Type, where string) {
		if ty.Enum != nil && !enums[ty.Enum] || ty.Entity != nil && !entities[ty.Entity] {
			t.Errorf("%s: %s points outside the model", name, where)
		}
	}
	for _, e := range m.Entities {
		for _, f := range e.Fields {
			typeOK(f.Type, "field "+f.Decl.Name.Name)
		}
	}
	for _, w := range m.Workflows {
		if w.TrackedEnum != nil && !enums[w.TrackedEnum] || w.Tracked != nil && !entities[w.Tracked.Entity] {
			t.Errorf("%s: workflow %s tracks outside the model", name, w.Decl.Name.Name)
		}
		for _, ev := range w.Events {
			for _, p := range ev.Params {
				typeOK(p.Type, "event "+ev.Decl.Name.Name)
			}
		}
		for _, s := range w.States {
			for _, h := range s.Handlers {
				if h.Enum != nil && !enums[h.Enum] {
					t.Errorf("%s: a handler of %s matches an enum outside the model", name, w.Decl.Name.Name)
				}
			}
		}
	}
	for _, ts := range m.Tests {
		if ts.Workflow != nil && !workflows[ts.Workflow] {
			t.Errorf("%s: test %q runs a workflow outside the model", name, ts.Name)
		}
	}
	_ = strings.TrimSpace
}

// TestUsesSuffice: what a file's Uses say it read, and what those files
// read in turn (a test reads its workflow's model, which points at the
// enums its events take), is all it depends on: without every other file,
// a file's diagnostics are the same.
func TestUsesSuffice(t *testing.T) {
	for name, srcs := range perFilePrograms(t) {
		t.Run(name, func(t *testing.T) {
			prog, _ := parser.Parse(srcs, parser.Options{Workers: 1})
			whole := check.CheckWith(prog, check.Options{PerFile: true})
			uses := map[*ast.File]check.Uses{}
			for _, fr := range whole.Files {
				uses[fr.File] = fr.Uses
			}
			for _, fr := range whole.Files {
				in := map[*ast.File]bool{fr.File: true}
				for grew := true; grew; {
					grew = false
					for _, g := range prog.Files {
						if in[g] {
							continue
						}
						for h := range in {
							if reads(uses[h], g) {
								in[g], grew = true, true
								break
							}
						}
					}
				}
				keep := &ast.Program{}
				for _, g := range prog.Files {
					if in[g] {
						keep.Files = append(keep.Files, g)
					}
				}
				if len(keep.Files) == len(prog.Files) {
					continue
				}
				part := check.CheckWith(keep, check.Options{Only: map[*ast.File]bool{fr.File: true}})
				if d := cmp.Diff(diagKeys(fr.Diags), diagKeys(part.Files[0].Diags)); d != "" {
					t.Errorf("%s without the %d files it does not read: diagnostics differ (-all +without):\n%s", fr.File.Name, len(prog.Files)-len(keep.Files), d)
				}
			}
		})
	}
}

// reads reports whether uses read anything file g declares.
func reads(u check.Uses, g *ast.File) bool {
	for _, d := range g.Decls {
		switch d := d.(type) {
		case *ast.Test:
			if u.Tests {
				return true
			}
			continue
		case *ast.Workflow:
			if u.Workflows {
				return true
			}
		case *ast.Entity:
			for _, a := range d.Attrs {
				if u.Principals && a.Name != nil && a.Name.Name == "Principal" {
					return true
				}
			}
		}
		if n := d.DeclName(); n != nil && (u.AllNames || slices.Contains(u.Names, n.Name)) {
			return true
		}
	}
	return false
}
