// Package cache is wfc's result cache: a directory of entries, each the
// output of one run, found by a key that hashes everything the output
// depends on (the caller decides what: cmd/wfc's check hashes every file's
// name and content, wfc's build, the settings and the options). A run whose
// key has an entry prints the entry instead of computing it.
//
// The cache is shared by every wfc process of a user, concurrently, and
// lives on disks that fill up, crash mid-write and get restored from CI
// caches, in directories that may hold other files and that others may try
// to write to, so:
//
//   - it is used only in a directory the user owns and no one else can
//     write, named by an absolute path (Open refuses any other with an
//     UntrustedError), and every file is reached through that directory,
//     opened once (os.Root): a path swapped afterwards leads nowhere else;
//   - an entry carries its own key and an HMAC of itself under a secret
//     kept in the directory, readable by the user alone (trust.go): the key
//     hashes public inputs, so without the secret anyone who could write an
//     entry could make wfc print anything; with it, a planted, truncated,
//     corrupt or foreign file is a miss, never an error and never wrong
//     output;
//   - an entry is written to a temporary file in the directory and renamed
//     into place: a reader sees the old entry, the new one, or none, never
//     half of one; a writer that dies leaves its temporary file, which the
//     next trim sweeps (it knows the writer is gone: the writer holds a lock
//     on it while it lives);
//   - the directory is bounded (Options.MaxBytes) in the disk its entries
//     use: after each write the least recently used entries go until it
//     fits, and a hit marks its entry used;
//   - only the cache's own files (entries and temporary files, which begin
//     with its mark) are ever replaced or removed: the directory may be one
//     the user named, holding files of their own;
//   - anything at an entry's path that is not a regular file (a FIFO, a
//     device, a directory) is a miss, found without blocking;
//   - every failure (an unwritable directory, a full disk, a race lost to
//     another process) makes the cache do less, never the run fail: Get
//     misses, Put reports an error its caller may ignore.
package cache

import (
	"bytes"
	"crypto/hmac"
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

	"github.com/wfc-lang/wfc/internal/safefile"
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
//	magic      "wfc-cache v2\n"
//	key        32 bytes, the entry's own key
//	length     8 bytes, little-endian: the value's length
//	value      length bytes
//	mac        32 bytes: HMAC-SHA256, under the cache's secret, of
//	           everything before it
//
// A file is an entry only if all of it checks: its magic, its key (the
// name it is found under), its length (the file's) and its MAC. (Version 1
// ended in a plain SHA-256, which anyone can compute.)
const magic = "wfc-cache v2\n"

// mark begins every file the cache writes — entries of every version,
// temporary files, the secret — and no file it did not write (in practice):
// a file at an entry's path or a temporary file's name that does not begin
// with it is the user's, and the cache never replaces or removes it. (One
// that holds less than the mark, and only a beginning of it, may be the
// cache's own cut short by a crash: it is the cache's.)
const mark = "wfc-cache"

const (
	headerSize  = len(magic) + sha256.Size + 8
	trailerSize = sha256.Size
)

// Options configure a cache.
type Options struct {
	// MaxBytes bounds the disk the entries use (DefaultMaxBytes if 0).
	MaxBytes int64
	// MaxEntry bounds one value: a larger one is not stored
	// (MaxBytes/8 if 0).
	MaxEntry int64
}

// DefaultMaxBytes bounds a cache directory: 64 MiB holds the results of
// thousands of checks (an entry is the printed output: a few hundred
// bytes when a program is clean, one block of the disk).
const DefaultMaxBytes = 64 << 20

// staleTemp is how old a temporary file must be before a trim removes it
// when it cannot tell whether its writer still lives: where the system has
// no file locks, or for an empty file, whose writer may not have locked it
// yet.
const staleTemp = time.Hour

// tempPrefix starts the names of files being written; tempName adds 16 hex
// digits.
const tempPrefix = "tmp-"

// Cache is a cache directory. Its methods are safe for concurrent use, by
// goroutines and by processes sharing the directory.
type Cache struct {
	dir      string
	root     *os.Root // the directory, opened once and checked (trust.go)
	secret   []byte   // the HMAC key (trust.go)
	maxBytes int64
	maxEntry int64
	now      func() time.Time
}

// Open opens the cache in dir, creating the directory (private to the user)
// and its secret if they do not exist. It refuses, with an
// *UntrustedError, a directory that others could have written to: one
// named by a relative path, one the user does not own or others can write,
// or one whose secret is not private (trust.go). Other errors say the
// directory cannot be made or read.
func Open(dir string, opt Options) (*Cache, error) {
	if dir == "" {
		return nil, errors.New("no cache directory")
	}
	if !filepath.IsAbs(dir) {
		return nil, &UntrustedError{Dir: dir, Why: "a relative path, which puts the cache in whatever directory wfc runs in (a checkout, say); give an absolute path"}
	}
	root, err := os.OpenRoot(dir)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, err
		}
		root, err = os.OpenRoot(dir)
	}
	if err != nil {
		return nil, err
	}
	c := &Cache{dir: dir, root: root, maxBytes: opt.MaxBytes, maxEntry: opt.MaxEntry, now: time.Now}
	if c.maxBytes <= 0 {
		c.maxBytes = DefaultMaxBytes
	}
	if c.maxEntry <= 0 {
		c.maxEntry = c.maxBytes / 8
	}
	if err := c.trust(); err != nil {
		root.Close()
		return nil, err
	}
	return c, nil
}

