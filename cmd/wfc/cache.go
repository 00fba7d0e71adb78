package main

import (
	"errors"
	"io"
	"os"
	"slices"

	"github.com/wfc-lang/wfc"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/internal/cache"
)

// The result cache of `wfc check` (README.md, "The result cache";
// docs/limits.md): a run whose inputs were all seen before prints what that
// run printed and exits as it did, without parsing anything. The inputs are
// what the key hashes (checkKey); everything else a run depends on is
// outside the cache: the files are read, the settings found and their
// problems reported on every run, before the cache is asked.

// checkCacheKind names the entries of `wfc check` and their format; change
// it when the key or the value changes meaning.
const checkCacheKind = "wfc check v1"

// openFileCache is the cache of what each file yields (wfc.Cache), shared
// by `wfc check` and `wfc lsp`: in the same directory as the result cache,
// and off under the same conditions (--no-cache, WFC_CACHE=off, a build
// that cannot be identified, a directory that cannot be made).
func openFileCache(noCache bool) *wfc.Cache {
	if noCache {
		return nil
	}
	dir, ok := cache.Locate(os.Getenv)
	if !ok {
		return nil
	}
	c, err := wfc.OpenCache(dir)
	if err != nil {
		return nil
	}
	return c
}

// checkCache is one run's entry: where, and under which key.
type checkCache struct {
	c   *cache.Cache
	key cache.Key
}

// openCheckCache is the run's cache entry, or nil when the run is not
// cached: --no-cache or WFC_CACHE=off; --fix (it writes files, and its
// output says what it wrote); a path that could not be read or an invalid
// wfc.json (exit 2, a problem of the run the next run must report afresh);
// standard input (an editor's unsaved buffer, which nobody asked to keep
// on disk); a build of wfc that cannot be told from another; a cache
// directory that cannot be made; or one the cache does not trust (a
// relative path, a directory others can write to, a secret others can
// read: internal/cache), which is said in one line on stderr, since the
// user asked for a cache there and gets none.
func openCheckCache(f checkFlags, l *loaded, color bool, stderr io.Writer) *checkCache {
	if f.noCache || f.fix || l.failed || l.fromStdin {
		return nil
	}
	dir, ok := cache.Locate(os.Getenv)
	if !ok {
		return nil
	}
	build, ok := cache.BuildIdentity()
	if !ok {
		return nil
	}
	c, err := cache.Open(dir, cache.Options{})
	var untrusted *cache.UntrustedError
	if errors.As(err, &untrusted) {
		notef(stderr, "result cache not used: %v; set WFC_CACHE to a directory of your own, or WFC_CACHE=off", err)
	}
	if err != nil {
		return nil
	}
	return &checkCache{c: c, key: checkKey(build, f, l, color)}
}

// checkKey hashes everything a check's output and exit status depend on:
// wfc's build; the options that change the output (the format, --strict,
// color, and for SARIF, which writes names relative to it, the working
// directory); and every file in the order printed, by the name printed, its
// content, and the settings that govern it (its wfc.json with --disable
// and --error on top, as resolved — so editing a wfc.json in a way that
// changes no file's settings keeps the entry, and any other edit does not).
func checkKey(build string, f checkFlags, l *loaded, color bool) cache.Key {
	k := cache.NewKey(checkCacheKind).String(build)
	k.String(f.format).Bool(f.strict).Bool(color)
	if f.format == "sarif" {
		wd, _ := os.Getwd()
		k.String(wd)
	}
	k.Int(int64(len(l.sources)))
	for i, s := range l.sources {
		k.String(s.Name)
		// A file read from disk was hashed as it was read (its origin,
		// for --fix); the key reuses that hash rather than hash it again.
		if o, ok := l.originAt(i); ok && o.stamp.size == int64(len(s.Src)) {
			k.Bytes(o.stamp.sum[:])
		} else {
			k.String(s.Src)
		}
		set := l.settings(s.Name)
		for _, codes := range []map[diag.ID]bool{set.Disable, set.Error} {
			ids := make([]string, 0, len(codes))
			for id, on := range codes {
				if on {
					ids = append(ids, string(id))
				}
			}
			slices.Sort(ids)
			k.Int(int64(len(ids)))
			for _, id := range ids {
				k.String(id)
			}
		}
	}
	return k.Sum()
}

// get returns the stored output and exit status, if any.
func (cc *checkCache) get() (out []byte, status int, ok bool) {
	v, ok := cc.c.Get(cc.key)
	if !ok || len(v) < 1 || (v[0] != exitOK && v[0] != exitFound) {
		return nil, 0, false
	}
	return v[1:], int(v[0]), true
}

// put stores a run's output and exit status (best effort: a cache that
// cannot be written only makes the next run slower).
func (cc *checkCache) put(out []byte, status int) {
	if status != exitOK && status != exitFound {
		return
	}
	v := make([]byte, 0, 1+len(out))
	v = append(v, byte(status))
	_ = cc.c.Put(cc.key, append(v, out...))
}

// close releases the cache directory.
func (cc *checkCache) close() { cc.c.Close() }

// statusOf is the exit status an error of runCheck stands for.
func statusOf(err error) int {
	var ee exitError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ee):
		return ee.code
	}
	return exitUsage
}

// errOfStatus is statusOf's inverse.
func errOfStatus(status int) error {
	if status == exitOK {
		return nil
	}
	return exitError{status}
}

// recorder keeps a copy of what is written through it, up to limit bytes;
// past that it keeps nothing (the output is too large to cache).
type recorder struct {
	w     io.Writer
	buf   []byte
	limit int
	over  bool
}

func (r *recorder) Write(p []byte) (int, error) {
	n, err := r.w.Write(p)
	if !r.over {
		if len(r.buf)+n > r.limit {
			r.over, r.buf = true, nil
		} else {
			r.buf = append(r.buf, p[:n]...)
		}
	}
	return n, err
}

// recordLimit is the largest output stored: the cache's own bound on an
// entry (cache.DefaultMaxBytes/8), less its framing.
const recordLimit = cache.DefaultMaxBytes/8 - 1<<10
