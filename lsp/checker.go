package lsp

import (
	"context"
	"sort"
	"sync"
	"time"

	"github.com/wfc-lang/wfc"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/lsp/protocol"
	"github.com/wfc-lang/wfc/parser"
)

// snapshot is the analysis of one generation of the workspace: every
// request is answered from one, so positions and texts always agree. Its
// result is the driver's, with the whole model even after a partial
// re-check, so no request checks anything again.
type snapshot struct {
	gen      uint64
	res      *wfc.Result
	texts    map[string]*text
	uris     map[string]protocol.URI
	versions map[string]int32 // open buffers only
	byFile   map[string][]diag.Diagnostic
	enc      encoding
}

// genKey carries, in a request's context, the generation it must see.
type genKey struct{}

// checker owns the workspace and re-checks it: each change bumps the
// generation and (re)starts the debounce timer; a check of a newer
// generation cancels an older one still running; requests wait for the
// snapshot of the generation they arrived after.
type checker struct {
	s  *Server
	an *analysis

	mu        sync.Mutex
	ws        *workspace
	gen       uint64
	running   uint64
	cancel    context.CancelFunc
	snap      *snapshot
	ready     chan struct{} // closed (and replaced) whenever snap changes
	timer     *time.Timer
	stopped   bool
	published map[string]bool  // closed files last published with diagnostics
	texts     map[string]*text // line indexes of closed files, kept while their text is

	pubMu sync.Mutex // publications go out in generation order
}

func newChecker(s *Server) *checker {
	// Generation 1 is the workspace as read at start: a request before any
	// change still gets a check.
	c := &checker{s: s, ws: newWorkspace(), gen: 1, ready: make(chan struct{}), published: map[string]bool{}, texts: map[string]*text{}}
	c.an = newAnalysis(s.opt.Cache, c.onDisk)
	return c
}

// onDisk reports whether the server holds file as read from disk (not an
// open buffer), so the cache may keep its results for other runs.
func (c *checker) onDisk(file string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ws.open[file] == nil
}

func (c *checker) generation() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gen
}

// update changes the workspace and schedules a debounced re-check.
func (c *checker) update(f func(ws *workspace)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f(c.ws)
	c.gen++
	if c.stopped {
		return
	}
	d := c.s.opt.Debounce
	if d < 0 {
		d = 0
	}
	if c.timer == nil {
		c.timer = time.AfterFunc(d, c.run)
	} else {
		c.timer.Reset(d)
	}
}

// read runs f on the workspace under the lock.
func (c *checker) read(f func(ws *workspace)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f(c.ws)
}

func (c *checker) stop() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stopped = true
	if c.timer != nil {
		c.timer.Stop()
	}
	if c.cancel != nil {
		c.cancel()
	}
	close(c.ready) // wake the requests waiting for a check that will not come
	c.ready = make(chan struct{})
}

// run checks the current generation unless it is checked or being checked.
func (c *checker) run() {
	c.dropGone()
	c.mu.Lock()
	gen := c.gen
	if c.stopped || c.running >= gen || (c.snap != nil && c.snap.gen >= gen) {
		c.mu.Unlock()
		return
	}
	if c.cancel != nil {
		c.cancel() // a stale check: its result would be thrown away
	}
	ctx, cancel := context.WithCancel(context.Background())
	c.cancel, c.running = cancel, gen
	files := c.ws.sources()
	loaded := c.ws.loaded
	sn := &snapshot{gen: gen, texts: map[string]*text{}, uris: map[string]protocol.URI{}, versions: map[string]int32{}, enc: c.s.encoding()}
	for _, f := range files {
		sn.uris[f.Name] = c.ws.uriOf(f.Name)
		if d := c.ws.open[f.Name]; d != nil {
			sn.texts[f.Name] = d.text
			sn.versions[f.Name] = d.version
		}
	}
	c.mu.Unlock()

	var early func(*wfc.Result)
	if loaded {
		early = func(r *wfc.Result) {
			// The cache's diagnostics, before the model: published, not kept.
			early := *sn
			c.fill(&early, files, r)
			c.publish(&early)
			c.s.logf("diagnostics of %d files published from the cache (%d checked again); the model follows", len(files), len(r.Rechecked))
		}
	}
	res := c.an.run(ctx, files, early)
	if res.Err != nil {
		return
	}
	c.fill(sn, files, res)

	c.mu.Lock()
	if c.snap != nil && c.snap.gen >= gen {
		c.mu.Unlock()
		return
	}
	c.snap = sn
	close(c.ready)
	c.ready = make(chan struct{})
	current := c.gen == gen
	c.mu.Unlock()
	if current {
		c.publish(sn)
	}
}