// Close releases the directory.
func (c *Cache) Close() error { return c.root.Close() }

// Dir is the directory of the cache.
func (c *Cache) Dir() string { return c.dir }

// Get returns the value stored under k. Anything but a whole, intact entry
// of k made with this cache's secret is a miss. A hit marks the entry used,
// so trimming keeps it longer.
func (c *Cache) Get(k Key) ([]byte, bool) {
	name := k.String()
	b, ok := c.read(name, int64(headerSize+trailerSize)+c.maxEntry)
	if !ok {
		return nil, false
	}
	v, ok := c.decode(k, b)
	if !ok {
		return nil, false
	}
	now := c.now()
	_ = c.root.Chtimes(name, now, now) // best effort: a lost update only ages the entry
	return v, true
}

// read reads the regular file name of at most limit bytes. The open does
// not block (a FIFO at the path would wait for a writer for ever), and the
// type and size are checked on the open file before a byte is read.
func (c *Cache) read(name string, limit int64) ([]byte, bool) {
	f, err := c.root.OpenFile(name, os.O_RDONLY|oNonblock, 0)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() || info.Size() > limit {
		return nil, false
	}
	b, err := safefile.ReadSized(f, info.Size(), limit)
	return b, err == nil
}

// decode returns the value of entry b if b is a whole, intact entry of k.
func (c *Cache) decode(k Key, b []byte) ([]byte, bool) {
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
	if !hmac.Equal(c.mac(body), sum) {
		return nil, false // damaged, or not made with this cache's secret
	}
	return b[headerSize : len(b)-trailerSize], true
}

// encode is the entry of value v under k.
func (c *Cache) encode(k Key, v []byte) []byte {
	b := make([]byte, 0, headerSize+len(v)+trailerSize)
	b = append(b, magic...)
	b = append(b, k[:]...)
	b = binary.LittleEndian.AppendUint64(b, uint64(len(v)))
	b = append(b, v...)
	return append(b, c.mac(b)...)
}

// mac is the HMAC-SHA256 of b under the cache's secret.
func (c *Cache) mac(b []byte) []byte {
	h := hmac.New(sha256.New, c.secret)
	h.Write(b)
	return h.Sum(nil)
}

// ErrTooLarge: a value past Options.MaxEntry is not stored.
var ErrTooLarge = errors.New("cache: value too large to store")

// ErrForeign: something that is not the cache's own (a file of the user's,
// a FIFO, a directory) is at the entry's path, and the cache leaves it.
var ErrForeign = errors.New("cache: a file that is not an entry is at the entry's path; left alone")

// testHookBeforeRename, when set (by tests), runs once the temporary file of
// a Put is written, before it is renamed into place.
var testHookBeforeRename func(tmp string)

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
	name := k.String()
	tmp, f, err := c.createTemp()
	if err != nil {
		return err
	}
	_, err = f.Write(c.encode(k, v))
	if err == nil && testHookBeforeRename != nil {
		testHookBeforeRename(tmp)
	}
	if err == nil && !c.replaceable(name) {
		err = ErrForeign
	}
	if err == nil {
		err = c.root.Rename(tmp, name)
	}
	if err != nil {
		c.root.Remove(tmp)
	}
	// Closing releases the writer's lock, after the rename: a trim never
	// takes a temporary file being written for one left by a dead writer.
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return nil
}

// createTemp creates a temporary file of the cache, private to the user,
// and locks it (where the system can) for as long as it stays open.
func (c *Cache) createTemp() (string, *os.File, error) {
	for range 100 {
		name := tempName()
		f, err := c.root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", nil, err
		}
		lockWriter(f)
		return name, f, nil
	}
	return "", nil, errors.New("cache: no free temporary name")
}

