package lsp

import (
	"context"
	"sync/atomic"

	"github.com/wfc-lang/wfc"
	"github.com/wfc-lang/wfc/config"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/parser"
)

// analysis checks the workspace through the driver (wfc.Session): the
// server assembles no pipeline of its own. The session keeps each file's
// parse and what checking it gave, re-parses only the edited file (only
// the edited declaration, where that is safe) and re-checks only the files
// an edit can change, keeping the model whole (the objects of the files
// not checked again are kept, and the new ones point at them): so every
// snapshot has the model navigation reads, and `wfc check` and the editor
// report the same, byte for byte.
//
// With a cache (Options.Cache, the command line's), the first analysis is
// done twice: first for the diagnostics alone, from the cache where `wfc
// check` left the files' results (published at once), then with the
// model, which needs every file parsed.
type analysis struct {
	session *wfc.Session
	quick   atomic.Pointer[wfc.Session] // the first, diagnostics-only run; nil once done
	// finder reads wfc.json afresh for each analysis (the settings of a
	// file are the nearest wfc.json's), so an edit to one shows at the
	// next check.
	finder atomic.Pointer[config.Finder]
	// early is how many files the diagnostics-only run checked (-1 before
	// it ran): none when the cache held them all (for tests and the log).
	early atomic.Int64
}

// newAnalysis makes the workspace's analysis; cacheFile says which files'
// results the cache may keep (those read from disk).
func newAnalysis(c *wfc.Cache, cacheFile func(string) bool) *analysis {
	a := &analysis{}
	a.early.Store(-1)
	a.finder.Store(config.NewFinder())
	opt := wfc.Options{
		Settings: a.settings,
		Lower:    lowering(),
		Info:     true,
	}
	if c != nil {
		opt.Cache, opt.CacheFile = c, cacheFile
		q := opt
		q.DiagnosticsOnly, q.Info = true, false
		a.quick.Store(wfc.NewSession(q))
	}
	a.session = wfc.NewSession(opt)
	return a
}

func (a *analysis) settings(file string) diag.Settings {
	s, _, _ := a.finder.Load().For(file)
	return s
}

// run analyzes files with the model. Before the first with early set
// (once the workspace is loaded), with a cache, it hands early the
// diagnostics the cache gives (which publishes them).
func (a *analysis) run(ctx context.Context, files []parser.Source, early func(*wfc.Result)) *wfc.Result {
	a.finder.Store(config.NewFinder())
	if q := a.quick.Load(); q != nil && early != nil {
		// Done once, when not cancelled (the workspace still loading).
		if r := q.Run(ctx, files); r.Err == nil && a.quick.CompareAndSwap(q, nil) {
			a.early.Store(int64(len(r.Rechecked)))
			early(r)
		}
	}
	return a.session.Run(ctx, files)
}
