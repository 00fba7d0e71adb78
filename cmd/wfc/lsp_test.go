package main

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
)

// lockedBuffer is written by the server's goroutines and read by the test.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func frames(bodies ...string) io.Reader {
	var b strings.Builder
	for _, s := range bodies {
		fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n%s", len(s), s)
	}
	return strings.NewReader(b.String())
}

const (
	lspInit     = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`
	lspShutdown = `{"jsonrpc":"2.0","id":2,"method":"shutdown"}`
	lspExit     = `{"jsonrpc":"2.0","method":"exit"}`
)

// TestLSPExitStatus: `wfc lsp` exits 0 after shutdown and exit, 1 after
// exit alone (LSP 3.17, "exit notification").
func TestLSPExitStatus(t *testing.T) {
	for _, tc := range []struct {
		name   string
		in     io.Reader
		status int
	}{
		{"shutdown then exit", frames(lspInit, lspShutdown, lspExit), 0},
		{"exit alone", frames(lspInit, lspExit), 1},
		{"stream ends", frames(lspInit), 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errs lockedBuffer
			if got := run([]string{"lsp"}, tc.in, &out, &errs); got != tc.status {
				t.Errorf("exit status %d, want %d; stderr:\n%s", got, tc.status, errs.String())
			}
			if !strings.Contains(out.String(), `"positionEncoding":"utf-16"`) {
				t.Errorf("no initialize result on stdout:\n%s", out.String())
			}
		})
	}
}
