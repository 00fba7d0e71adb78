package lsp

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wfc-lang/wfc/lsp/protocol"
)

// The test workspace: types in one file, the workflow in another.
const typesWF = `enum JobStage { Queued, Running, Escalated }
enum Decision { Ok, Retry }

entity Job {
  [Required, MaxLength(120)] string Title;
  JobStage Stage;
}
`

const flowWF = `workflow JobFlow {
  Tracks    = Job.Stage;
  Initial   = Queued;

  event Start();
  event Complete(Decision decision);

  state Queued { subscribe Start(); on Start { goto Running; } }

  state Running {
    subscribe Complete(Decision decision) as Worker {
      Finished {
        Within  = TimeSpan.FromMinutes(5);
        Backoff = Backoff.Exponential(TimeSpan.FromMinutes(5)).MaxAttempts(3).Cap(TimeSpan.FromHours(1));
        Exhausted  { }
        Unfinished { goto Escalated; }
      }
    }
    on Worker(Decision decision) { Ok { goto Escalated; } Retry { goto Queued; } }
  }

  terminal error Escalated { Message = "job escalated"; }
}
`

// recorder is the test's LSP client: it keeps every publishDiagnostics.
type recorder struct {
	protocol.UnimplementedClient
	mu    sync.Mutex
	cond  *sync.Cond
	diags map[protocol.URI][]*protocol.PublishDiagnosticsParams

	registrations []protocol.Registration
	logs          []string // window/logMessage
}

func (r *recorder) PublishDiagnostics(ctx context.Context, p *protocol.PublishDiagnosticsParams) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.diags[p.URI] = append(r.diags[p.URI], p)
	r.cond.Broadcast()
	return nil
}

func (r *recorder) RegisterCapability(ctx context.Context, p *protocol.RegistrationParams) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.registrations = append(r.registrations, p.Registrations...)
	r.cond.Broadcast()
	return nil
}

func (r *recorder) LogMessage(ctx context.Context, p *protocol.LogMessageParams) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.logs = append(r.logs, p.Message)
	r.cond.Broadcast()
	return nil
}

// client is a server running in-process, driven over a pipe by the
// library's own client.
type client struct {
	t      testing.TB
	ctx    context.Context
	srv    protocol.Server
	conn   protocol.Conn
	rec    *recorder
	client protocol.Client // rec, or what wraps it
	dir    string
	exit   chan int
	server *Server
	stop   func() // ends the session and closes the pipe
}

// start runs a server on a fresh workspace holding files, initialized
// with the given position encodings offered.
func start(t testing.TB, files map[string]string, encs ...protocol.PositionEncodingKind) *client {
	t.Helper()
	c := startRaw(t, files)
	c.initialize(encs...)
	return c
}

func startRaw(t testing.TB, files map[string]string) *client {
	t.Helper()
	return startWith(t, files, Options{Debounce: -1}, nil)
}

// startWith is startRaw with the server's options, and the client wrapped
// by wrap (if not nil) to answer more.
func startWith(t testing.TB, files map[string]string, opt Options, wrap func(*recorder) protocol.Client) *client {
	t.Helper()
	return startAt(t, t.TempDir(), files, opt, wrap)
}

// startAt is startWith in the workspace folder dir.
func startAt(t testing.TB, dir string, files map[string]string, opt Options, wrap func(*recorder) protocol.Client) *client {
	t.Helper()
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	a, b := net.Pipe()
	opt.Log = newTestLog(t)
	s := New(opt)
	exit := make(chan int, 1)
	go func() { exit <- s.Serve(ctx, a) }()
	rec := &recorder{diags: map[protocol.URI][]*protocol.PublishDiagnosticsParams{}}
	rec.cond = sync.NewCond(&rec.mu)
	conn := protocol.NewConn(b)
	var cl protocol.Client = rec
	if wrap != nil {
		cl = wrap(rec)
	}
	conn.Go(ctx, protocol.ClientHandler(cl))
	stop := func() {
		cancel()
		a.Close()
		b.Close()
	}
	c := &client{t: t, ctx: ctx, srv: protocol.ServerDispatcher(conn), conn: conn, rec: rec, client: cl, dir: dir, exit: exit, server: s, stop: stop}
	t.Cleanup(stop)
	return c
}

