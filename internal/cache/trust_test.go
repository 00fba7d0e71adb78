package cache

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// forge is an entry of v under k as someone who knows the format but not
// the cache's secret can make it: with a secret of their own.
func forge(k Key, v []byte, secret []byte) []byte {
	b := append([]byte(magic), k[:]...)
	b = binary.LittleEndian.AppendUint64(b, uint64(len(v)))
	b = append(b, v...)
	h := hmac.New(sha256.New, secret)
	h.Write(b)
	return h.Sum(b)
}

// forgeV1 is an entry of the first format, checked by a plain SHA-256 that
// anyone can compute: it was a hit.
func forgeV1(k Key, v []byte) []byte {
	b := append([]byte("wfc-cache v1\n"), k[:]...)
	b = binary.LittleEndian.AppendUint64(b, uint64(len(v)))
	b = append(b, v...)
	sum := sha256.Sum256(b)
	return append(b, sum[:]...)
}

// TestForgedEntries: an entry planted by anyone who does not hold the
// cache's secret is a miss — in the old format (a checksum anyone can
// compute), with a guessed secret, or copied from another cache (another
// user's, another machine's) — and the next Put replaces it. A copy of the
// whole directory, secret included (a CI cache restored), is trusted.
func TestForgedEntries(t *testing.T) {
	c := open(t, Options{})
	other := open(t, Options{})
	k := key("forged")
	v := []byte("0 errors, 0 warnings in 1 file\n")
	if err := other.Put(k, v); err != nil {
		t.Fatal(err)
	}
	copied, err := os.ReadFile(filepath.Join(other.Dir(), k.String()))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(c.Dir(), k.String())
	for what, b := range map[string][]byte{
		"the old format":     forgeV1(k, v),
		"no secret":          forge(k, v, nil),
		"a guessed secret":   forge(k, v, bytes.Repeat([]byte{0}, 32)),
		"another cache's":    copied,
		"the secret's bytes": forge(k, v, []byte(secretHeader)),
	} {
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		if got, ok := c.Get(k); ok {
			t.Errorf("an entry made with %s is a hit: %q", what, got)
		}
		if err := c.Put(k, []byte("computed\n")); err != nil {
			t.Errorf("%s: Put does not replace it: %v", what, err)
		}
		if got, ok := c.Get(k); !ok || string(got) != "computed\n" {
			t.Errorf("%s: after Put: %v %q", what, ok, got)
		}
	}
	// The whole directory, copied as a CI cache is saved and restored
	// (modes kept, owned by the same user), is the same cache.
	restored := filepath.Join(t.TempDir(), "restored")
	copyDir(t, other.Dir(), restored)
	r, err := Open(restored, Options{})
	if err != nil {
		t.Fatalf("a restored copy: %v", err)
	}
	defer r.Close()
	if got, ok := r.Get(k); !ok || !bytes.Equal(got, v) {
		t.Errorf("a restored copy: %v %q, want a hit", ok, got)
	}
}

// copyDir copies the files of src into a new directory dst, keeping their
// modes, as tar does.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	info, err := os.Stat(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(dst, info.Mode().Perm()); err != nil {
		t.Fatal(err)
	}
	des, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, de := range des {
		b, err := os.ReadFile(filepath.Join(src, de.Name()))
		if err != nil {
			t.Fatal(err)
		}
		fi, _ := de.Info()
		if err := os.WriteFile(filepath.Join(dst, de.Name()), b, fi.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
}

// TestRelativeDirectory: a relative directory would be wherever wfc runs —
// inside a checkout, with entries that came with it — so it is refused,
// and nothing is made there.
func TestRelativeDirectory(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, dir := range []string{"cache", ".wfc-cache", "./cache", "../x/cache"} {
		_, err := Open(dir, Options{})
		var ue *UntrustedError
		if !errors.As(err, &ue) || ue.Dir != dir {
			t.Errorf("Open(%q) = %v, want an UntrustedError", dir, err)
		}
		if _, err := os.Stat(dir); err == nil {
			t.Errorf("Open(%q) made it", dir)
		}
	}
}

// TestSecret: a new cache makes its secret; processes opening a new cache
// at once agree on one secret; a file in its place that is not a secret
// refuses the cache and is left as it is. (Its permissions, and links and
// special files in its place: TestSecretPermissions.)
func TestSecret(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	var wg sync.WaitGroup
	caches := make([]*Cache, 8)
	for i := range caches {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := Open(dir, Options{})
			if err != nil {
				t.Error(err)
				return
			}
			caches[i] = c
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	for _, c := range caches[1:] {
		if !bytes.Equal(c.secret, caches[0].secret) {
			t.Fatal("caches opened at once hold different secrets")
		}
	}
	for _, c := range caches {
		c.Close()
	}
	p := filepath.Join(dir, secretName)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := parseSecret(b); !ok {
		t.Fatalf("the secret file: %q", b)
	}
	if bytes.Equal(caches[0].secret, make([]byte, secretSize)) {
		t.Fatal("a secret of zeros")
	}
	des, _ := os.ReadDir(dir)
	if len(des) != 1 {
		t.Errorf("a new cache holds %d files, want its secret alone", len(des))
	}
	for what, bad := range map[string][]byte{
		"garbage":           []byte("hello\n"),
		"cut short":         b[:len(b)-1],
		"extended":          append(bytes.Clone(b), 'x'),
		"upper-case":        []byte(strings.ToUpper(string(b))),
		"upper-case digits": append([]byte(secretHeader), append([]byte(strings.ToUpper(string(b[len(secretHeader):len(b)-1]))), '\n')...),
		"another magic":     append([]byte("wfc-cache-secret v2\n"), b[len(secretHeader):]...),
	} {
		os.WriteFile(p, bad, 0o600)
		c, err := Open(dir, Options{})
		var ue *UntrustedError
		if !errors.As(err, &ue) || !strings.Contains(ue.Why, secretName) {
			t.Errorf("a secret %s: Open = %v, want an UntrustedError about the secret", what, err)
		}
		if c != nil {
			c.Close()
		}
		if got, _ := os.ReadFile(p); !bytes.Equal(got, bad) {
			t.Errorf("a secret %s: replaced", what)
		}
	}
	os.WriteFile(p, b, 0o600)
	if c, err := Open(dir, Options{}); err != nil {
		t.Fatalf("the secret put back: %v", err)
	} else {
		c.Close()
	}
}
