package wfc

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/wfc-lang/wfc/codegen"
	"github.com/wfc-lang/wfc/internal/cache"
)

// Cache is a directory where sessions keep what each file yields, between
// runs and across processes (the command line and the language server
// share it): an entry per file, found by the file's name, its text, the
// lowering's options and wfc's build, holding the file's summary (what it
// declares for the others), its syntax diagnostics and ignore comments,
// and what checking it gave with what that read (its deps, and their
// value then). A run that finds a file's entry, and the value of its deps
// unchanged, neither parses nor checks the file. The directory is
// internal/cache's: entries are written atomically and checked when read,
// so a damaged or foreign one is a miss, and it is trimmed to its bound.
type Cache struct {
	c     *cache.Cache
	build string
}

// OpenCache opens (making it if need be) the cache in dir: the files'
// entries go to its subdirectory `files` (FilesDir), apart from whatever
// else the directory holds (`wfc check`'s whole-run entries), so each is
// trimmed to its own bound. It fails when the directory cannot be made or
// this build of wfc cannot be told from another (its entries could be
// read by a build that means other things).
func OpenCache(dir string) (*Cache, error) {
	build, ok := cache.BuildIdentity()
	if !ok {
		return nil, errors.New("wfc: this build cannot be identified; not caching")
	}
	if dir == "" {
		return nil, errors.New("wfc: no cache directory")
	}
	c, err := cache.Open(filepath.Join(dir, FilesDir), cache.Options{})
	if err != nil {
		return nil, err
	}
	return &Cache{c: c, build: build}, nil
}

// FilesDir is the subdirectory of a cache directory that holds the files'
// entries.
const FilesDir = "files"

// Dir is the directory of the files' entries.
func (c *Cache) Dir() string { return c.c.Dir() }

// entryKind names the entries and their format; change it when either
// changes meaning.
const entryKind = "wfc file v1"

// key is the entry of the file the cache names name, with text src, as
// lowered with lower.
func (c *Cache) key(name, src string, lower codegen.Options) cache.Key {
	text := sha256.Sum256(bytesOf(src))
	return cache.NewKey(entryKind).String(c.build).String(name).Bytes(text[:]).String(fmt.Sprintf("%+v", lower)).Sum()
}

// load fills u from its entry, if the cache has one (codec.go); a damaged
// or foreign entry is a miss.
func (c *Cache) load(u *unit, name func(string) string) {
	if v, ok := c.c.Get(u.key); ok {
		decodeEntry(v, u, name)
	}
}
