// Package cache is wfc's result cache: a directory of entries, each the
// output of one run, found by a key that hashes everything the output
// depends on (the caller decides what: cmd/wfc's check hashes every file's
// name and content, wfc's build, the settings and the options). A run whose
// key has an entry prints the entry instead of computing it.
//
// The cache is shared by every wfc process of a user, concurrently, and
// lives on disks that fill up, crash mid-write and get restored from CI
// caches, so:
//
//   - an entry is written to a temporary file in the directory and renamed
//     into place: a reader sees the old entry, the new one, or none, never
//     half of one;
//   - an entry carries its own key and a SHA-256 of itself: a truncated, corrupt
//     or foreign file (another version's, another key's, not an entry at
//     all) is a miss, never an error and never wrong output;
//   - the directory is bounded (Options.MaxBytes): after each write the
//     least recently used entries go until it fits, and a hit marks its
//     entry used;
//   - every failure (an unwritable directory, a full disk, a race lost to
//     another process) makes the cache do less, never the run fail: Get
//     misses, Put reports an error its caller may ignore.
package cache

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Key names an entry: a SHA-256 of everything the entry depends on.
type Key [sha256.Size]byte

func (k Key) String() string { return hex.EncodeToString(k[:]) }

// KeyBuilder hashes the parts of a key. Each part is written with its kind
// and length, so that no two different sequences of parts hash alike ("ab",
// "c" and "a", "bc" differ).
type KeyBuilder struct{ h hash.Hash }

// NewKey starts a key; kind names what is cached and its format's version,
// so entries of different kinds or versions never share a key.
func NewKey(kind string) *KeyBuilder {
	b := &KeyBuilder{h: sha256.New()}
	b.String(magic)
	b.String(kind)
	return b
}

func (b *KeyBuilder) part(tag byte, n int) {
	var hdr [9]byte
	hdr[0] = tag
	binary.LittleEndian.PutUint64(hdr[1:], uint64(n))
	b.h.Write(hdr[:])
}

// String adds a string part.
func (b *KeyBuilder) String(s string) *KeyBuilder {
	b.part('s', len(s))
	io.WriteString(b.h, s)
	return b
}

// Bytes adds a byte part.
func (b *KeyBuilder) Bytes(p []byte) *KeyBuilder {
	b.part('b', len(p))
	b.h.Write(p)
	return b
}

// Int adds an integer part.
func (b *KeyBuilder) Int(n int64) *KeyBuilder {
	b.part('i', 8)
	var v [8]byte
	binary.LittleEndian.PutUint64(v[:], uint64(n))
	b.h.Write(v[:])
	return b
}

// Bool adds a boolean part.
func (b *KeyBuilder) Bool(v bool) *KeyBuilder {
	b.part('t', 1)
	if v {
		b.h.Write([]byte{1})
	} else {
		b.h.Write([]byte{0})
	}
	return b
}

// Sum is the key.
func (b *KeyBuilder) Sum() Key {
	var k Key
	b.h.Sum(k[:0])
	return k
}

// The entry format:
//
//	magic      "wfc-cache v1\n"
//	key        32 bytes, the entry's own key
//	length     8 bytes, little-endian: the value's length
//	value      length bytes
//	checksum   32 bytes: SHA-256 of everything before it
//
// A file is an entry only if all of it checks: its magic, its key (the
// name it is found under), its length (the file's) and its checksum.
const magic = "wfc-cache v1\n"

const (
	headerSize  = len(magic) + sha256.Size + 8
	trailerSize = sha256.Size
)

// Options configure a cache.
type Options struct {
	// MaxBytes bounds the entries' total size (DefaultMaxBytes if 0).
	MaxBytes int64
	// MaxEntry bounds one value: a larger one is not stored
	// (MaxBytes/8 if 0).
	MaxEntry int64
}

// DefaultMaxBytes bounds a cache directory: 64 MiB holds the results of
// thousands of checks (an entry is the printed output: a few hundred
// bytes when a program is clean).
const DefaultMaxBytes = 64 << 20

// staleTemp is how old a temporary file must be before a trim removes it:
// a writer that crashed between creating and renaming it left it behind,
// while a younger one may still be written.
const staleTemp = time.Hour

// tempPrefix starts the names of entries being written.
const tempPrefix = "tmp-"

// Cache is a cache directory. Its methods are safe for concurrent use, by
// goroutines and by processes sharing the directory.
type Cache struct {
	dir      string
	maxBytes int64
	maxEntry int64
	now      func() time.Time
}

