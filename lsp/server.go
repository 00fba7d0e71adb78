// Package lsp is wfc's language server: `wfc lsp` speaks the Language Server
// Protocol over standard input and output, so any LSP editor gets the whole
// checker live — diagnostics as you type, the resolved retry schedule on
// hover, fixes as code actions, navigation and rename across the workspace.
//
// The workspace is the program: every *.wf file under the workspace folders
// is read from disk, open buffers override the disk, and the library
// pipeline checks them together after each (debounced) change. Requests are
// answered from a snapshot: the analysis of one exact version of every file.
//
// The LSP library sits behind package protocol, so it could be swapped.
package lsp

import (
	"context"
	"fmt"
	"io"
	"log"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wfc-lang/wfc"
	"github.com/wfc-lang/wfc/lsp/protocol"
)

// Options tune a server.
type Options struct {
	// Debounce is how long the server waits after a change before it
	// re-checks, so a burst of keystrokes costs one check. Zero means
	// DefaultDebounce; negative means no wait.
	Debounce time.Duration
	// Log receives the server's log lines (stderr for `wfc lsp`); nil
	// discards them.
	Log io.Writer
	// Poll is how often the server looks at the files it holds from disk
	// when the client does not watch files. Zero means DefaultPoll;
	// negative means never.
	Poll time.Duration
	// limits bound the load of the workspace folders (defaultLimits when
	// zero; tests set smaller ones).
	limits loadLimits
	// DocsBase is the page diagnostic codes link to (codeDescription):
	// DocsBase + "#wf101", the code's entry in the catalogue. Empty means
	// DefaultDocsBase.
	DocsBase string
	// Cache is the cache `wfc check` keeps what each file yields in
	// (wfc.Cache): the server reads it, so opening a workspace the command
	// line checked is warm, and keeps there what it checks of the files it
	// read from disk. Nil uses none.
	Cache *wfc.Cache
}

// MaxAdmitted bounds the requests read and not yet answered: those running
// (at most GOMAXPROCS, at least 2) and those waiting for their turn. A
// burst of 10,000 requests holds at most this many in memory.
const MaxAdmitted = 64

// DefaultDebounce is the pause after a keystroke before the re-check.
const DefaultDebounce = 30 * time.Millisecond

// DefaultDocsBase is where codeDescription links point: the catalogue of
// diagnostic codes in the language reference of the repository.
const DefaultDocsBase = "https://github.com/wfc-lang/wfc/blob/main/docs/language.md"

// Exit statuses of Serve, as the specification asks.
const (
	ExitClean    = 0 // `exit` after `shutdown`
	ExitNoShtdwn = 1 // `exit` without `shutdown`, or the stream ended first
)

// lifecycle is where the server is between initialize and exit.
type lifecycle int

const (
	uninitialized lifecycle = iota
	running
	shutDown
)

// Server is one language-server session.
type Server struct {
	protocol.UnimplementedServer

	opt    Options
	log    *log.Logger
	client protocol.Client

	mu      sync.Mutex
	state   lifecycle
	enc     encoding
	watch   bool     // the client registers file watchers dynamically
	exited  chan int // receives the exit status once
	exitSet bool

	ck *checker
	ld *loader // the load of the workspace folders, once initialize started it

	inflight map[protocol.ID]context.CancelFunc // requests running, for $/cancelRequest
	peak     int                                // the most requests ever in inflight

	admitted chan struct{} // a slot per request read and not yet answered
	running  chan struct{} // a slot per request working

	notices atomic.Int64 // sent to the client's log so far

	// panicOn makes a method panic, to test recovery.
	panicOn atomic.Value // string
}

// New returns a server; Serve runs it.
func New(opt Options) *Server {
	if opt.Debounce == 0 {
		opt.Debounce = DefaultDebounce
	}
	if opt.Poll == 0 {
		opt.Poll = DefaultPoll
	}
	if opt.limits == (loadLimits{}) {
		opt.limits = defaultLimits
	}
	if opt.DocsBase == "" {
		opt.DocsBase = DefaultDocsBase
	}
	w := opt.Log
	if w == nil {
		w = io.Discard
	}
	s := &Server{opt: opt, log: log.New(w, "wfc lsp: ", log.LstdFlags|log.Lmicroseconds), exited: make(chan int, 1), inflight: map[protocol.ID]context.CancelFunc{},
		admitted: make(chan struct{}, MaxAdmitted), running: make(chan struct{}, max(2, runtime.GOMAXPROCS(0)))}
	s.ck = newChecker(s)
	return s
}

// Serve runs the server over rwc (standard input and output for `wfc lsp`)
// until the client sends `exit` or closes the stream, and returns the exit
// status: 0 after shutdown and exit, 1 otherwise.
func (s *Server) Serve(ctx context.Context, rwc io.ReadWriteCloser) int {
	conn := protocol.NewConn(rwc)
	s.client = protocol.ClientDispatcher(conn)
	conn.Go(ctx, s.handle)
	var code int
	select {
	case code = <-s.exited:
	case <-conn.Done():
		code = ExitNoShtdwn
		s.mu.Lock()
		if s.state == shutDown {
			code = ExitClean
		}
		s.mu.Unlock()
	case <-ctx.Done():
		code = ExitNoShtdwn
	}
	s.stopLoad()
	s.ck.stop()
	go conn.Close() // may wait for in-flight handlers; the process is leaving
	return code
}

