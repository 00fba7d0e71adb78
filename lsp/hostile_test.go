package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/codegen"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/lsp/protocol"
	"github.com/wfc-lang/wfc/parser"
)

// diskNames is the files the server holds from disk, relative to dir.
func diskNames(c *client) []string {
	var out []string
	c.server.ck.read(func(ws *workspace) {
		for name := range ws.disk {
			rel, _ := filepath.Rel(c.dir, name)
			out = append(out, filepath.ToSlash(rel))
		}
	})
	sort.Strings(out)
	return out
}

// A cloned repository is untrusted: a *.wf symlink is followed only into
// the workspace, and only regular files are read — not a device, a FIFO,
// the server's own input, or a file outside (whose lines would come back
// as diagnostics).
func TestWorkspaceReadsOnlyRegularFilesInside(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks and FIFOs")
	}
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.wf")
	if err := os.WriteFile(secret, []byte("TOKEN=hunter2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := startRaw(t, map[string]string{"types.wf": typesWF, "sub/flow.wf": flowWF, "notes.txt": "TOKEN=x"})
	links := map[string]string{
		"evil.wf":   secret,
		"passwd.wf": "/etc/passwd",
		"zero.wf":   "/dev/zero",
		"stdin.wf":  "/proc/self/fd/0",
		"up.wf":     "../" + filepath.Base(outside) + "/secret.wf",
		"dir.wf":    outside,
		"loop.wf":   "loop.wf",
		"in.wf":     "sub/flow.wf", // inside: read
		"notes.wf":  "notes.txt",   // inside, a regular file: read
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(c.dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(c.dir, "fifo.wf"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.initialize()
	got := strings.Join(diskNames(c), " ")
	if want := "in.wf notes.wf sub/flow.wf types.wf"; got != want {
		t.Errorf("files read: %s\nwant:       %s", got, want)
	}

	// Watched changes, closes and opens of a file outside or not *.wf
	// read nothing.
	c.open("notes.txt", "x")
	if err := c.srv.DidClose(c.ctx, &protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("notes.txt")}}); err != nil {
		t.Fatal(err)
	}
	if err := c.srv.DidClose(c.ctx, &protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: protocol.FileURI(secret)}}); err != nil {
		t.Fatal(err)
	}
	var evs []protocol.FileEvent
	for _, name := range []string{"evil.wf", "passwd.wf", "zero.wf", "stdin.wf", "fifo.wf", "notes.txt"} {
		evs = append(evs, protocol.FileEvent{URI: c.uri(name), Type: protocol.FileChangeTypeChanged})
	}
	evs = append(evs, protocol.FileEvent{URI: protocol.FileURI(secret), Type: protocol.FileChangeTypeChanged})
	if err := c.srv.DidChangeWatchedFiles(c.ctx, &protocol.DidChangeWatchedFilesParams{Changes: evs}); err != nil {
		t.Fatal(err)
	}
	if got2 := strings.Join(diskNames(c), " "); got2 != got {
		t.Errorf("after watched changes and closes: %s, want %s", got2, got)
	}
}

// progressRecorder is a client that shows work-done progress.
type progressRecorder struct {
	*recorder
	mu     sync.Mutex
	events []string
	cancel protocol.Server // if set, cancel the progress as it is created
}

func (r *progressRecorder) WorkDoneProgressCreate(ctx context.Context, p *protocol.WorkDoneProgressCreateParams) error {
	if r.cancel != nil { // the user presses cancel at once: the server reads it before this answer
		return r.cancel.WorkDoneProgressCancel(ctx, &protocol.WorkDoneProgressCancelParams{Token: p.Token})
	}
	return nil
}

func (r *progressRecorder) Progress(ctx context.Context, p *protocol.ProgressParams) error {
	var v struct {
		Kind    string `json:"kind"`
		Message string `json:"message"`
	}
	if err := json.Unmarshal(p.Value, &v); err != nil {
		return err
	}
	r.mu.Lock()
	r.events = append(r.events, v.Kind+": "+v.Message)
	r.mu.Unlock()
	return nil
}