// fill completes a snapshot with the analysis of files: the texts of the
// closed files, and the diagnostics by file.
func (c *checker) fill(sn *snapshot, files []parser.Source, res *wfc.Result) {
	c.mu.Lock()
	texts := make(map[string]*text, len(files))
	for name, t := range sn.texts {
		texts[name] = t
	}
	for _, f := range files {
		if texts[f.Name] == nil {
			t := c.texts[f.Name]
			if t == nil || t.src != f.Src {
				t = newText(f.Src)
				c.texts[f.Name] = t
			}
			texts[f.Name] = t
		}
	}
	c.mu.Unlock()
	sn.texts = texts
	sn.res = res
	sn.byFile = map[string][]diag.Diagnostic{}
	for _, d := range res.Diagnostics {
		sn.byFile[d.File] = append(sn.byFile[d.File], d)
	}
}

// snapshot returns the analysis of the generation the request arrived
// after (or a newer one), checking at once if that is still pending.
func (c *checker) snapshot(ctx context.Context) (*snapshot, error) {
	want, ok := ctx.Value(genKey{}).(uint64)
	if !ok {
		want = c.generation()
	}
	for {
		c.mu.Lock()
		if c.snap != nil && c.snap.gen >= want {
			sn := c.snap
			c.mu.Unlock()
			return sn, nil
		}
		if c.stopped {
			c.mu.Unlock()
			return nil, protocol.Errorf(protocol.CodeRequestFailed, "wfc lsp: the server is shutting down")
		}
		ready := c.ready
		if c.running < want {
			go c.run() // a request should not wait out the debounce
		}
		c.mu.Unlock()
		select {
		case <-ready:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// publish sends the diagnostics of every open file, and of closed files
// that have some (or had some last time, to clear them).
func (c *checker) publish(sn *snapshot) {
	c.pubMu.Lock()
	defer c.pubMu.Unlock()
	c.mu.Lock()
	var names []string
	for name := range sn.texts {
		_, open := sn.versions[name]
		has := len(sn.byFile[name]) > 0
		if open || has || c.published[name] {
			names = append(names, name)
		}
		if !open {
			c.published[name] = has
		}
	}
	// A file gone from the workspace (deleted on disk) loses its diagnostics.
	for name, had := range c.published {
		if _, ok := sn.texts[name]; !ok {
			if had {
				names = append(names, name)
			}
			delete(c.published, name)
		}
	}
	for name := range c.texts {
		if _, ok := sn.texts[name]; !ok {
			delete(c.texts, name)
		}
	}
	c.mu.Unlock()
	sort.Strings(names)
	for _, name := range names {
		p := &protocol.PublishDiagnosticsParams{URI: sn.uriOf(name), Diagnostics: c.s.toDiagnostics(sn, sn.byFile[name])}
		if v, ok := sn.versions[name]; ok {
			p.Version = protocol.NewOptional(v)
		}
		if err := c.s.client.PublishDiagnostics(context.Background(), p); err != nil {
			c.s.logf("publishDiagnostics %s: %v", name, err)
			return
		}
	}
}
