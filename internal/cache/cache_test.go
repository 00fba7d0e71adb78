package cache

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

func open(t testing.TB, opt Options) *Cache {
	t.Helper()
	c, err := Open(filepath.Join(t.TempDir(), "cache"), opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func key(s string) Key { return NewKey("test v1").String(s).Sum() }

func TestRoundTrip(t *testing.T) {
	c := open(t, Options{})
	for _, v := range [][]byte{{}, []byte("hello\n"), bytes.Repeat([]byte{0, 1, 2, 0xff}, 10000)} {
		k := key(fmt.Sprint(len(v)))
		if _, ok := c.Get(k); ok {
			t.Fatalf("%s: a hit before any Put", k)
		}
		if err := c.Put(k, v); err != nil {
			t.Fatal(err)
		}
		got, ok := c.Get(k)
		if !ok || !bytes.Equal(got, v) {
			t.Fatalf("Get after Put: %v, %d bytes, want %d", ok, len(got), len(v))
		}
	}
	// Another Put replaces the value.
	k := key("again")
	c.Put(k, []byte("one"))
	c.Put(k, []byte("two"))
	if got, _ := c.Get(k); string(got) != "two" {
		t.Errorf("after a second Put: %q", got)
	}
}

// TestKeyParts: parts are length-delimited and typed, so different
// sequences of parts never make the same key.
func TestKeyParts(t *testing.T) {
	keys := map[Key]string{}
	for name, k := range map[string]Key{
		"ab,c":     NewKey("k").String("ab").String("c").Sum(),
		"a,bc":     NewKey("k").String("a").String("bc").Sum(),
		"abc":      NewKey("k").String("abc").Sum(),
		"bytes":    NewKey("k").Bytes([]byte("abc")).Sum(),
		"int":      NewKey("k").Int(1).Sum(),
		"true":     NewKey("k").Bool(true).Sum(),
		"false":    NewKey("k").Bool(false).Sum(),
		"other":    NewKey("other").String("abc").Sum(),
		"empty":    NewKey("k").Sum(),
		"empty s":  NewKey("k").String("").Sum(),
		"two empt": NewKey("k").String("").String("").Sum(),
	} {
		if other, dup := keys[k]; dup {
			t.Errorf("%s and %s make the same key", name, other)
		}
		keys[k] = name
	}
	if NewKey("k").String("x").Sum() != NewKey("k").String("x").Sum() {
		t.Error("a key is not deterministic")
	}
	// A part that holds what another part's header would be, with the
	// bytes of the parts after it, is still one part: each part's length
	// delimits it, and each kind has its own tag.
	header := func(tag byte, n int) string {
		return string(tag) + string([]byte{byte(n), 0, 0, 0, 0, 0, 0, 0})
	}
	for _, tc := range []struct {
		what string
		a, b Key
	}{
		{"a string holding a header", NewKey("k").String("a" + header('s', 1) + "b").Sum(), NewKey("k").String("a").String("b").Sum()},
		{"a string holding a header with no length", NewKey("k").String("a" + header('s', 0) + "b").Sum(), NewKey("k").String("a").String("b").Sum()},
		{"byte parts split differently", NewKey("k").Bytes([]byte("ab")).Bytes([]byte("c")).Sum(), NewKey("k").Bytes([]byte("a")).Bytes([]byte("bc")).Sum()},
		{"bytes holding a header", NewKey("k").Bytes([]byte(header('s', 3) + "abc")).Sum(), NewKey("k").String("abc").Sum()},
		{"bytes and a string alike", NewKey("k").Bytes([]byte("abc")).Sum(), NewKey("k").String("abc").Sum()},
		{"a bool and a byte", NewKey("k").Bool(true).Sum(), NewKey("k").Bytes([]byte{1}).Sum()},
		{"an int and its bytes", NewKey("k").Int(7).Sum(), NewKey("k").Bytes([]byte{7, 0, 0, 0, 0, 0, 0, 0}).Sum()},
		{"ints", NewKey("k").Int(1).Sum(), NewKey("k").Int(2).Sum()},
		{"a negative int", NewKey("k").Int(-1).Sum(), NewKey("k").Int(1).Sum()},
		{"the kind", NewKey("a").String("b").Sum(), NewKey("ab").Sum()},
	} {
		if tc.a == tc.b {
			t.Errorf("%s: two different sequences of parts make the same key", tc.what)
		}
	}
}

// TestDamagedEntries: a truncated, corrupt, extended or foreign entry is a
// miss, never an error or another value.
func TestDamagedEntries(t *testing.T) {
	c := open(t, Options{})
	k := key("damaged")
	v := []byte("the output of a run\n")
	if err := c.Put(k, v); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(c.Dir(), k.String())
	good, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	miss := func(what string, b []byte) {
		t.Helper()
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		if got, ok := c.Get(k); ok {
			t.Errorf("%s: a hit, %q", what, got)
		}
	}
	// Truncated at every length.
	for n := range len(good) {
		miss(fmt.Sprintf("truncated to %d bytes", n), good[:n])
	}
	// Every byte flipped.
	for i := range good {
		b := bytes.Clone(good)
		b[i] ^= 0x20
		miss(fmt.Sprintf("byte %d flipped", i), b)
	}
	miss("a byte appended", append(bytes.Clone(good), '\n'))
	miss("another key's entry", c.encode(key("other"), v))
	miss("another version's entry", append([]byte("wfc-cache v3\n"), good[len(magic):]...))
	miss("not an entry", []byte("{\"hello\": 1}\n"))
	miss("empty", nil)
	// A directory in its place.
	os.Remove(p)
	if err := os.Mkdir(p, 0o700); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Get(k); ok {
		t.Error("a directory: a hit")
	}
	os.Remove(p)
	// A huge file is not read.
	small := open(t, Options{MaxBytes: 1 << 10})
	if err := os.WriteFile(filepath.Join(small.Dir(), k.String()), bytes.Repeat([]byte{'x'}, 1<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, ok := small.Get(k); ok {
		t.Error("a 1 MB file in a 1 KB cache: a hit")
	}
	// After the damage, a Put repairs.
	if err := c.Put(k, v); err != nil {
		t.Fatal(err)
	}
	if got, ok := c.Get(k); !ok || !bytes.Equal(got, v) {
		t.Errorf("after repair: %v %q", ok, got)
	}
}

// TestTrim: the disk the entries use stays within the bound, the least
// recently used entries go first, and a hit counts as a use. (What a trim
// leaves alone, and how it sweeps temporary files: trust_test.go.)
func TestTrim(t *testing.T) {
	c := open(t, Options{MaxBytes: 80 << 10, MaxEntry: 16 << 10})
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c.now = func() time.Time { return clock }
	v := bytes.Repeat([]byte{'v'}, 8000)
	var keys []Key
	for i := range 30 {
		clock = clock.Add(time.Minute)
		k := key(strconv.Itoa(i))
		keys = append(keys, k)
		if err := c.Put(k, v); err != nil {
			t.Fatal(err)
		}
		// Put sets no time itself; the file's is the real clock's, so
		// give it the test's.
		os.Chtimes(filepath.Join(c.Dir(), k.String()), clock, clock)
		if i == 5 {
			clock = clock.Add(time.Minute)
			if _, ok := c.Get(keys[0]); !ok { // keep the first one in use
				t.Fatal("entry 0 gone early")
			}
		}
		if i > 5 {
			c.Get(keys[0])
		}
		if size, _ := c.Size(); size > 80<<10 {
			t.Fatalf("after %d entries the cache uses %d bytes, past %d", i+1, size, 80<<10)
		}
	}
	if _, ok := c.Get(keys[0]); !ok {
		t.Error("the entry used all along was trimmed")
	}
	if _, ok := c.Get(keys[1]); ok {
		t.Error("the oldest unused entry survived")
	}
	if _, ok := c.Get(keys[29]); !ok {
		t.Error("the newest entry was trimmed")
	}
	// Too large a value is not stored.
	if err := c.Put(key("big"), make([]byte, 17<<10)); err != ErrTooLarge {
		t.Errorf("a value past MaxEntry: %v", err)
	}
}

// TestUnwritable: a cache that cannot be written misses and says so to its
// caller, and never panics.
func TestUnwritable(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o600)
	if _, err := Open(filepath.Join(file, "cache"), Options{}); err == nil {
		t.Error("Open under a file: no error")
	}
	if os.Geteuid() == 0 {
		t.Skip("root writes anywhere")
	}
	c := open(t, Options{})
	if err := os.Chmod(c.Dir(), 0o500); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(c.Dir(), 0o700)
	if err := c.Put(key("x"), []byte("x")); err == nil {
		t.Error("Put into a read-only directory: no error")
	}
	if _, ok := c.Get(key("x")); ok {
		t.Error("a hit in an empty read-only cache")
	}
}

func TestLocate(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == "WFC_CACHE" {
				return v
			}
			return ""
		}
	}
	if d, ok := Locate(env("/some/where")); !ok || d != "/some/where" {
		t.Errorf("WFC_CACHE=/some/where: %q %v", d, ok)
	}
	if _, ok := Locate(env("off")); ok {
		t.Error("WFC_CACHE=off: the cache is on")
	}
	if base, err := os.UserCacheDir(); err == nil {
		if d, ok := Locate(env("")); !ok || d != filepath.Join(base, "wfc") {
			t.Errorf("by default: %q %v, want under %s", d, ok, base)
		}
	}
}

// TestConcurrentGoroutines: many writers and readers of the same keys in a
// cache small enough to trim all the time: every hit is a value some Put
// stored under that key, whole.
func TestConcurrentGoroutines(t *testing.T) {
	c := open(t, Options{MaxBytes: 64 << 10, MaxEntry: 16 << 10})
	if hits := hammer(t, c, 8, 200); hits == 0 {
		t.Error("no hits: the test did not read what it wrote")
	}
	checkBound(t, c)
}

// value is what writer w stores under key i: its size and bytes say which
// key it belongs to, so a reader can tell a torn or misplaced value.
func value(i, w int) []byte {
	return bytes.Repeat([]byte(fmt.Sprintf("key %d writer %d;", i, w)), 50+i*37)
}

func valid(i int, v []byte) bool {
	for w := range 64 {
		if bytes.Equal(v, value(i, w)) {
			return true
		}
	}
	return false
}

func hammer(t testing.TB, c *Cache, workers, rounds int) (hits int) {
	var wg sync.WaitGroup
	var mu sync.Mutex
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range rounds {
				i := (r*7 + w) % 20
				k := key(strconv.Itoa(i))
				if v, ok := c.Get(k); ok {
					if !valid(i, v) {
						t.Errorf("key %d: a value no writer stored (%d bytes)", i, len(v))
						return
					}
					mu.Lock()
					hits++
					mu.Unlock()
					continue
				}
				c.Put(k, value(i, w)) // errors (a lost rename race) are misses later
			}
		}()
	}
	wg.Wait()
	return hits
}

