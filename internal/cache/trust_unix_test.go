//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package cache

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestUntrustedDirectory: a directory that others can write to, or that
// another user owns, is refused (anyone who can write there could plant
// entries, or replace the secret); a private one reached through a
// symbolic link is the user's.
func TestUntrustedDirectory(t *testing.T) {
	base := t.TempDir()
	for _, mode := range []os.FileMode{0o777, 0o770, 0o720, 0o702, 0o1777} {
		dir := filepath.Join(base, fmt.Sprintf("mode%o", mode))
		os.Mkdir(dir, 0o700)
		if err := os.Chmod(dir, mode); err != nil {
			t.Fatal(err)
		}
		c, err := Open(dir, Options{})
		var ue *UntrustedError
		if !errors.As(err, &ue) || !strings.Contains(ue.Why, "others can write") {
			t.Errorf("mode %o: Open = %v, want an UntrustedError", mode, err)
		}
		if c != nil {
			c.Close()
		}
		if des, _ := os.ReadDir(dir); len(des) != 0 {
			t.Errorf("mode %o: %d files written into a refused directory", mode, len(des))
		}
	}
	// Readable by others is not writable by them: used.
	for _, mode := range []os.FileMode{0o700, 0o755, 0o500} {
		dir := filepath.Join(base, fmt.Sprintf("ok%o", mode))
		os.Mkdir(dir, 0o700)
		if mode == 0o500 {
			Open(dir, Options{}) // its secret, before it is read-only
		}
		os.Chmod(dir, mode)
		c, err := Open(dir, Options{})
		if err != nil {
			t.Errorf("mode %o: %v", mode, err)
		} else {
			c.Close()
		}
		os.Chmod(dir, 0o700)
	}
	// Through a link to a private directory: the directory is checked.
	private := filepath.Join(base, "private")
	os.Mkdir(private, 0o700)
	link := filepath.Join(base, "link")
	os.Symlink(private, link)
	if c, err := Open(link, Options{}); err != nil {
		t.Errorf("a link to a private directory: %v", err)
	} else {
		c.Close()
	}
	os.Chmod(private, 0o777)
	if _, err := Open(link, Options{}); !errors.As(err, new(*UntrustedError)) {
		t.Errorf("a link to a directory all can write: %v", err)
	}
	// Another user's directory (only root can make one).
	if os.Geteuid() == 0 {
		theirs := filepath.Join(base, "theirs")
		os.Mkdir(theirs, 0o700)
		if err := os.Chown(theirs, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		if _, err := Open(theirs, Options{}); !errors.As(err, new(*UntrustedError)) {
			t.Errorf("another user's directory: %v", err)
		}
	}
}

// TestSecretPermissions: a secret others can read is refused (they could
// forge entries with it), as is a link or a special file in its place, and
// none of them makes Open block.
func TestSecretPermissions(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	c, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	p := filepath.Join(dir, secretName)
	info, err := os.Stat(p)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("the secret: %v, mode %v, want 0600", err, info.Mode())
	}
	good, _ := os.ReadFile(p)
	refused := func(what string) {
		t.Helper()
		done := make(chan error, 1)
		go func() {
			c, err := Open(dir, Options{})
			if c != nil {
				c.Close()
			}
			done <- err
		}()
		select {
		case err := <-done:
			var ue *UntrustedError
			if !errors.As(err, &ue) || !strings.Contains(ue.Why, secretName) {
				t.Errorf("%s: Open = %v, want an UntrustedError about the secret", what, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: Open blocks", what)
		}
	}
	for _, mode := range []os.FileMode{0o644, 0o640, 0o604, 0o660, 0o606} {
		os.Chmod(p, mode)
		refused(fmt.Sprintf("mode %o", mode))
	}
	os.Chmod(p, 0o600)
	elsewhere := filepath.Join(t.TempDir(), "secret")
	os.WriteFile(elsewhere, good, 0o600)
	os.Remove(p)
	os.Symlink(elsewhere, p)
	refused("a link")
	os.Remove(p)
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Fatal(err)
	}
	refused("a FIFO")
	os.Remove(p)
	os.Mkdir(p, 0o700)
	refused("a directory")
	os.Remove(p)
	os.WriteFile(p, good, 0o600)
	if c, err := Open(dir, Options{}); err != nil {
		t.Errorf("the secret put back: %v", err)
	} else {
		c.Close()
	}
}

// TestForeignFilesLeftAlone: the cache replaces and removes its own files
// only. The user's files in the directory — named like entries or
// temporary files or not, old or not, and a FIFO and a directory named
// like entries — survive trims that remove every entry of the cache's,
// and a Put whose entry path holds one of them leaves it.
func TestForeignFilesLeftAlone(t *testing.T) {
	c := open(t, Options{MaxBytes: 16 << 10, MaxEntry: 4 << 10})
	old := time.Now().Add(-100 * staleTemp)
	mine := map[string][]byte{
		strings.Repeat("ab", 32):      []byte("a file of mine named by its SHA-256\n"),
		"tmp-notes":                   []byte("my notes"),
		"tmp-0123456789abcdef":        []byte("named like a temporary file"),
		"notes.txt":                   []byte("notes"),
		strings.Repeat("cd", 32):      bytes.Repeat([]byte("big "), 10000),
		strings.Repeat("0", 63) + "x": []byte("almost a key"),
	}
	for name, b := range mine {
		p := filepath.Join(c.Dir(), name)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, old, old)
	}
	fifo := filepath.Join(c.Dir(), strings.Repeat("ef", 32))
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(c.Dir(), strings.Repeat("12", 32))
	os.Mkdir(dir, 0o700)
	// Named like temporary files, old enough to be swept were they the
	// cache's: a FIFO and a directory.
	tmpFIFO := filepath.Join(c.Dir(), "tmp-00000000000000ff")
	if err := syscall.Mkfifo(tmpFIFO, 0o600); err != nil {
		t.Fatal(err)
	}
	tmpDir := filepath.Join(c.Dir(), "tmp-00000000000000fe")
	os.Mkdir(tmpDir, 0o700)
	for _, p := range []string{tmpFIFO, tmpDir} {
		os.Chtimes(p, old, old)
	}
	for i := range 40 {
		if err := c.Put(key(strconv.Itoa(i)), bytes.Repeat([]byte{'v'}, 3000)); err != nil {
			t.Fatal(err)
		}
	}
	for name, b := range mine {
		got, err := os.ReadFile(filepath.Join(c.Dir(), name))
		if err != nil || !bytes.Equal(got, b) {
			t.Errorf("the user's %s: %v, changed %v", name, err, !bytes.Equal(got, b))
		}
	}
	for _, p := range []string{fifo, dir, tmpFIFO, tmpDir} {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("%s: %v", filepath.Base(p), err)
		}
	}
	var own int64
	des, _ := os.ReadDir(c.Dir())
	for _, de := range des {
		if isKeyName(de.Name()) && mine[de.Name()] == nil && de.Type().IsRegular() {
			own += diskOf(t, filepath.Join(c.Dir(), de.Name()))
		}
	}
	if own == 0 || own > 16<<10 {
		t.Errorf("the cache's own entries use %d bytes, want some and at most %d", own, 16<<10)
	}
	// A Put onto a path the user's file holds leaves it.
	var k Key
	copy(k[:], bytes.Repeat([]byte{0xab}, 32))
	if err := c.Put(k, []byte("x")); !errors.Is(err, ErrForeign) {
		t.Errorf("Put over the user's file: %v, want ErrForeign", err)
	}
	copy(k[:], bytes.Repeat([]byte{0xef}, 32))
	if err := c.Put(k, []byte("x")); !errors.Is(err, ErrForeign) {
		t.Errorf("Put over a FIFO: %v, want ErrForeign", err)
	}
	if info, err := os.Lstat(fifo); err != nil || info.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO: %v", err)
	}
	// An entry of an older format is the cache's, as is one a crash left
	// empty or cut short within the mark: replaced.
	for what, b := range map[string][]byte{"an old entry": forgeV1(key("v1"), []byte("old")), "an empty file": {}, "a cut mark": []byte(mark[:4])} {
		k = key(what)
		p := filepath.Join(c.Dir(), k.String())
		os.WriteFile(p, b, 0o600)
		if err := c.Put(k, []byte("new")); err != nil {
			t.Errorf("Put over %s: %v", what, err)
		}
		if v, ok := c.Get(k); !ok || string(v) != "new" {
			t.Errorf("Put over %s: %v %q", what, ok, v)
		}
	}
}

