package lsp

import (
	"context"
	"fmt"

	"github.com/wfc-lang/wfc/lsp/protocol"
)

// Version is what initialize reports as the server's version.
var Version = "(devel)"

// Initialize negotiates the position encoding, reads the workspace folders
// and says what the server can do.
func (s *Server) Initialize(ctx context.Context, p *protocol.InitializeParams) (*protocol.InitializeResult, error) {
	var offered []protocol.PositionEncodingKind
	if g := p.Capabilities.General; g != nil {
		offered = g.PositionEncodings
	}
	enc := negotiate(offered)
	watch := false
	if w := p.Capabilities.Workspace; w != nil && w.DidChangeWatchedFiles != nil && w.DidChangeWatchedFiles.DynamicRegistration != nil {
		watch = *w.DidChangeWatchedFiles.DynamicRegistration
	}
	var dirs []string
	if fs, ok := p.WorkspaceFolders.Get(); ok {
		for _, f := range fs {
			if f.URI.IsFile() {
				dirs = append(dirs, nameOf(f.URI))
			}
		}
	}
	if len(dirs) == 0 && p.RootURI != nil && p.RootURI.IsFile() {
		dirs = append(dirs, nameOf(*p.RootURI))
	}
	progress := false
	if w := p.Capabilities.Window; w != nil && w.WorkDoneProgress != nil {
		progress = *w.WorkDoneProgress
	}
	s.ck.read(func(ws *workspace) {
		for _, d := range dirs {
			ws.addFolder(d)
		}
	})
	s.mu.Lock()
	s.state, s.enc, s.watch = running, enc, watch
	s.mu.Unlock()
	s.newLoad(progress)
	return &protocol.InitializeResult{
		Capabilities: capabilities(enc),
		ServerInfo:   protocol.ServerInfo{Name: "wfc", Version: protocol.NewOptional(Version)},
	}, nil
}

// FixAllKind is the code action kind that applies every machine-applicable
// fix of a file.
const FixAllKind protocol.CodeActionKind = "source.fixAll.wfc"

func capabilities(enc encoding) protocol.ServerCapabilities {
	yes := true
	change := protocol.TextDocumentSyncKindIncremental
	return protocol.ServerCapabilities{
		PositionEncoding:        enc.kind(),
		TextDocumentSync:        &protocol.TextDocumentSyncOptions{OpenClose: &yes, Change: &change},
		HoverProvider:           protocol.Boolean(true),
		DefinitionProvider:      protocol.Boolean(true),
		ReferencesProvider:      protocol.Boolean(true),
		RenameProvider:          &protocol.RenameOptions{PrepareProvider: &yes},
		DocumentSymbolProvider:  protocol.Boolean(true),
		WorkspaceSymbolProvider: protocol.Boolean(true),
		InlayHintProvider:       protocol.Boolean(true),
		CodeActionProvider: &protocol.CodeActionOptions{CodeActionKinds: []protocol.CodeActionKind{
			protocol.CodeActionKindQuickFix, protocol.CodeActionKindSourceFixAll, FixAllKind}},
		CompletionProvider:         &protocol.CompletionOptions{TriggerCharacters: []string{".", " "}},
		DiagnosticProvider:         &protocol.DiagnosticOptions{InterFileDependencies: true},
		DocumentFormattingProvider: protocol.Boolean(true),
	}
}

// Initialized starts reading the workspace folders (in the background,
// shown as progress), the first check and, where the client can, asks it
// to report changes to *.wf files on disk.
func (s *Server) Initialized(ctx context.Context, p *protocol.InitializedParams) error {
	s.ck.update(func(*workspace) {})
	ld := s.startLoad() // in the background: requests are answered meanwhile
	s.mu.Lock()
	watch := s.watch
	s.mu.Unlock()
	if !watch && ld != nil {
		s.startPoll(ld) // nothing will say that a closed file changed on disk
	}
	if watch {
		// A request to the client: not from the reader goroutine, which
		// must stay free to read the answer.
		go s.registerWatcher()
	}
	return nil
}