// checkBound fails unless c is within its bound. It holds once every writer
// has finished: each Put trims after its rename, so the last trim to start
// sees every rename. While other processes still write, the directory may
// be over the bound for a moment (between one's rename and its trim), so
// helpers must not call it.
func checkBound(t testing.TB, c *Cache) {
	t.Helper()
	if size, _ := c.Size(); size > c.maxBytes {
		t.Errorf("%d bytes in a cache of %d", size, c.maxBytes)
	}
}

// TestConcurrentProcesses: the same, from several processes sharing the
// directory (this test binary, run again as helpers).
func TestConcurrentProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	dir := filepath.Join(t.TempDir(), "shared")
	if _, err := Open(dir, Options{}); err != nil {
		t.Fatal(err)
	}
	var cmds []*exec.Cmd
	var outs []*bytes.Buffer
	for range 4 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
		cmd.Env = append(os.Environ(), "WFC_CACHE_HELPER="+dir)
		out := new(bytes.Buffer)
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds, outs = append(cmds, cmd), append(outs, out)
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("helper %d: %v\n%s", i, err, outs[i])
		}
	}
	c, _ := Open(dir, Options{MaxBytes: 64 << 10, MaxEntry: 16 << 10})
	checkBound(t, c)
	for i := range 20 {
		if v, ok := c.Get(key(strconv.Itoa(i))); ok && !valid(i, v) {
			t.Errorf("key %d: a value no writer stored", i)
		}
	}
}

