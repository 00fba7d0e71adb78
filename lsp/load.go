package lsp

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wfc-lang/wfc/internal/safefile"
	"github.com/wfc-lang/wfc/lsp/protocol"
)

// Bounds of one load of the workspace folders. A folder may be / or $HOME
// (an editor opened there): the load stops at these and says so, and the
// files it has read are the program.
const (
	maxLoadFiles   = 10_000    // *.wf files read
	maxLoadBytes   = 256 << 20 // bytes read, all files together
	maxLoadEntries = 200_000   // directory entries visited
)

// loadLimits are the bounds a load applies (the constants, or smaller in
// tests).
type loadLimits struct {
	files, entries int
	bytes          int64
	every          int // files read between two progress reports
}

var defaultLimits = loadLimits{files: maxLoadFiles, entries: maxLoadEntries, bytes: maxLoadBytes, every: 100}

// loader is the one background load of the workspace folders a session
// runs: started by `initialized`, so initialize is answered at once and
// the client may be sent progress; reported to the
// client as work-done progress; cancelled by shutdown, by the end of the
// session, or by the client's cancel button.
type loader struct {
	stop     chan struct{} // closed when the session ends: polling stops
	stopOnce sync.Once
	ctx      context.Context
	started  atomic.Bool
	cancel   context.CancelFunc
	done     chan struct{} // closed when the files are in the workspace
	token    protocol.ProgressToken

	progress bool // the client shows work-done progress

	// Set by the load, read after done: whether a poll may walk the
	// folders again to find new files.
	entries   int
	truncated bool
}

// newLoad prepares the load of the workspace folders (initialize does);
// startLoad runs it.
func (s *Server) newLoad(progress bool) {
	ctx, cancel := context.WithCancel(context.Background())
	s.mu.Lock()
	s.ld = &loader{stop: make(chan struct{}), ctx: ctx, cancel: cancel, done: make(chan struct{}), token: protocol.String("wfc-load"), progress: progress}
	s.mu.Unlock()
}

// startLoad reads the workspace folders in the background, once; it
// returns the load it started, or nil.
func (s *Server) startLoad() *loader {
	s.mu.Lock()
	ld := s.ld
	s.mu.Unlock()
	if ld == nil || !ld.started.CompareAndSwap(false, true) {
		return nil
	}
	var fs folders
	s.ck.read(func(ws *workspace) { fs = ws.folders.clone() })
	go func() {
		defer close(ld.done)
		defer ld.cancel()
		files := s.readFolders(ld.ctx, fs, ld)
		s.ck.update(func(ws *workspace) {
			ws.loaded = true
			for name, f := range files {
				if _, ok := ws.disk[name]; !ok { // a watched change read since is newer
					ws.setDisk(name, f.src, f.st)
				}
			}
		})
	}()
	return ld
}

// stopLoad cancels the load, if one runs, and ends polling.
func (s *Server) stopLoad() {
	s.mu.Lock()
	ld := s.ld
	s.mu.Unlock()
	if ld != nil {
		ld.cancel()
		ld.stopOnce.Do(func() { close(ld.stop) })
	}
}

// loadDone is closed once the first load of the workspace is in the
// program (at once if there is none).
func (s *Server) loadDone() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ld == nil {
		c := make(chan struct{})
		close(c)
		return c
	}
	return s.ld.done
}

// diskFile is a file read by a load.
type diskFile struct {
	src string
	st  stamp
}

// readFolders reads the *.wf files of the folders within the bounds, and
// stops early when ctx is done.
func (s *Server) readFolders(ctx context.Context, fs folders, ld *loader) map[string]diskFile {
	lim := s.opt.limits
	files := map[string]diskFile{}
	var entries int
	var bytes int64
	var stopped string
	pr := &progress{s: s, ld: ld}
	entry := func() bool {
		if ctx.Err() != nil {
			stopped = "cancelled"
			return false
		}
		entries++
		if entries > lim.entries {
			stopped = fmt.Sprintf("visited %d directory entries, the most a load visits", lim.entries)
			return false
		}
		return true
	}
	visit := func(p string) bool {
		if len(files) >= lim.files {
			stopped = fmt.Sprintf("read %d files, the most a load reads", lim.files)
			return false
		}
		left := lim.bytes - bytes
		b, st, _, err := fs.readDisk(p, min(left, maxDiskFile))
		if tl, ok := err.(safefile.TooLargeError); ok && tl.Limit == left {
			stopped = fmt.Sprintf("the next file would pass %d bytes, the most a load reads", lim.bytes)
			return false
		}
		if err != nil {
			s.notice("%s: %v", p, err)
			return true
		}
		bytes += int64(len(b))
		files[p] = diskFile{string(b), st}
		if len(files)%lim.every == 0 {
			pr.report(fmt.Sprintf("%d files", len(files)))
		}
		return true
	}
	for _, dir := range fs.named {
		if stopped != "" {
			break
		}
		walk(dir, s.logf, entry, visit)
	}
	ld.entries, ld.truncated = entries, stopped != ""
	msg := fmt.Sprintf("%d files, %d bytes", len(files), bytes)
	if stopped != "" {
		msg = fmt.Sprintf("stopped reading the workspace (%s): %s in the program", stopped, msg)
		s.notice("%s", msg)
	}
	pr.end(msg)
	return files
}

// progress reports a load as work-done progress, once the client may be
// sent it (after `initialized`, and only if it said it shows progress).
type progress struct {
	s       *Server
	ld      *loader
	begun   bool
	refused bool
}

// createWait bounds the wait for the client to accept a progress token.
const createWait = 5 * time.Second

func (p *progress) report(msg string) {
	if !p.begin() {
		return
	}
	p.send(&protocol.WorkDoneProgressReport{Kind: "report", Message: &msg})
}

func (p *progress) end(msg string) {
	if p.begun {
		p.send(&protocol.WorkDoneProgressEnd{Kind: "end", Message: &msg})
	}
}

func (p *progress) begin() bool {
	if p.begun || p.refused {
		return p.begun
	}
	if !p.ld.progress {
		p.refused = true
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), createWait)
	defer cancel()
	if err := p.s.client.WorkDoneProgressCreate(ctx, &protocol.WorkDoneProgressCreateParams{Token: p.ld.token}); err != nil {
		p.s.logf("window/workDoneProgress/create: %v", err)
		p.refused = true
		return false
	}
	yes := true
	p.begun = true
	p.send(&protocol.WorkDoneProgressBegin{Kind: "begin", Title: "wfc: reading the workspace", Cancellable: &yes})
	return true
}

func (p *progress) send(v any) {
	b, err := protocol.Marshal(v)
	if err == nil {
		err = p.s.client.Progress(context.Background(), &protocol.ProgressParams{Token: p.ld.token, Value: protocol.LSPAny(b)})
	}
	if err != nil {
		p.s.logf("$/progress: %v", err)
	}
}

// WorkDoneProgressCancel is the cancel button of the load's progress: the
// files read so far are the program.
func (s *Server) WorkDoneProgressCancel(ctx context.Context, p *protocol.WorkDoneProgressCancelParams) error {
	s.mu.Lock()
	ld := s.ld
	s.mu.Unlock()
	if ld != nil && p.Token == ld.token {
		ld.cancel()
	}
	return nil
}