// Opening a huge folder (/ or $HOME) reads at most the bounds, in the
// background, and shows it as work-done progress.
func TestLoadIsBoundedWithProgress(t *testing.T) {
	files := map[string]string{}
	for i := range 40 {
		files[fmt.Sprintf("d%d/f%02d.wf", i%4, i)] = fmt.Sprintf("enum E%d { A }\n", i)
	}
	for _, lim := range []struct {
		name  string
		lim   loadLimits
		files int
		stop  string
	}{
		{"files", loadLimits{files: 10, entries: 1000, bytes: 1 << 20, every: 4}, 10, "read 10 files"},
		{"entries", loadLimits{files: 100, entries: 8, bytes: 1 << 20, every: 4}, 6, "visited 8 directory entries"},
		{"bytes", loadLimits{files: 100, entries: 1000, bytes: 100, every: 4}, 6, "the next file would pass 100 bytes"},
	} {
		t.Run(lim.name, func(t *testing.T) {
			c := startWith(t, files, Options{Debounce: -1, limits: lim.lim}, func(r *recorder) protocol.Client {
				return &progressRecorder{recorder: r}
			})
			yes := true
			p := &protocol.InitializeParams{}
			p.WorkspaceFolders = protocol.NewNullable([]protocol.WorkspaceFolder{{URI: protocol.FileURI(c.dir), Name: "ws"}})
			p.Capabilities.Window = &protocol.WindowClientCapabilities{WorkDoneProgress: &yes}
			if _, err := c.srv.Initialize(c.ctx, p); err != nil {
				t.Fatal(err)
			}
			if err := c.srv.Initialized(c.ctx, &protocol.InitializedParams{}); err != nil {
				t.Fatal(err)
			}
			<-c.server.loadDone()
			if got := len(diskNames(c)); got != lim.files {
				t.Errorf("read %d files, want %d (%v)", got, lim.files, diskNames(c))
			}
			pr := c.client.(*progressRecorder)
			var ev string
			for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
				pr.mu.Lock()
				ev = strings.Join(pr.events, "\n")
				pr.mu.Unlock()
				if strings.Contains(ev, "\nend: ") { // notifications arrive after the load is done
					break
				}
			}
			if !strings.HasPrefix(ev, "begin: ") || !strings.Contains(ev, "\nend: ") || !strings.Contains(ev, lim.stop) {
				t.Errorf("progress:\n%s\nwant begin, end, and %q", ev, lim.stop)
			}
		})
	}
}

// outsideCode is md without its code blocks and code spans, by
// CommonMark's rules: what a Markdown renderer interprets.
func outsideCode(md string) string {
	var out strings.Builder
	lines := strings.SplitAfter(md, "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if n := longestRun(l); strings.HasPrefix(l, "```") && n >= 3 {
			fence := strings.Repeat("`", strings.IndexFunc(l, func(r rune) bool { return r != '`' }))
			for i++; i < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[i]), fence); i++ {
			}
			continue
		}
		for l != "" {
			j := strings.IndexByte(l, '`')
			if j < 0 {
				out.WriteString(l)
				break
			}
			out.WriteString(l[:j])
			n := j
			for n < len(l) && l[n] == '`' {
				n++
			}
			run, rest := l[j:n], l[n:]
			k := closing(rest, len(run))
			if k < 0 {
				out.WriteString(run)
				l = rest
				continue
			}
			l = rest[k+len(run):]
		}
	}
	return out.String()
}

// closing finds a run of exactly n backticks in s.
func closing(s string, n int) int {
	for i := 0; i < len(s); {
		if s[i] != '`' {
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] == '`' {
			j++
		}
		if j-i == n {
			return i
		}
		i = j
	}
	return -1
}