// TestHelperProcess is one process of TestConcurrentProcesses.
func TestHelperProcess(t *testing.T) {
	dir := os.Getenv("WFC_CACHE_HELPER")
	if dir == "" {
		t.Skip("a helper of TestConcurrentProcesses")
	}
	c, err := Open(dir, Options{MaxBytes: 64 << 10, MaxEntry: 16 << 10})
	if err != nil {
		t.Fatal(err)
	}
	hammer(t, c, 4, 300)
}

func BenchmarkGet(b *testing.B) {
	c := open(b, Options{})
	k := key("bench")
	v := bytes.Repeat([]byte("output line\n"), 100)
	c.Put(k, v)
	b.SetBytes(int64(len(v)))
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := c.Get(k); !ok {
			b.Fatal("miss")
		}
	}
}

// BenchmarkOpen is what every cached run pays before its first Get: the
// directory made if missing, opened and checked, and the secret read.
func BenchmarkOpen(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "cache")
	if c, err := Open(dir, Options{}); err != nil {
		b.Fatal(err)
	} else {
		c.Close()
	}
	b.ReportAllocs()
	for b.Loop() {
		c, err := Open(dir, Options{})
		if err != nil {
			b.Fatal(err)
		}
		c.Close()
	}
}

// TestPutAll: every value is stored as Put stores it, too large ones are
// not (and said so), and the directory is trimmed to its bound once.
func TestPutAll(t *testing.T) {
	// The bound counts disk blocks (4 KiB or more an entry): five small
	// entries fit in 64 KiB, thirty do not.
	c := open(t, Options{MaxBytes: 64 << 10, MaxEntry: 2 << 10})
	kvs := map[Key][]byte{}
	for i := range 5 {
		kvs[key(strconv.Itoa(i))] = bytes.Repeat([]byte{byte('a' + i)}, 100*(i+1))
	}
	kvs[key("big")] = make([]byte, 3<<10)
	if err := c.PutAll(kvs); err != ErrTooLarge {
		t.Errorf("PutAll with a value past MaxEntry: %v, want ErrTooLarge", err)
	}
	for k, v := range kvs {
		got, ok := c.Get(k)
		if len(v) > 2<<10 {
			if ok {
				t.Errorf("%s: the value past MaxEntry was stored", k)
			}
			continue
		}
		if !ok || !bytes.Equal(got, v) {
			t.Errorf("%s: %v, %d bytes, want %d", k, ok, len(got), len(v))
		}
	}
	// Past the bound, one PutAll trims.
	many := map[Key][]byte{}
	for i := range 30 {
		many[key("m"+strconv.Itoa(i))] = bytes.Repeat([]byte{'m'}, 1000)
	}
	if err := c.PutAll(many); err != nil {
		t.Fatal(err)
	}
	if size, _ := c.Size(); size > 64<<10 {
		t.Errorf("after PutAll the cache holds %d bytes, past %d", size, 64<<10)
	}
}