// syncMethods are handled in wire order on the reader goroutine: they change
// the documents, so every later request must see them.
var syncMethods = map[string]bool{
	protocol.MethodInitialize:                         true,
	protocol.MethodInitialized:                        true,
	protocol.MethodShutdown:                           true,
	protocol.MethodExit:                               true,
	protocol.MethodTextDocumentDidOpen:                true,
	protocol.MethodTextDocumentDidChange:              true,
	protocol.MethodTextDocumentDidClose:               true,
	protocol.MethodTextDocumentDidSave:                true,
	protocol.MethodWorkspaceDidChangeWatchedFiles:     true,
	protocol.MethodWorkspaceDidChangeWorkspaceFolders: true,
}

// handle is the middleware around the typed dispatch: lifecycle rules,
// ordering, and recovery — a panic in a handler becomes an error response
// (or, for a notification, a log line), never a dead server.
func (s *Server) handle(ctx context.Context, req *protocol.Request) (result any, err error) {
	method := req.Method()
	defer func() {
		if r := recover(); r != nil {
			s.log.Printf("panic in %s: %v\n%s", method, r, debug.Stack())
			result, err = nil, protocol.Errorf(protocol.CodeInternalError, "wfc lsp: internal error in %s: %v", method, r)
		}
	}()
	if done, err := s.gate(method, req.IsCall()); done {
		return nil, err
	}
	if method == protocol.MethodCancelRequest {
		if id, ok := protocol.CancelledID(req.Params()); ok {
			s.mu.Lock()
			if cancel := s.inflight[id]; cancel != nil {
				cancel()
			}
			s.mu.Unlock()
		}
		return nil, nil
	}
	async := req.IsCall() && !syncMethods[method]
	if async {
		// Work in flight is bounded: past MaxAdmitted requests the reader
		// waits (the client's messages wait in the pipe, not in memory).
		select {
		case s.admitted <- struct{}{}:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		defer func() { <-s.admitted }()
	}
	rctx, release := s.track(ctx, req)
	defer release()
	if async {
		// Requests see the documents as of now, then run concurrently, a
		// few at a time; one cancelled while it waits leaves at once.
		rctx = context.WithValue(rctx, genKey{}, s.ck.generation())
		protocol.Async(ctx)
		select {
		case s.running <- struct{}{}:
		case <-rctx.Done():
			return nil, protocol.Errorf(protocol.CodeRequestCancelled, "wfc lsp: %s cancelled", method)
		}
		defer func() { <-s.running }()
	}
	if m, _ := s.panicOn.Load().(string); m != "" && method == m {
		panic("test panic")
	}
	res, err := protocol.Dispatch(rctx, s, req)
	if err != nil && rctx.Err() != nil {
		return nil, protocol.Errorf(protocol.CodeRequestCancelled, "wfc lsp: %s cancelled", method)
	}
	if err != nil && !req.IsCall() {
		s.log.Printf("%s: %v", method, err)
		return nil, nil
	}
	return res, err
}

// gate applies the lifecycle rules: `exit` ends the session; before
// initialize, requests fail and notifications are dropped; initialize
// comes once; after shutdown only `exit` is accepted. done reports that the
// message is answered (with err).
func (s *Server) gate(method string, call bool) (done bool, err error) {
	s.mu.Lock()
	st := s.state
	s.mu.Unlock()
	switch {
	case method == protocol.MethodExit:
		s.exit()
		return true, nil
	case st == uninitialized && method != protocol.MethodInitialize:
		if !call {
			return true, nil
		}
		return true, protocol.Errorf(protocol.CodeServerNotInitialized, "wfc lsp: %s before initialize", method)
	case st != uninitialized && method == protocol.MethodInitialize:
		return true, protocol.Errorf(protocol.CodeInvalidRequest, "wfc lsp: initialize sent twice")
	case st == shutDown && call:
		return true, protocol.Errorf(protocol.CodeInvalidRequest, "wfc lsp: %s after shutdown", method)
	}
	return false, nil
}

// track gives a request a context that outlives the transport's own (which
// is recycled once the handler returns) and that $/cancelRequest cancels.
func (s *Server) track(ctx context.Context, req *protocol.Request) (context.Context, func()) {
	rctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	if !req.IsCall() {
		return rctx, cancel
	}
	id := req.ID()
	s.mu.Lock()
	s.inflight[id] = cancel
	s.peak = max(s.peak, len(s.inflight))
	s.mu.Unlock()
	return rctx, func() {
		cancel()
		s.mu.Lock()
		delete(s.inflight, id)
		s.mu.Unlock()
	}
}

func (s *Server) exit() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.exitSet {
		return
	}
	s.exitSet = true
	code := ExitNoShtdwn
	if s.state == shutDown {
		code = ExitClean
	}
	s.exited <- code
}

// logf logs a line on the server's log.
func (s *Server) logf(format string, args ...any) { s.log.Output(2, fmt.Sprintf(format, args...)) }

// notice logs a line on the server's log and in the client's log
// (window/logMessage): what the user should be able to find, such as a
// file of the workspace that was not read and why.
//
// A hostile workspace can hold any number of such files: after maxNotices
// the client is told that the rest are in the server's log only.
func (s *Server) notice(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	s.log.Output(2, msg)
	n := s.notices.Add(1)
	if s.client == nil || n > maxNotices+1 {
		return
	}
	if n == maxNotices+1 {
		msg = fmt.Sprintf("more than %d such messages: the rest are in the server's log only", maxNotices)
	}
	go func() { // not from the reader goroutine, nor under a lock
		_ = s.client.LogMessage(context.Background(), &protocol.LogMessageParams{Type: protocol.MessageTypeWarning, Message: "wfc: " + msg})
	}()
}

// maxNotices is the most notices a session sends to the client's log.
const maxNotices = 100
