package lsp

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wfc-lang/wfc"
	"github.com/wfc-lang/wfc/codegen"
	"github.com/wfc-lang/wfc/internal/corpus"
	"github.com/wfc-lang/wfc/lsp/protocol"
)

// fillCache checks the files of dir as `wfc check` does, over cache c.
func fillCache(t testing.TB, dir string, c *wfc.Cache) {
	t.Helper()
	names, _ := filepath.Glob(filepath.Join(dir, "*.wf"))
	var srcs []wfc.Source
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, wfc.Source{Name: n, Src: string(b)})
	}
	opt := wfc.Options{DiagnosticsOnly: true, Cache: c, Lower: codegen.Options{MaxRows: codegen.SummaryRows}}
	if r := wfc.Run(context.Background(), srcs, opt); r.Err != nil {
		t.Fatal(r.Err)
	}
}

// TestWarmOpen: opening a workspace `wfc check` left in the cache, the
// server publishes the diagnostics at once from the cache (it checks no
// file for them), then builds the model, and every request is answered;
// what it publishes first is what it publishes last. It keeps in the
// cache what it checked of the files it read from disk, so the next
// server opens warm too.
func TestWarmOpen(t *testing.T) {
	// Every file past the size worth an entry.
	pad := "// " + strings.Repeat("padding ", 40) + "\n"
	flow := pad + flowWF
	files := map[string]string{"types.wf": pad + typesWF, "flow.wf": flow,
		"warn.wf": pad + "workflow W { Initial = A; event Go(); event Ping();\n  state A { subscribe Go(); subscribe Ping(); on Go { goto Done; } }\n  terminal Done { } }\n"}
	// open runs a server over cache, opens flow.wf and asks for a
	// definition (which needs the model); it returns how many files the
	// first diagnostics checked.
	dir := t.TempDir()
	var edit func(*client) // after the definition, if set
	open := func(what string, cache *wfc.Cache, fill bool) int64 {
		c := startAt(t, dir, files, Options{Debounce: -1, Cache: cache}, nil)
		defer c.stop()
		if fill {
			fillCache(t, c.dir, cache)
		}
		c.initialize()
		first := c.diagsFor("warn.wf", func(p *protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) > 0 })
		c.open("flow.wf", flow)
		c.version("flow.wf", 1)
		p := at(flow, "Decision decision", 0, 2)
		def, err := c.srv.Definition(c.ctx, &protocol.DefinitionParams{TextDocumentPositionParams: docPos(c, "flow.wf", p.Line, p.Character)})
		if err != nil || def == nil {
			t.Fatalf("%s: definition of Decision: %v, %v", what, def, err)
		}
		if edit != nil {
			edit(c)
		}
		c.rec.mu.Lock()
		ps := c.rec.diags[c.uri("warn.wf")]
		last := ps[len(ps)-1]
		c.rec.mu.Unlock()
		if !slices.Equal(codes(first), codes(last)) {
			t.Errorf("%s: first published %v, last %v", what, codes(first), codes(last))
		}
		return c.server.ck.an.early.Load()
	}
	cache, err := wfc.OpenCache(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if n := open("after wfc check", cache, true); n != 0 {
		t.Errorf("after wfc check, the first diagnostics checked %d files, want none (all from the cache)", n)
	}
	// A server over an empty cache keeps what it checks of the files it
	// read from disk, so the next opens warm; an edited buffer, which no
	// other run will read, it does not keep.
	empty, err := wfc.OpenCache(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	entries := func() int {
		des, _ := os.ReadDir(empty.Dir())
		return len(des)
	}
	edit = func(c *client) {
		before := entries()
		c.edit("flow.wf", 2, protocol.Range{Start: pos(0, 0), End: pos(0, 0)}, " ")
		c.version("flow.wf", 2)
		if n := entries(); n != before {
			t.Errorf("an edit of an open buffer: %d entries, %d before", n, before)
		}
	}
	if n := open("cold", empty, false); n != int64(len(files)) {
		t.Errorf("cold, the first diagnostics checked %d files, want %d", n, len(files))
	}
	edit = nil
	if n := open("after a server", empty, false); n != 0 {
		t.Errorf("after a server, the first diagnostics checked %d files, want none", n)
	}
}

// BenchmarkOpenWarmWorkspace: the first diagnostics of the 100-file
// workspace (with shared.wf, which the opened file reads) that `wfc check`
// has already checked: from initialize (and the file on screen opened) to
// the publication of its diagnostics as the whole workspace gives them,
// with the CPU it took — reading the folders included, the model built
// after not.
func BenchmarkOpenWarmWorkspace(b *testing.B) {
	gen := corpus.GenerateShared(100000, 100, 10)
	ws := map[string]string{}
	for _, f := range gen {
		ws[f.Name] = f.Src
	}
	cache, err := wfc.OpenCache(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	var cpu, wall time.Duration
	dir := b.TempDir() // one workspace: the cache knows its files by path
	filled := false
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		c := startAt(b, dir, ws, Options{Debounce: -1}, nil)
		if !filled {
			fillCache(b, c.dir, cache)
			filled = true
		}
		c.server.opt.Cache = cache
		c.server.ck.an = newAnalysis(cache, c.server.ck.onDisk)
		b.StartTimer()
		c0, t0 := cpuTime(), time.Now()
		// As an editor does: the file on screen is opened right after
		// initialize, while the folders load.
		p := &protocol.InitializeParams{}
		p.WorkspaceFolders = protocol.NewNullable([]protocol.WorkspaceFolder{{URI: protocol.FileURI(c.dir), Name: "ws"}})
		if _, err := c.srv.Initialize(c.ctx, p); err != nil {
			b.Fatal(err)
		}
		if err := c.srv.Initialized(c.ctx, &protocol.InitializedParams{}); err != nil {
			b.Fatal(err)
		}
		c.open(gen[0].Name, gen[0].Src)
		// Alone, before the folders are in, the file does not know
		// shared.wf's types: its diagnostics are the workspace's once
		// there are none.
		c.diagsFor(gen[0].Name, func(p *protocol.PublishDiagnosticsParams) bool {
			v, ok := p.Version.Get()
			return ok && v == 1 && len(p.Diagnostics) == 0
		})
		cpu += cpuTime() - c0
		wall += time.Since(t0)
		b.StopTimer()
		// Let the model the server goes on to build finish, so the next
		// open is measured alone.
		if _, err := c.srv.DocumentSymbol(c.ctx, &protocol.DocumentSymbolParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri(gen[0].Name)}}); err != nil {
			b.Fatal(err)
		}
		_ = c.srv.Exit(c.ctx)
		<-c.exit
		c.stop()
		b.StartTimer()
	}
	b.ReportMetric(float64(cpu)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(wall)/float64(time.Millisecond)/float64(b.N), "wall-ms/op")
}