// TestNames: the names the cache takes for its entries (a key in lower-case
// hex) and its temporary files (tmp- and 16 lower-case hex digits); a trim
// looks at no other file.
func TestNames(t *testing.T) {
	k := key("a name").String()
	for _, tc := range []struct {
		name        string
		entry, temp bool
	}{
		{k, true, false},
		{strings.Repeat("0", 64), true, false},
		{strings.Repeat("f", 64), true, false},
		{strings.ToUpper(k), false, false},
		{k[:63], false, false},
		{k + "0", false, false},
		{strings.Repeat("0", 63) + "g", false, false},
		{strings.Repeat("0", 63) + "/", false, false},
		{strings.Repeat("0", 63) + ":", false, false},
		{"tmp-0123456789abcdef", false, true},
		{"tmp-0123456789ABCDEF", false, false},
		{"tmp-0123456789abcde", false, false},
		{"tmp-0123456789abcdef0", false, false},
		{"tmp-0123456789abcdeg", false, false},
		{"tmp0123456789abcdef0", false, false},
		{"wfc-cache-secret", false, false},
		{tempName(), false, true},
	} {
		if got := isKeyName(tc.name); got != tc.entry {
			t.Errorf("isKeyName(%q) = %v", tc.name, got)
		}
		if got := isTempName(tc.name); got != tc.temp {
			t.Errorf("isTempName(%q) = %v", tc.name, got)
		}
	}
}