// A hover shows user text (a step name, a declaration) only as code: a
// source string cannot put an image, a link or HTML in the tooltip. Every
// hover and completion of a file full of such strings is checked.
func TestHoverAndCompletionDoNotRenderUserText(t *testing.T) {
	evil := "x` `` ![p](https://e.invalid/p.png) [Click](https://e.invalid) <img src=x> ```"
	src := strings.Replace(flowWF, "Retry { goto Queued; }",
		`Retry { Workflow.Once("`+evil+`", retry: Backoff.Linear(TimeSpan.FromSeconds(2)).MaxAttempts(4)) { Mail.Send(); } goto Queued; }`, 1)
	src = strings.Replace(src, `"job escalated"`, `"`+evil+`"`, 1)
	c := start(t, map[string]string{"types.wf": typesWF})
	c.open("flow.wf", src)
	c.version("flow.wf", 1)
	tx := newText(src)
	hovers, evilSeen := 0, 0
	for off := 0; off < len(src); off++ {
		p := tx.position(off, utf16Units)
		h, err := c.srv.Hover(c.ctx, &protocol.HoverParams{TextDocumentPositionParams: docPos(c, "flow.wf", p.Line, p.Character)})
		if err != nil {
			t.Fatal(err)
		}
		if h != nil {
			hovers++
			md := h.Contents.(*protocol.MarkupContent).Value
			if strings.Contains(md, "![p]") {
				evilSeen++
			}
			if rest := outsideCode(md); strings.Contains(rest, "](") || strings.Contains(rest, "<img") || strings.Contains(rest, "![") {
				t.Fatalf("hover at %d:%d renders user text:\n%s\noutside code:\n%s", p.Line, p.Character, md, rest)
			}
		}
		res, err := c.srv.Completion(c.ctx, &protocol.CompletionParams{TextDocumentPositionParams: docPos(c, "flow.wf", p.Line, p.Character)})
		if err != nil {
			continue // a position inside a character, say
		}
		if items, ok := res.(protocol.CompletionItemSlice); ok {
			for _, it := range items {
				if it.Documentation != nil {
					t.Fatalf("completion %q has documentation, which must escape user text: %v", it.Label, it.Documentation)
				}
			}
		}
	}
	if hovers == 0 || evilSeen == 0 {
		t.Fatalf("%d hovers, %d showing the step name: the test checks nothing", hovers, evilSeen)
	}
}

