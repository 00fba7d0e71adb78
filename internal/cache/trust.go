package cache

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Whom the cache trusts. An entry's key hashes public inputs (file names
// and contents, options, wfc's version), so anyone who can write a file in
// the cache directory, or knows how entries are authenticated, could make
// `wfc check` print a result of their choosing. The cache therefore
//
//   - lives only in a directory named by an absolute path (a relative
//     WFC_CACHE would be wherever wfc runs: a checkout, with entries that
//     came with it), owned by the user and writable by no one else;
//   - authenticates every entry with an HMAC under a secret of 32 random
//     bytes, made on first use and kept in the directory (secretName)
//     readable and writable by the user alone.
//
// The secret lives in the cache so that a copy of the directory (a CI
// cache saved and restored by actions/cache, for the same user) is still
// trusted: whoever can replace the directory as a whole — its entries and
// its secret — is trusted, as whoever can replace wfc's executable is. On
// systems without Unix owners and modes (Windows) the directory's and the
// secret's permissions are not checked; the default location, under
// %LocalAppData%, is the user's own.

// UntrustedError refuses a cache directory that others could have written
// to. The cache is not used; the caller says so (cmd/wfc: one line on
// standard error).
type UntrustedError struct {
	Dir string // as given
	Why string
}

func (e *UntrustedError) Error() string { return e.Dir + ": " + e.Why }

// secretName is the file that holds the secret, in the cache directory.
const secretName = "wfc-cache-secret"

// secretHeader begins the secret file; 64 hex digits and a line break
// follow.
const secretHeader = mark + "-secret v1\n"

const secretSize = 32

// trust checks the directory and reads its secret, making one if there is
// none.
func (c *Cache) trust() error {
	info, err := c.root.Stat(".")
	if err != nil {
		return err
	}
	if why := privateDir(info); why != "" {
		return &UntrustedError{Dir: c.dir, Why: why}
	}
	for range 3 {
		secret, err := c.readSecret()
		if err == nil {
			c.secret = secret
			return nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		if err := c.makeSecret(); err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
	}
	return fmt.Errorf("%s: %s keeps vanishing", c.dir, secretName)
}

// readSecret reads the secret: a regular file (not a link), the user's,
// readable by no one else, of the secret's format.
func (c *Cache) readSecret() ([]byte, error) {
	untrusted := func(why string) error {
		return &UntrustedError{Dir: c.dir, Why: secretName + " " + why}
	}
	linfo, err := c.root.Lstat(secretName)
	if err != nil {
		return nil, err
	}
	if linfo.Mode()&fs.ModeSymlink != 0 {
		return nil, untrusted("is a symbolic link; the cache's secret must be a file of its own")
	}
	f, err := c.root.OpenFile(secretName, os.O_RDONLY|oNonblock, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, untrusted("is not a regular file")
	}
	if why := privateFile(info); why != "" {
		return nil, untrusted(why)
	}
	want := len(secretHeader) + 2*secretSize + 1
	b := make([]byte, want+1)
	n, err := io.ReadFull(f, b)
	if err != nil && err != io.ErrUnexpectedEOF {
		return nil, err
	}
	b = b[:n]
	secret, ok := parseSecret(b)
	if !ok {
		return nil, untrusted("is not a wfc cache secret")
	}
	return secret, nil
}

func parseSecret(b []byte) ([]byte, bool) {
	if len(b) != len(secretHeader)+2*secretSize+1 || string(b[:len(secretHeader)]) != secretHeader || b[len(b)-1] != '\n' {
		return nil, false
	}
	hexPart := string(b[len(secretHeader) : len(b)-1])
	if !isLowerHex(hexPart) {
		return nil, false
	}
	secret, err := hex.DecodeString(hexPart)
	return secret, err == nil
}

// makeSecret makes a new secret: written whole to a temporary file, then
// linked to its name, which fails if another process made one meanwhile
// (the caller then reads that one). Where hard links are not to be had, it
// is renamed instead: of two processes racing, the last wins, and the
// other's entries are misses.
func (c *Cache) makeSecret() error {
	secret := make([]byte, secretSize)
	if _, err := rand.Read(secret); err != nil {
		return err
	}
	tmp, f, err := c.createTemp()
	if err != nil {
		return err
	}
	// The file stays open, and so locked, until it is linked: a trim
	// meanwhile does not take it for a dead writer's.
	defer f.Close()
	defer c.root.Remove(tmp)
	_, err = f.WriteString(secretHeader + hex.EncodeToString(secret) + "\n")
	if err == nil {
		err = f.Sync() // made once: a torn secret would refuse the cache
	}
	if err != nil {
		return err
	}
	err = c.root.Link(tmp, secretName)
	if err != nil && !errors.Is(err, fs.ErrExist) {
		err = c.root.Rename(tmp, secretName)
	}
	return err
}

// tempName is a new temporary file's name: tempPrefix and 16 random hex
// digits.
func tempName() string {
	var b [8]byte
	rand.Read(b[:])
	return tempPrefix + hex.EncodeToString(b[:])
}