// TestBounds: MaxEntry is MaxBytes/8 unless set, MaxBytes is
// DefaultMaxBytes unless set, and a bound however small is honoured: a
// cache bounded to one byte keeps nothing.
func TestBounds(t *testing.T) {
	c := open(t, Options{MaxBytes: 80 << 10})
	if err := c.Put(key("a tenth"), make([]byte, 10<<10)); err != nil {
		t.Errorf("a value of MaxBytes/8: %v", err)
	}
	if err := c.Put(key("more"), make([]byte, 10<<10+1)); err != ErrTooLarge {
		t.Errorf("a value past MaxBytes/8: %v, want ErrTooLarge", err)
	}
	d := open(t, Options{})
	if err := d.Put(key("past the default"), make([]byte, DefaultMaxBytes/8+1)); err != ErrTooLarge {
		t.Errorf("a value past DefaultMaxBytes/8: %v, want ErrTooLarge", err)
	}
	tiny := open(t, Options{MaxBytes: 1})
	if err := tiny.Put(key("x"), []byte("x")); err != ErrTooLarge {
		t.Errorf("one byte in a cache of one byte: %v, want ErrTooLarge", err)
	}
	if err := tiny.Put(key("empty"), nil); err != nil {
		t.Errorf("an empty value in a cache of one byte: %v", err)
	}
	if _, ok := tiny.Get(key("empty")); ok {
		t.Error("a cache of one byte kept an entry")
	}
	if size, _ := tiny.Size(); size > 1 {
		t.Errorf("a cache of one byte uses %d", size)
	}
}

// TestTrimToThreeQuarters: a trim leaves the entries within three
// quarters of the bound, so that the next writes do not trim again at
// once, and keeps the rest.
func TestTrimToThreeQuarters(t *testing.T) {
	const bound = 64 << 10
	c := open(t, Options{MaxBytes: bound, MaxEntry: 4 << 10})
	var prev int64
	for i := range 100 {
		if err := c.Put(key(strconv.Itoa(i)), []byte("0 errors\n")); err != nil {
			t.Fatal(err)
		}
		size, err := c.Size()
		if err != nil {
			t.Fatal(err)
		}
		if size < prev { // trimmed
			if size > bound/4*3 || size < bound/2 {
				t.Fatalf("after a trim the entries use %d bytes, want between %d and %d", size, bound/2, bound/4*3)
			}
			return
		}
		prev = size
	}
	t.Fatal("100 entries and no trim")
}

// TestRoundToBlock: where the system does not say how much disk a file
// uses, it is its size in whole blocks of 4 KiB.
func TestRoundToBlock(t *testing.T) {
	for size, want := range map[int64]int64{0: 0, 1: 4096, 4095: 4096, 4096: 4096, 4097: 8192, 10000: 12288} {
		if got := roundToBlock(size); got != want {
			t.Errorf("roundToBlock(%d) = %d, want %d", size, got, want)
		}
	}
}
