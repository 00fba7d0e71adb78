//go:build !(js && wasm)

package play

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// Module is the module whose play/wasm package the static build compiles.
const Module = "github.com/wfc-lang/wfc"

// StaticOptions tune the static build.
type StaticOptions struct {
	// Go is the go command ("" looks up "go" on PATH).
	Go string
	// Dir is where the module's source is (a clone); "" finds it from the
	// working directory, as `go list -m` does.
	Dir string
	// Log, if set, is told what the build does.
	Log io.Writer
}

// BuildStatic writes the playground as a folder any static host serves:
// the page's files, index.html saying the page runs wfc as WebAssembly,
// wfc.wasm.gz (the request handler, GOOS=js GOARCH=wasm, compressed: the
// worker decompresses it, so it travels compressed from any host),
// wasm_exec.js from the same Go toolchain, and sw.js's list of files with
// their hash, so a new build replaces the cached one. Files are written
// into out (made if missing) each through a temporary file and a rename.
func BuildStatic(ctx context.Context, out string, opt StaticOptions) error {
	goCmd := opt.Go
	if goCmd == "" {
		var err error
		if goCmd, err = exec.LookPath("go"); err != nil {
			return errors.New("the static build compiles wfc to WebAssembly with the Go toolchain, and `go` is not on PATH")
		}
	}
	logf := func(format string, a ...any) {
		if opt.Log != nil {
			fmt.Fprintf(opt.Log, format+"\n", a...)
		}
	}
	dir := opt.Dir
	if dir == "" {
		b, err := command(ctx, goCmd, "", nil, "list", "-m", "-f", "{{.Path}} {{.Dir}}")
		path, d, _ := strings.Cut(strings.TrimSpace(string(b)), " ")
		if err != nil || path != Module {
			return fmt.Errorf("the static build compiles play/wasm from wfc's source: run it inside a clone of %s (go list -m says %q)", Module, strings.TrimSpace(string(b)))
		}
		dir = d
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "wfc-play-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	wasm := filepath.Join(tmp, "wfc.wasm")
	logf("building wfc.wasm (GOOS=js GOARCH=wasm go build ./play/wasm)")
	env := append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
	if b, err := command(ctx, goCmd, dir, env, "build", "-trimpath", "-ldflags=-s -w", "-o", wasm, "./play/wasm"); err != nil {
		return fmt.Errorf("go build ./play/wasm: %v\n%s", err, b)
	}
	root, err := command(ctx, goCmd, dir, nil, "env", "GOROOT")
	if err != nil {
		return fmt.Errorf("go env GOROOT: %v", err)
	}
	var execJS []byte
	for _, p := range []string{"lib/wasm/wasm_exec.js", "misc/wasm/wasm_exec.js"} {
		if execJS, err = os.ReadFile(filepath.Join(strings.TrimSpace(string(root)), filepath.FromSlash(p))); err == nil {
			break
		}
	}
	if err != nil {
		return fmt.Errorf("the Go toolchain's wasm_exec.js: %v", err)
	}
	raw, err := os.ReadFile(wasm)
	if err != nil {
		return err
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write(raw)
	if err := zw.Close(); err != nil {
		return err
	}
	logf("wfc.wasm: %d bytes, %d compressed", len(raw), gz.Len())
	files := map[string][]byte{
		"wasm_exec.js": execJS,
		"wfc.wasm.gz":  gz.Bytes(),
	}
	err = fs.WalkDir(Files(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(Files(), p)
		files[p] = b
		return err
	})
	if err != nil {
		return err
	}
	if files["index.html"], err = wasmPage(files["index.html"]); err != nil {
		return err
	}
	// The service worker's version: a hash of every file, so a new build
	// is a new cache.
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	h := sha256.New()
	for _, n := range names {
		fmt.Fprintf(h, "%s %d\n", n, len(files[n]))
		h.Write(files[n])
	}
	version := hex.EncodeToString(h.Sum(nil))[:16]
	files["version.json"] = []byte(fmt.Sprintf(`{"version":%q,"files":%s}`+"\n", version, jsonList(names)))
	for _, n := range append(names, "version.json") {
		if err := writeAtomic(filepath.Join(out, filepath.FromSlash(n)), files[n]); err != nil {
			return err
		}
	}
	logf("wrote %d files to %s", len(files), out)
	return nil
}

// The page learns which backend answers it from a <meta> in index.html:
// `wfc play` serves it as it is, the static build rewrites it. A <meta>
// costs no request, so the worker starts as soon as the page's script runs.
const (
	serverMeta = `<meta name="wfc-backend" content="server">`
	wasmMeta   = `<meta name="wfc-backend" content="wasm">`
)

// wasmPage is index.html saying the page runs wfc as WebAssembly.
func wasmPage(index []byte) ([]byte, error) {
	if bytes.Count(index, []byte(serverMeta)) != 1 {
		return nil, fmt.Errorf("index.html must hold %s once, for the static build to rewrite", serverMeta)
	}
	return bytes.Replace(index, []byte(serverMeta), []byte(wasmMeta), 1), nil
}

func jsonList(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return "[" + strings.Join(q, ",") + "]"
}

func command(ctx context.Context, name, dir string, env []string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = env
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	err := cmd.Run()
	return out.Bytes(), err
}

// writeAtomic writes b to name through a temporary file in its folder and
// a rename, so a reader (a static server) never sees half a file.
func writeAtomic(name string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(name), ".wfc-play-*")
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), name)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}