// replaceable reports whether a new entry may be renamed to name: nothing
// is there, or an entry of the cache's (of any version, intact or not).
func (c *Cache) replaceable(name string) bool {
	info, err := c.root.Lstat(name)
	if errors.Is(err, fs.ErrNotExist) {
		return true
	}
	return err == nil && info.Mode().IsRegular() && c.own(name)
}

// own reports whether the regular file name is the cache's: it begins with
// the cache's mark, or with part of it (an entry renamed into place just
// before the system crashed may come back empty or cut short).
func (c *Cache) own(name string) bool {
	f, err := c.root.OpenFile(name, os.O_RDONLY|oNonblock, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	_, ok := ownHead(f)
	return ok
}

// ownHead reads the first bytes of the open file f, up to the length of
// the mark, and reports whether f is a regular file they could begin a
// file of the cache's with (a prefix of the mark: a writer that died may
// have written less than the mark).
func ownHead(f *os.File) ([]byte, bool) {
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		return nil, false
	}
	head := make([]byte, len(mark))
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, false
	}
	head = head[:n]
	return head, strings.HasPrefix(mark, string(head))
}

// Trim removes the least recently used entries until the disk they use is
// within the bound, and the temporary files of writers that died. Files
// that are not the cache's own — not named as its entries or temporary
// files are, or not beginning with its mark — are left alone (and not
// counted): the directory may be one the user named.
func (c *Cache) Trim() error {
	des, err := c.list()
	if err != nil {
		return err
	}
	type entry struct {
		name string
		disk int64
		used time.Time
	}
	var es []entry
	var total int64
	for _, de := range des {
		name := de.Name()
		switch {
		case isTempName(name):
			c.sweep(name)
		case isKeyName(name) && de.Type().IsRegular():
			info, err := c.root.Lstat(name)
			if err != nil || !info.Mode().IsRegular() {
				continue // removed or replaced meanwhile
			}
			es = append(es, entry{name, diskUse(info), info.ModTime()})
			total += es[len(es)-1].disk
		}
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
		if !c.own(e.name) {
			total -= e.disk // the user's file with an entry's name: not counted
			continue
		}
		if err := c.root.Remove(e.name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			continue
		}
		total -= e.disk
	}
	return nil
}

// sweep removes the temporary file name if its writer is gone: it holds no
// lock on it (a writer locks its file until it has renamed it), or, where
// that cannot be told, the file is older than staleTemp. An empty file may
// be one whose writer has yet to lock it, so it goes only when that old.
// A file that does not begin with the cache's mark is the user's: it stays.
func (c *Cache) sweep(name string) {
	f, err := c.root.OpenFile(name, os.O_RDONLY|oNonblock, 0)
	if err != nil {
		return
	}
	defer f.Close()
	head, ok := ownHead(f)
	if !ok {
		return
	}
	info, err := f.Stat()
	if err != nil {
		return
	}
	gone, known := writerGone(f)
	old := c.now().Sub(info.ModTime()) > staleTemp
	if (known && gone && len(head) > 0) || ((!known || gone) && old) {
		c.root.Remove(name)
	}
}

// list reads the directory's entries.
func (c *Cache) list() ([]fs.DirEntry, error) {
	d, err := c.root.Open(".")
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.ReadDir(-1)
}

// isKeyName reports whether name is an entry's name: a key in hex.
func isKeyName(name string) bool {
	return len(name) == 2*sha256.Size && isLowerHex(name)
}

// isTempName reports whether name is a temporary file's: tempPrefix and 16
// hex digits.
func isTempName(name string) bool {
	hexPart, ok := strings.CutPrefix(name, tempPrefix)
	return ok && len(hexPart) == 16 && isLowerHex(hexPart)
}

func isLowerHex(s string) bool {
	for i := range len(s) {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// Size is the disk the entries use: what the bound counts.
func (c *Cache) Size() (int64, error) {
	des, err := c.list()
	if err != nil {
		return 0, err
	}
	var total int64
	for _, de := range des {
		if !isKeyName(de.Name()) || !de.Type().IsRegular() {
			continue
		}
		if info, err := c.root.Lstat(de.Name()); err == nil {
			total += diskUse(info)
		}
	}
	return total, nil
}

// Locate is the cache directory: $WFC_CACHE if set, else wfc's directory
// under the user's cache directory (os.UserCacheDir: $XDG_CACHE_HOME or
// ~/.cache on Linux, ~/Library/Caches on macOS, %LocalAppData% on
// Windows). WFC_CACHE=off turns the cache off (false). A relative
// $WFC_CACHE is returned as given, for Open to refuse.
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

// roundToBlock is size rounded up to whole 4 KiB blocks, the disk a file
// of that size uses where the system does not say.
func roundToBlock(size int64) int64 { return (size + 4095) / 4096 * 4096 }