// A burst of requests holds a bounded number in flight (it held every one
// of them: 10,000 requests took 3.9 GB), and each is answered.
func TestRequestBurstIsBounded(t *testing.T) {
	c := start(t, twoFiles)
	const burst = 10_000
	var wg sync.WaitGroup
	var mu sync.Mutex
	failed := 0
	sem := make(chan struct{}, 1000) // the client's own goroutines
	for i := range burst {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if i%100 == 0 { // a change now and then: requests wait for checks
				c.server.ck.update(func(*workspace) {})
			}
			var res json.RawMessage
			if _, err := c.conn.Call(c.ctx, "workspace/symbol", map[string]string{"query": "Job"}, &res); err != nil {
				mu.Lock()
				failed++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	c.server.mu.Lock()
	peak := c.server.peak
	c.server.mu.Unlock()
	t.Logf("%d requests: at most %d in flight, %d failed", burst, peak, failed)
	if peak > MaxAdmitted {
		t.Errorf("%d requests in flight at once, want at most %d", peak, MaxAdmitted)
	}
	if failed > 0 {
		t.Errorf("%d of %d requests failed", failed, burst)
	}
}

// A cancelled request that waits for its turn leaves at once, and one that
// runs stops at its next look at the context.
func TestCancelledLoopsStop(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for i := range 2 * checkEvery {
		if err := cancelled(ctx, i); (err != nil) != (i%checkEvery == 0) {
			t.Fatalf("item %d: %v", i, err)
		}
	}
	c := start(t, twoFiles)
	sn, err := c.server.ck.snapshot(c.ctx)
	if err != nil {
		t.Fatal(err)
	}
	many := make([]diag.Diagnostic, 10*checkEvery)
	if _, err := c.server.toDiagnosticsCtx(ctx, sn, many); err == nil {
		t.Error("a cancelled conversion of diagnostics ran to the end")
	}
}

// For a client that watches no files (Neovim 0.7), a closed file deleted
// or moved on disk leaves the program, so no diagnostics are published
// for a file that no longer exists; the moved file is read where it went.
func TestPollForgetsDeletedAndMovedFiles(t *testing.T) {
	broken := strings.Replace(flowWF, "goto Running;", "goto Runing;", 1)
	c := startWith(t, map[string]string{"types.wf": typesWF, "flow.wf": broken}, Options{Debounce: -1, Poll: 10 * time.Millisecond}, nil)
	c.initialize()
	c.diagsFor("flow.wf", func(p *protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) > 0 })
	if err := os.Remove(filepath.Join(c.dir, "flow.wf")); err != nil {
		t.Fatal(err)
	}
	c.diagsFor("flow.wf", func(p *protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 })
	if err := os.MkdirAll(filepath.Join(c.dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(c.dir, "types.wf"), filepath.Join(c.dir, "sub", "types.wf")); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if got := strings.Join(diskNames(c), " "); got == "sub/types.wf" {
			break
		} else if time.Now().After(deadline) {
			t.Fatalf("files held after the move: %s, want sub/types.wf", got)
		}
	}
}

// Each skipped file is named in the client's log, up to maxNotices; the
// rest only in the server's (a workspace of 10,000 bad links must not send
// 10,000 messages).
func TestSkippedFilesNoticesAreBounded(t *testing.T) {
	c := startRaw(t, map[string]string{"types.wf": typesWF})
	for i := range maxNotices + 50 {
		if err := os.Symlink("/etc/passwd", filepath.Join(c.dir, fmt.Sprintf("l%03d.wf", i))); err != nil {
			t.Skip("no symlinks here:", err)
		}
	}
	c.initialize()
	deadline := time.Now().Add(30 * time.Second)
	c.rec.mu.Lock()
	defer c.rec.mu.Unlock()
	for len(c.rec.logs) < maxNotices+1 && time.Now().Before(deadline) {
		c.rec.mu.Unlock()
		time.Sleep(5 * time.Millisecond)
		c.rec.mu.Lock()
	}
	if n := len(c.rec.logs); n != maxNotices+1 {
		t.Fatalf("%d messages in the client's log, want %d", n, maxNotices+1)
	}
	last := 0
	for i, m := range c.rec.logs {
		if strings.Contains(m, "the rest are in the server's log") {
			last++
		} else if !strings.Contains(m, "l") || !strings.Contains(m, "outside the workspace") {
			t.Errorf("message %d: %q", i, m)
		}
	}
	if last != 1 {
		t.Errorf("%d closing messages, want 1", last)
	}
}

// initializeWithProgress initializes c as a client that shows progress.
func initializeWithProgress(t *testing.T, c *client) {
	t.Helper()
	yes := true
	p := &protocol.InitializeParams{}
	p.WorkspaceFolders = protocol.NewNullable([]protocol.WorkspaceFolder{{URI: protocol.FileURI(c.dir), Name: "ws"}})
	p.Capabilities.Window = &protocol.WindowClientCapabilities{WorkDoneProgress: &yes}
	if _, err := c.srv.Initialize(c.ctx, p); err != nil {
		t.Fatal(err)
	}
	if n := len(diskNames(c)); n != 0 {
		t.Errorf("%d files read before initialized: initialize waited for the load", n)
	}
	if err := c.srv.Initialized(c.ctx, &protocol.InitializedParams{}); err != nil {
		t.Fatal(err)
	}
	<-c.server.loadDone()
}

// The progress's cancel button stops the load: the files read so far are
// the program.
func TestLoadCancels(t *testing.T) {
	files := map[string]string{}
	for i := range 40 {
		files[fmt.Sprintf("f%02d.wf", i)] = fmt.Sprintf("enum E%d { A }\n", i)
	}
	c := startWith(t, files, Options{Debounce: -1, limits: loadLimits{files: 100, entries: 1000, bytes: 1 << 20, every: 1}}, func(r *recorder) protocol.Client {
		return &progressRecorder{recorder: r}
	})
	c.client.(*progressRecorder).cancel = c.srv
	initializeWithProgress(t, c)
	if n := len(diskNames(c)); n != 1 {
		t.Errorf("read %d files, want the 1 read before the load was cancelled", n)
	}
}

// Between polls (or with polling off), a check after an edit does not hold
// a closed file deleted since: the server stats the closed files it holds
// before each check, for a client that watches no files.
func TestCheckForgetsDeletedFilesBetweenPolls(t *testing.T) {
	broken := strings.Replace(flowWF, "goto Running;", "goto Runing;", 1)
	c := startWith(t, map[string]string{"types.wf": typesWF, "flow.wf": broken}, Options{Debounce: -1, Poll: -1}, nil)
	c.initialize()
	c.diagsFor("flow.wf", func(p *protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) > 0 })
	if err := os.Remove(filepath.Join(c.dir, "flow.wf")); err != nil {
		t.Fatal(err)
	}
	c.open("types.wf", typesWF+"\n") // an edit: a new check
	c.diagsFor("flow.wf", func(p *protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 })
	if got := strings.Join(diskNames(c), " "); got != "types.wf" {
		t.Errorf("files held after the delete: %q, want types.wf", got)
	}
}

