package lsp

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/wfc-lang/wfc/internal/lsp/protocol"
	"github.com/wfc-lang/wfc/lexer"
	"github.com/wfc-lang/wfc/parser"
)

// document is an open buffer.
type document struct {
	uri     protocol.URI
	version int32
	text    *text
}

// workspace is the program's files: every *.wf file under the folders, as
// on disk, with open buffers overriding. Files are named by their path (or,
// for a buffer that is not a file, by its URI); it is not safe for
// concurrent use (the checker's lock guards it).
type workspace struct {
	folders []string
	disk    map[string]string
	open    map[string]*document
}

func newWorkspace() *workspace {
	return &workspace{disk: map[string]string{}, open: map[string]*document{}}
}

// nameOf is the program's name for the file at u.
func nameOf(u protocol.URI) string {
	if u.IsFile() {
		return filepath.Clean(u.FsPath())
	}
	return string(u)
}

// uriOf is the URI of the file called name.
func (ws *workspace) uriOf(name string) protocol.URI {
	if d := ws.open[name]; d != nil {
		return d.uri
	}
	if strings.Contains(name, "://") || strings.HasPrefix(name, "untitled:") {
		return protocol.URI(name)
	}
	return protocol.FileURI(name)
}

// addFolder reads every *.wf file under dir. Unreadable files and folders
// are skipped (and logged): a broken symlink must not stop the server.
func (ws *workspace) addFolder(dir string, logf func(string, ...any)) {
	dir = filepath.Clean(dir)
	ws.folders = append(ws.folders, dir)
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			logf("cannot read %s: %v", p, err)
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() && p != dir && strings.HasPrefix(d.Name(), ".") {
			return fs.SkipDir // .git and friends
		}
		if !d.IsDir() && strings.HasSuffix(p, ".wf") {
			ws.reload(p, logf)
		}
		return nil
	})
}

// inFolders reports whether path lies under a workspace folder.
func (ws *workspace) inFolders(path string) bool {
	for _, f := range ws.folders {
		if rel, err := filepath.Rel(f, path); err == nil && !strings.HasPrefix(rel, "..") {
			return true
		}
	}
	return false
}

// reload re-reads one file from disk, or forgets it if it is gone.
func (ws *workspace) reload(path string, logf func(string, ...any)) {
	b, err := os.ReadFile(path)
	switch {
	case err != nil:
		delete(ws.disk, path)
	case len(b) > lexer.MaxFileSize:
		logf("%s: larger than %d bytes, not read", path, lexer.MaxFileSize)
		delete(ws.disk, path)
	default:
		ws.disk[path] = string(b)
	}
}

// sources is the program as of now, sorted by name, buffers over disk.
func (ws *workspace) sources() []parser.Source {
	out := make([]parser.Source, 0, len(ws.disk)+len(ws.open))
	for name, src := range ws.disk {
		if ws.open[name] == nil {
			out = append(out, parser.Source{Name: name, Src: src})
		}
	}
	for name, d := range ws.open {
		out = append(out, parser.Source{Name: name, Src: d.text.src})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