// WatcherID is the id of the registration for workspace/didChangeWatchedFiles.
const WatcherID = "wfc-watch-wf-files"

func (s *Server) registerWatcher() {
	opts, err := protocol.Marshal(&protocol.DidChangeWatchedFilesRegistrationOptions{
		Watchers: []protocol.FileSystemWatcher{{GlobPattern: protocol.Pattern("**/*.wf")}},
	})
	if err == nil {
		err = s.client.RegisterCapability(context.Background(), &protocol.RegistrationParams{Registrations: []protocol.Registration{{
			ID: WatcherID, Method: protocol.MethodWorkspaceDidChangeWatchedFiles, RegisterOptions: protocol.LSPAny(opts),
		}}})
	}
	if err != nil {
		s.logf("registering the *.wf file watcher: %v", err)
	}
}

// Shutdown stops checking; only `exit` is accepted after it.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.state = shutDown
	s.mu.Unlock()
	s.stopLoad()
	s.ck.stop()
	return nil
}

func (s *Server) encoding() encoding {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.enc
}

// DidOpen makes the buffer override the file on disk.
func (s *Server) DidOpen(ctx context.Context, p *protocol.DidOpenTextDocumentParams) error {
	d := &document{uri: p.TextDocument.URI, version: p.TextDocument.Version, text: newText(p.TextDocument.Text)}
	s.ck.update(func(ws *workspace) { ws.open[nameOf(d.uri)] = d })
	return nil
}

// DidChange applies the changes in order: ranges (incremental sync) or the
// whole text. A change that does not fit the buffer is refused whole and
// logged, and the buffer stays as it was.
func (s *Server) DidChange(ctx context.Context, p *protocol.DidChangeTextDocumentParams) error {
	name := nameOf(p.TextDocument.URI)
	enc := s.encoding()
	var err error
	s.ck.update(func(ws *workspace) {
		d := ws.open[name]
		if d == nil {
			err = fmt.Errorf("didChange for %s, which is not open", p.TextDocument.URI)
			return
		}
		t := d.text
		var e *edit // one copy of the document for all the ranges
		for _, ch := range p.ContentChanges {
			switch ch := ch.(type) {
			case *protocol.TextDocumentContentChangePartial:
				if e == nil {
					e = newEdit(t)
				}
				if err = e.apply(ch.Range, ch.Text, enc); err != nil {
					return
				}
			case *protocol.TextDocumentContentChangeWholeDocument:
				e, t = nil, newText(ch.Text)
			}
		}
		if e != nil {
			t = e.text()
		}
		d.text, d.version = t, p.TextDocument.Version
	})
	return err
}

// DidClose hands the file back to the disk (or drops a buffer that is not
// a file of the workspace).
func (s *Server) DidClose(ctx context.Context, p *protocol.DidCloseTextDocumentParams) error {
	name := nameOf(p.TextDocument.URI)
	s.ck.update(func(ws *workspace) {
		delete(ws.open, name)
		// Only a *.wf file of the workspace goes back to the disk: a closed
		// README or a file outside the folders is not read.
		if p.TextDocument.URI.IsFile() && isWF(name) && ws.inFolders(name) {
			ws.reload(name, s.notice)
		}
	})
	return nil
}

// DidSave needs nothing: the buffer is already the program's text.
func (s *Server) DidSave(ctx context.Context, p *protocol.DidSaveTextDocumentParams) error {
	return nil
}

// DidChangeWatchedFiles re-reads the files that changed on disk.
func (s *Server) DidChangeWatchedFiles(ctx context.Context, p *protocol.DidChangeWatchedFilesParams) error {
	s.ck.update(func(ws *workspace) {
		for _, ev := range p.Changes {
			if !ev.URI.IsFile() {
				continue
			}
			name := nameOf(ev.URI)
			if ev.Type == protocol.FileChangeTypeDeleted {
				ws.dropDisk(name)
				continue
			}
			if isWF(name) && ws.inFolders(name) {
				ws.reload(name, s.notice)
			}
		}
	})
	return nil
}