// A file of many long Linear budgets costs the server what short ones do
// per check: tables are lowered at codegen.SummaryRows, and the hover and
// inlay totals stay exact. 160 steps of 10,000 distinct waits once cost 7 s
// a keystroke; now each step must allocate under 64 KB, and the hover still
// shows the first rows and the exact total.
func TestLongLinearTablesAreCheap(t *testing.T) {
	var b strings.Builder
	b.WriteString("workflow W { Initial = A; event Go();\n  state A { subscribe Go(); on Go {\n")
	const n = 160
	for i := range n {
		fmt.Fprintf(&b, "    Workflow.Once(\"s%d\", retry: Backoff.Linear(TimeSpan.FromMilliseconds(10)).MaxAttempts(10000)) { X.Y(); }\n", i)
	}
	b.WriteString("    goto Done; } }\n  terminal Done { } }\n")
	files := []parser.Source{{Name: "s.wf", Src: b.String()}}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res := newAnalysis(nil, nil).run(context.Background(), files, nil)
	runtime.ReadMemStats(&after)
	if len(res.Diagnostics) != 0 || len(res.Schedules) != n {
		t.Fatalf("%d diagnostics, %d tables", len(res.Diagnostics), len(res.Schedules))
	}
	if per := (after.TotalAlloc - before.TotalAlloc) / n; per > 64<<10 {
		t.Errorf("a check allocates %d bytes per step of 10,000 attempts, want at most 64 KB", per)
	}
	s := res.Schedules[0]
	if !s.Truncated || len(s.Rows) > codegen.SummaryRows {
		t.Errorf("%d rows (truncated %v), want at most %d", len(s.Rows), s.Truncated, codegen.SummaryRows)
	}
	// 10,000 attempts: the waits 10 ms … 99.99 s sum to 499,950 s (an
	// interval of 10 ms keeps the program clean of WF312 and WF318).
	if want := check.Ticks(499_950) * check.TicksPerSecond; s.GivesUp != want {
		t.Errorf("gives up at %s, want %s", check.FormatTicks(s.GivesUp), check.FormatTicks(want))
	}
	md := scheduleMarkdown(s)
	if !strings.Contains(md, "| 12 | 110ms |") || !strings.Contains(md, "… more rows") || !strings.Contains(md, check.FormatTicks(s.GivesUp)) {
		t.Errorf("hover:\n%s", md)
	}
}