func diskOf(t *testing.T, p string) int64 {
	info, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	return diskUse(info)
}

// TestCapCountsDisk: the bound counts the disk the entries use, not their
// lengths: a hundred entries of a few bytes use a hundred blocks.
func TestCapCountsDisk(t *testing.T) {
	c := open(t, Options{MaxBytes: 64 << 10, MaxEntry: 4 << 10})
	for i := range 100 {
		if err := c.Put(key(strconv.Itoa(i)), []byte("0 errors\n")); err != nil {
			t.Fatal(err)
		}
	}
	var disk, n int64
	des, _ := os.ReadDir(c.Dir())
	for _, de := range des {
		if !isKeyName(de.Name()) {
			continue
		}
		info, err := de.Info()
		if err != nil {
			t.Fatal(err)
		}
		disk += info.Sys().(*syscall.Stat_t).Blocks * 512
		n++
	}
	if disk > 64<<10 {
		t.Errorf("%d entries use %d bytes of disk in a cache of %d", n, disk, 64<<10)
	}
	if size, _ := c.Size(); size != disk {
		t.Errorf("Size = %d, the disk used is %d", size, disk)
	}
}

// TestNotRegularAtEntry: a FIFO, a directory or a link to a device at an
// entry's path is a miss, found without blocking.
func TestNotRegularAtEntry(t *testing.T) {
	c := open(t, Options{})
	for _, tc := range []struct {
		what string
		make func(p string) error
	}{
		{"a FIFO", func(p string) error { return syscall.Mkfifo(p, 0o600) }},
		{"a directory", func(p string) error { return os.Mkdir(p, 0o700) }},
		{"a link to a FIFO", func(p string) error {
			f := filepath.Join(c.Dir(), "fifo")
			if err := syscall.Mkfifo(f, 0o600); err != nil {
				return err
			}
			return os.Symlink("fifo", p)
		}},
		{"a link to a device", func(p string) error { return os.Symlink("/dev/zero", p) }},
	} {
		k := key(tc.what)
		if err := tc.make(filepath.Join(c.Dir(), k.String())); err != nil {
			t.Fatal(err)
		}
		done := make(chan bool, 1)
		go func() {
			_, ok := c.Get(k)
			done <- ok
		}()
		select {
		case ok := <-done:
			if ok {
				t.Errorf("%s: a hit", tc.what)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: Get blocks", tc.what)
		}
		go func() {
			c.Put(k, []byte("x"))
			c.Trim()
			done <- true
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: Put blocks", tc.what)
		}
		os.Remove(filepath.Join(c.Dir(), "fifo"))
	}
}

// TestFIFOHoldingAnEntry: a FIFO at an entry's path is a miss even when
// what it would give a reader is a whole, intact entry of that key: the
// cache reads regular files only.
func TestFIFOHoldingAnEntry(t *testing.T) {
	c := open(t, Options{})
	k := key("fifo")
	p := filepath.Join(c.Dir(), k.String())
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Fatal(err)
	}
	// A reader that stays open keeps what was written in the pipe once the
	// writer has gone; a reader of the FIFO then reads it, and then its end.
	r, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	w, err := os.OpenFile(p, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(c.encode(k, []byte("planted\n"))); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if v, ok := c.Get(k); ok {
		t.Errorf("a FIFO holding an entry: a hit, %q", v)
	}
}

// TestSweep: a temporary file whose writer died (SIGKILL, between writing
// it and renaming it) is swept by the next write, however young; a live
// writer's is not; an empty one, which may not be locked yet, only when
// old; and one that is not the cache's, never.
func TestSweep(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	dir := filepath.Join(t.TempDir(), "cache")
	c, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	cmd := exec.Command(os.Args[0], "-test.run=^TestKilledWriter$")
	cmd.Env = append(os.Environ(), "WFC_CACHE_KILLED="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	tmp, ok := strings.CutPrefix(strings.TrimSpace(line), "writing ")
	if err != nil || !ok {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("the writer said %q, %v", line, err)
	}
	cmd.Process.Kill()
	cmd.Wait()
	killed := filepath.Join(dir, tmp)
	if _, err := os.Stat(killed); err != nil {
		t.Fatalf("the killed writer left no temporary file: %v", err)
	}
	// A live writer's file, and an empty one, both young; an empty old one;
	// the user's, old.
	live, f, err := c.createTemp()
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.WriteString(magic + "being written")
	emptyYoung, emptyOld := filepath.Join(dir, "tmp-00000000000000aa"), filepath.Join(dir, "tmp-00000000000000bb")
	users := filepath.Join(dir, "tmp-00000000000000cc")
	os.WriteFile(emptyYoung, nil, 0o600)
	os.WriteFile(emptyOld, nil, 0o600)
	os.WriteFile(users, []byte("mine"), 0o600)
	old := time.Now().Add(-2 * staleTemp)
	os.Chtimes(emptyOld, old, old)
	os.Chtimes(users, old, old)
	if err := c.Put(key("next"), []byte("x")); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]bool{killed: false, filepath.Join(dir, live): true, emptyYoung: true, emptyOld: false, users: true} {
		if _, err := os.Stat(p); (err == nil) != want {
			t.Errorf("%s: exists %v, want %v", filepath.Base(p), err == nil, want)
		}
	}
}

// TestKilledWriter is the writer TestSweep kills: it stops a Put between
// writing its temporary file and renaming it.
func TestKilledWriter(t *testing.T) {
	dir := os.Getenv("WFC_CACHE_KILLED")
	if dir == "" {
		t.Skip("the writer of TestSweep")
	}
	c, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	testHookBeforeRename = func(tmp string) {
		fmt.Printf("writing %s\n", tmp)
		select {} // until killed
	}
	c.Put(key("killed"), []byte("x"))
}

// TestRefusedOpenKeepsNoFile: a directory Open refuses is not held open
// afterwards: a program that tries a refused cache on every run (a
// language server, say) does not run out of files.
func TestRefusedOpenKeepsNoFile(t *testing.T) {
	if _, err := os.ReadDir("/proc/self/fd"); err != nil {
		t.Skip("no /proc/self/fd to count open files with")
	}
	dir := filepath.Join(t.TempDir(), "shared")
	os.Mkdir(dir, 0o700)
	os.Chmod(dir, 0o777)
	refuse := func() {
		if _, err := Open(dir, Options{}); !errors.As(err, new(*UntrustedError)) {
			t.Fatalf("Open = %v, want an UntrustedError", err)
		}
	}
	refuse() // the runtime's own files (its poller) are made once, here
	des, _ := os.ReadDir("/proc/self/fd")
	before := len(des)
	for range 20 {
		refuse()
	}
	des, _ = os.ReadDir("/proc/self/fd")
	if after := len(des); after > before {
		t.Errorf("20 refused Opens left %d more files open", after-before)
	}
}

// TestSweepByLock: a temporary file's lock says whether its writer lives,
// however old or short the file: one cut short within the mark with no
// writer holding it goes at the next write, young; one a live writer
// holds stays, old.
func TestSweepByLock(t *testing.T) {
	c := open(t, Options{})
	cut := filepath.Join(c.Dir(), "tmp-00000000000000dd")
	if err := os.WriteFile(cut, []byte(mark[:1]), 0o600); err != nil {
		t.Fatal(err)
	}
	live, f, err := c.createTemp()
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.WriteString(magic)
	old := time.Now().Add(-2 * staleTemp)
	os.Chtimes(filepath.Join(c.Dir(), live), old, old)
	if err := c.Put(key("next"), []byte("x")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(cut); err == nil {
		t.Error("a dead writer's file, cut at one byte, was not swept")
	}
	if _, err := os.Stat(filepath.Join(c.Dir(), live)); err != nil {
		t.Errorf("a live writer's old file was swept: %v", err)
	}
}

// TestDiskUseCountsBlocks: the bound counts the blocks a file uses, not
// its length: an entry-named file made sparse (a megabyte long, a block
// or so on disk) counts as the blocks it has.
func TestDiskUseCountsBlocks(t *testing.T) {
	c := open(t, Options{})
	k := key("sparse")
	if err := c.Put(k, []byte("x")); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(c.Dir(), k.String())
	if err := os.Truncate(p, 1<<20); err != nil {
		t.Fatal(err)
	}
	info, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	blocks := info.Sys().(*syscall.Stat_t).Blocks * 512
	if blocks >= 1<<20 {
		t.Skip("this file system does not keep sparse files")
	}
	if size, _ := c.Size(); size != blocks {
		t.Errorf("Size = %d, the file uses %d bytes of disk (%d long)", size, blocks, info.Size())
	}
}
