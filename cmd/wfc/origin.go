package main

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/wfc-lang/wfc/internal/safefile"
)

// origin is where a loaded file came from: the file read (symbolic links
// resolved), the walked directory it must stay inside ("" for a file named
// on the command line, which may lie anywhere), and its stamp when read, so
// that a write can tell that it changed since.
type origin struct {
	real   string
	within string
	stamp  stamp
}

// stamp is what a file looked like: size, modification time and a hash of
// its content (an edit within the clock's resolution keeps the first two).
type stamp struct {
	size  int64
	mtime int64 // nanoseconds since the Unix epoch (a time.Time holds a pointer and 24 bytes)
	sum   [sha256.Size]byte
}

func newOrigin(real, within string, info fs.FileInfo, content []byte) origin {
	return origin{real: real, within: within, stamp: stamp{info.Size(), info.ModTime().UnixNano(), sha256.Sum256(content)}}
}

// originOf is the origin of the source loaded under name; false if it was
// not read from a file.
func (l *loaded) originOf(name string) (origin, bool) {
	if l.index == nil {
		l.index = make(map[string]int, len(l.sources))
		for i, s := range l.sources {
			l.index[s.Name] = i
		}
	}
	i, ok := l.index[name]
	if !ok {
		return origin{}, false
	}
	return l.originAt(i)
}

// originAt is the origin of source i; false if it was not read from a file.
func (l *loaded) originAt(i int) (origin, bool) {
	if i >= len(l.origins) || l.origins[i].real == "" {
		return origin{}, false
	}
	return l.origins[i], true
}

// errChanged says that a file changed on disk after wfc read it: an editor
// saved it while --fix or fmt -w ran. Writing would lose that edit.
var errChanged = errors.New("it changed on disk while wfc ran, and wfc left it as it is now; run wfc again")

// errMoved says that the path read no longer leads to the same place.
var errMoved = errors.New("its path was moved or replaced by a symbolic link while wfc ran, and wfc left it alone")

// write replaces the file loaded under name with data (see writeAtomic).
func (l *loaded) write(fsys fileSystem, name, data string) error {
	o, ok := l.originOf(name)
	if !ok {
		return fmt.Errorf("wfc did not read it from a file")
	}
	return fsys.writeAtomic(o, data)
}

// where checks that o's path still resolves to the file read, inside the
// walked directory, and returns its current information.
func (o origin) where() (fs.FileInfo, error) {
	target, err := filepath.EvalSymlinks(o.real)
	if err != nil {
		return nil, unwrapPathError(err)
	}
	if target != o.real {
		return nil, errMoved
	}
	if o.within != "" && !inside(target, o.within) {
		return nil, errMoved
	}
	info, err := os.Lstat(target)
	if err != nil {
		return nil, unwrapPathError(err)
	}
	if !info.Mode().IsRegular() {
		return nil, safefile.NotRegularError{Mode: info.Mode()}
	}
	return info, nil
}

// unchanged checks, just before the file is replaced, that it is still the
// one read: same size, modification time and content.
func (o origin) unchanged() error {
	b, info, err := readFile(o.real)
	if err != nil {
		return err
	}
	now := newOrigin(o.real, o.within, info, b).stamp
	if now.size != o.stamp.size || now.mtime != o.stamp.mtime || !bytes.Equal(now.sum[:], o.stamp.sum[:]) {
		return errChanged
	}
	return nil
}
