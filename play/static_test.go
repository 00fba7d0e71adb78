package play

import (
	"bytes"
	"io/fs"
	"testing"
)

// TestWasmPage: the page as `wfc play` serves it says "server", and the
// static build's copy says "wasm" and differs from it in nothing else; a
// page without the marker fails the build rather than ship a page that
// would ask a server that is not there.
func TestWasmPage(t *testing.T) {
	index, err := fs.ReadFile(Files(), "index.html")
	if err != nil {
		t.Fatal(err)
	}
	got, err := wasmPage(index)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(got, []byte(serverMeta)) || bytes.Count(got, []byte(wasmMeta)) != 1 {
		t.Errorf("the static page does not say wasm once:\n%s", got)
	}
	if back := bytes.Replace(got, []byte(wasmMeta), []byte(serverMeta), 1); !bytes.Equal(back, index) {
		t.Error("the static page differs from the served one in more than its backend")
	}
	for _, bad := range []string{"<html></html>", serverMeta + serverMeta} {
		if _, err := wasmPage([]byte(bad)); err == nil {
			t.Errorf("wasmPage(%q) did not fail", bad)
		}
	}
}