// Open opens the cache in dir, creating the directory (private to the user)
// if it does not exist.
func Open(dir string, opt Options) (*Cache, error) {
	if dir == "" {
		return nil, errors.New("no cache directory")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	c := &Cache{dir: dir, maxBytes: opt.MaxBytes, maxEntry: opt.MaxEntry, now: time.Now}
	if c.maxBytes <= 0 {
		c.maxBytes = DefaultMaxBytes
	}
	if c.maxEntry <= 0 {
		c.maxEntry = c.maxBytes / 8
	}
	return c, nil
}

// Dir is the directory of the cache.
func (c *Cache) Dir() string { return c.dir }

func (c *Cache) path(k Key) string { return filepath.Join(c.dir, k.String()) }

// Get returns the value stored under k. Anything but a whole, intact entry
// of k is a miss. A hit marks the entry used, so trimming keeps it longer.
func (c *Cache) Get(k Key) ([]byte, bool) {
	p := c.path(k)
	b, ok := readBounded(p, int64(headerSize+trailerSize)+c.maxEntry)
	if !ok {
		return nil, false
	}
	v, ok := decode(k, b)
	if !ok {
		return nil, false
	}
	now := c.now()
	_ = os.Chtimes(p, now, now) // best effort: a lost update only ages the entry
	return v, true
}

// readBounded reads a regular file of at most limit bytes.
func readBounded(p string, limit int64) ([]byte, bool) {
	f, err := os.Open(p)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() || info.Size() > limit {
		return nil, false
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil || int64(len(b)) > limit {
		return nil, false
	}
	return b, true
}

// decode returns the value of entry b if b is a whole, intact entry of k.
func decode(k Key, b []byte) ([]byte, bool) {
	if len(b) < headerSize+trailerSize || string(b[:len(magic)]) != magic {
		return nil, false
	}
	if !bytes.Equal(b[len(magic):len(magic)+sha256.Size], k[:]) {
		return nil, false // another key's entry under this name
	}
	n := binary.LittleEndian.Uint64(b[headerSize-8 : headerSize])
	if n != uint64(len(b)-headerSize-trailerSize) {
		return nil, false // truncated, or something appended
	}
	body, sum := b[:len(b)-trailerSize], b[len(b)-trailerSize:]
	if got := sha256.Sum256(body); !bytes.Equal(got[:], sum) {
		return nil, false
	}
	return b[headerSize : len(b)-trailerSize], true
}

// encode is the entry of value v under k.
func encode(k Key, v []byte) []byte {
	b := make([]byte, 0, headerSize+len(v)+trailerSize)
	b = append(b, magic...)
	b = append(b, k[:]...)
	b = binary.LittleEndian.AppendUint64(b, uint64(len(v)))
	b = append(b, v...)
	sum := sha256.Sum256(b)
	return append(b, sum[:]...)
}

// ErrTooLarge: a value past Options.MaxEntry is not stored.
var ErrTooLarge = errors.New("cache: value too large to store")

// Put stores v under k, atomically: it writes a temporary file and renames
// it over the entry, so a concurrent Get sees the old entry, the new one or
// none. Then it trims the directory to its bound.
func (c *Cache) Put(k Key, v []byte) error {
	if err := c.write(k, v); err != nil {
		return err
	}
	return c.Trim()
}

// PutAll stores each value under its key as Put does, and trims the
// directory once, at the end: a run that stores an entry per file (the
// driver's per-file entries) reads the directory once, not once a file.
// It stores what it can and returns the first error.
func (c *Cache) PutAll(kvs map[Key][]byte) error {
	var first error
	for k, v := range kvs {
		if err := c.write(k, v); err != nil && first == nil {
			first = err
		}
	}
	if err := c.Trim(); err != nil && first == nil {
		first = err
	}
	return first
}

// write stores v under k, atomically, without trimming.
func (c *Cache) write(k Key, v []byte) error {
	if int64(len(v)) > c.maxEntry {
		return ErrTooLarge
	}
	f, err := os.CreateTemp(c.dir, tempPrefix+"*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(encode(k, v))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, c.path(k))
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// Trim removes the least recently used entries until the directory is
// within its bound, and temporary files left by crashed writers. Files that
// are neither entries nor temporary files are left alone (and not counted):
// the directory may be one the user named.
func (c *Cache) Trim() error {
	des, err := os.ReadDir(c.dir)
	if err != nil {
		return err
	}
	type entry struct {
		name string
		size int64
		used time.Time
	}
	var es []entry
	var total int64
	now := c.now()
	for _, de := range des {
		name := de.Name()
		isTemp := strings.HasPrefix(name, tempPrefix)
		if !de.Type().IsRegular() || !(isTemp || isKeyName(name)) {
			continue
		}
		info, err := de.Info()
		if err != nil {
			continue // removed meanwhile
		}
		if isTemp {
			if now.Sub(info.ModTime()) > staleTemp {
				os.Remove(filepath.Join(c.dir, name))
			}
			continue
		}
		es = append(es, entry{name, info.Size(), info.ModTime()})
		total += info.Size()
	}
	if total <= c.maxBytes {
		return nil
	}
	// Oldest first; the names break ties so that processes agree.
	slices.SortFunc(es, func(a, b entry) int {
		if c := a.used.Compare(b.used); c != 0 {
			return c
		}
		return strings.Compare(a.name, b.name)
	})
	// Trim to three quarters, so that the next writes do not trim again.
	low := c.maxBytes / 4 * 3
	for _, e := range es {
		if total <= low {
			break
		}
		if err := os.Remove(filepath.Join(c.dir, e.name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			continue
		}
		total -= e.size
	}
	return nil
}

// isKeyName reports whether name is an entry's name: a key in hex.
func isKeyName(name string) bool {
	if len(name) != 2*sha256.Size {
		return false
	}
	_, err := hex.DecodeString(name)
	return err == nil && strings.ToLower(name) == name
}

// Size is the total size of the entries in the directory.
func (c *Cache) Size() (int64, error) {
	des, err := os.ReadDir(c.dir)
	if err != nil {
		return 0, err
	}
	var total int64
	for _, de := range des {
		if !isKeyName(de.Name()) {
			continue
		}
		if info, err := de.Info(); err == nil {
			total += info.Size()
		}
	}
	return total, nil
}

// Locate is the cache directory: $WFC_CACHE if set, else wfc's directory
// under the user's cache directory (os.UserCacheDir: $XDG_CACHE_HOME or
// ~/.cache on Linux, ~/Library/Caches on macOS, %LocalAppData% on
// Windows). WFC_CACHE=off turns the cache off (false).
func Locate(getenv func(string) string) (string, bool) {
	switch v := getenv("WFC_CACHE"); v {
	case "off":
		return "", false
	case "":
	default:
		return v, true
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", false
	}
	return filepath.Join(base, "wfc"), true
}