// testLog logs the server's lines in the test's log, until the test ends:
// a check still running then must not log (testing panics).
type testLog struct {
	t    testing.TB
	mu   sync.Mutex
	done bool
}

func newTestLog(t testing.TB) *testLog {
	l := &testLog{t: t}
	t.Cleanup(func() {
		l.mu.Lock()
		l.done = true
		l.mu.Unlock()
	})
	return l
}

func (l *testLog) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.done {
		l.t.Log(strings.TrimSpace(string(b)))
	}
	return len(b), nil
}

func (c *client) initialize(encs ...protocol.PositionEncodingKind) *protocol.InitializeResult {
	c.t.Helper()
	p := &protocol.InitializeParams{}
	p.WorkspaceFolders = protocol.NewNullable([]protocol.WorkspaceFolder{{URI: protocol.FileURI(c.dir), Name: "ws"}})
	if len(encs) > 0 {
		p.Capabilities.General = &protocol.GeneralClientCapabilities{PositionEncodings: encs}
	}
	res, err := c.srv.Initialize(c.ctx, p)
	if err != nil {
		c.t.Fatal(err)
	}
	if err := c.srv.Initialized(c.ctx, &protocol.InitializedParams{}); err != nil {
		c.t.Fatal(err)
	}
	<-c.server.loadDone() // the folders load in the background
	return res
}

func (c *client) uri(name string) protocol.URI { return protocol.FileURI(filepath.Join(c.dir, name)) }

func (c *client) open(name, src string) {
	c.t.Helper()
	err := c.srv.DidOpen(c.ctx, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: c.uri(name), LanguageID: "wfc", Version: 1, Text: src}})
	if err != nil {
		c.t.Fatal(err)
	}
}

// edit replaces the range with text, as version v.
func (c *client) edit(name string, v int32, r protocol.Range, text string) {
	c.t.Helper()
	err := c.srv.DidChange(c.ctx, &protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: c.uri(name)}, Version: v},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{&protocol.TextDocumentContentChangePartial{Range: r, Text: text}},
	})
	if err != nil {
		c.t.Fatal(err)
	}
}

// diagsFor waits for a publication for name that satisfies ok.
func (c *client) diagsFor(name string, ok func(*protocol.PublishDiagnosticsParams) bool) *protocol.PublishDiagnosticsParams {
	c.t.Helper()
	u := c.uri(name)
	deadline := time.Now().Add(60 * time.Second)
	timer := time.AfterFunc(60*time.Second, func() { c.rec.mu.Lock(); c.rec.cond.Broadcast(); c.rec.mu.Unlock() })
	defer timer.Stop()
	c.rec.mu.Lock()
	defer c.rec.mu.Unlock()
	for {
		for _, p := range c.rec.diags[u] {
			if ok(p) {
				return p
			}
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("no publication for %s as wanted; got %d", name, len(c.rec.diags[u]))
		}
		c.rec.cond.Wait()
	}
}

// version waits for the diagnostics of one version of an open file.
func (c *client) version(name string, v int32) *protocol.PublishDiagnosticsParams {
	c.t.Helper()
	return c.diagsFor(name, func(p *protocol.PublishDiagnosticsParams) bool {
		got, ok := p.Version.Get()
		return ok && got == v
	})
}

func codes(p *protocol.PublishDiagnosticsParams) []string {
	var out []string
	for _, d := range p.Diagnostics {
		if s, ok := d.Code.(protocol.String); ok {
			out = append(out, string(s))
		}
	}
	return out
}

func pos(line, char uint32) protocol.Position { return protocol.Position{Line: line, Character: char} }

func docPos(c *client, name string, line, char uint32) protocol.TextDocumentPositionParams {
	return protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri(name)}, Position: pos(line, char)}
}

// at finds the position of the n-th (0-based) occurrence of needle in src,
// in UTF-16 units, plus delta characters.
func at(src, needle string, n int, delta int) protocol.Position {
	off := -1
	for i := 0; i <= n; i++ {
		j := strings.Index(src[off+1:], needle)
		if j < 0 {
			panic("no " + needle)
		}
		off += 1 + j
	}
	return newText(src).position(off+delta, utf16Units)
}
