package lsp

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/wfc-lang/wfc/internal/safefile"
	"github.com/wfc-lang/wfc/lsp/protocol"
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
//
// The folders come from a cloned repository, which is untrusted: files are
// read only through readDisk, which reads regular *.wf files inside the
// folders and nothing else (see docs/limits.md, "The language server").
type workspace struct {
	folders
	disk   map[string]string
	stamps map[string]stamp // of the files in disk, as read
	open   map[string]*document
	// loaded: the folders' first load is in (the first analysis worth
	// answering from the cache).
	loaded bool
}

// stamp is what a file on disk looked like when it was read: a poll that
// finds another size or time reads it again.
type stamp struct {
	size int64
	mod  time.Time
}

func stampOf(info fs.FileInfo) stamp { return stamp{info.Size(), info.ModTime()} }

// setDisk holds src as the file path, read when it looked like st.
func (ws *workspace) setDisk(path, src string, st stamp) {
	ws.disk[path] = src
	ws.stamps[path] = st
}

// dropDisk forgets the file path.
func (ws *workspace) dropDisk(path string) {
	delete(ws.disk, path)
	delete(ws.stamps, path)
}

// folders are the workspace folders.
type folders struct {
	named []string // as the client named them
	real  []string // the same, symlinks resolved
}

func (fs folders) clone() folders {
	return folders{named: append([]string(nil), fs.named...), real: append([]string(nil), fs.real...)}
}

func newWorkspace() *workspace {
	return &workspace{disk: map[string]string{}, stamps: map[string]stamp{}, open: map[string]*document{}}
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

// addFolder makes dir a workspace folder (its files are read by a load).
func (fs *folders) addFolder(dir string) {
	dir = filepath.Clean(dir)
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		real = dir
	}
	fs.named = append(fs.named, dir)
	fs.real = append(fs.real, real)
}

// within reports whether path lies under one of dirs.
func within(dirs []string, path string) bool {
	for _, f := range dirs {
		if rel, err := filepath.Rel(f, path); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// inFolders reports whether path lies under a workspace folder.
func (fs folders) inFolders(path string) bool { return within(fs.named, path) }

// isWF reports whether name is a wfc source file by its name.
func isWF(name string) bool { return strings.HasSuffix(name, ".wf") }

// readDisk reads the file path of the workspace, of at most limit bytes, by
// the rules for untrusted trees: the name must end in .wf and lie in a
// folder; after following every symlink it must still lie in a folder (so
// `evil.wf -> /etc/passwd` is not read); and it must be a regular file,
// opened without blocking and read through a limit (so `-> /dev/zero`,
// `-> /proc/self/fd/0` and FIFOs cost nothing). gone reports that the file
// does not exist (any more); err says why an existing file was not read.
func (fs folders) readDisk(path string, limit int64) (src []byte, st stamp, gone bool, err error) {
	if !isWF(path) || !fs.inFolders(path) {
		return nil, stamp{}, false, errOutside
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		if _, lerr := os.Lstat(path); lerr != nil {
			return nil, stamp{}, true, err
		}
		return nil, stamp{}, false, err // a dangling or looping symlink
	}
	if !within(fs.real, real) {
		return nil, stamp{}, false, errOutside
	}
	b, info, err := safefile.ReadFile(real, limit)
	if err != nil {
		return nil, stamp{}, false, err
	}
	return b, stampOf(info), false, nil
}

// errOutside refuses a file outside the workspace folders, or a symlink
// that leads out of them.
var errOutside = outsideError{}

type outsideError struct{}

func (outsideError) Error() string {
	return "outside the workspace folders (or a symlink that leads out of them): not read"
}

// reload re-reads one file from disk, or forgets it if it is gone or may
// not be read (and logs why).
func (ws *workspace) reload(path string, logf func(string, ...any)) {
	b, st, gone, err := ws.readDisk(path, maxDiskFile)
	switch {
	case gone:
		ws.dropDisk(path)
	case err != nil:
		logf("%s: %v", path, err)
		ws.dropDisk(path)
	default:
		ws.setDisk(path, string(b), st)
	}
}

// maxDiskFile is the most read of one closed file on disk (an open buffer
// is the client's to size); a larger one is skipped and logged.
const maxDiskFile = 64 << 20

// walk calls visit for every *.wf entry under dir that is a regular file or
// a symlink, skipping hidden directories (.git and friends); it stops when
// visit returns false. Unreadable directories are logged and skipped: a
// broken entry must not stop the server.
func walk(dir string, logf func(string, ...any), entry func() bool, visit func(p string) bool) {
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if !entry() {
			return fs.SkipAll
		}
		if err != nil {
			logf("cannot read %s: %v", p, err)
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if p != dir && strings.HasPrefix(d.Name(), ".") {
				return fs.SkipDir
			}
			return nil
		}
		if !isWF(p) {
			return nil
		}
		if t := d.Type(); !t.IsRegular() && t&fs.ModeSymlink == 0 {
			logf("%s: %v", p, safefile.NotRegularError{Mode: t})
			return nil
		}
		if !visit(p) {
			return fs.SkipAll
		}
		return nil
	})
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
