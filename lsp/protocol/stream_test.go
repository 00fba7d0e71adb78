package protocol

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"runtime"
	"strings"
	"testing"
)

// serve runs a connection over one end of a pipe whose handler answers
// every call with its method, and returns the other end.
func serve(t *testing.T) (net.Conn, Conn) {
	t.Helper()
	a, b := net.Pipe()
	conn := NewConn(a)
	conn.Go(context.Background(), func(ctx context.Context, req *Request) (any, error) {
		return req.Method(), nil
	})
	t.Cleanup(func() { a.Close(); b.Close() })
	return b, conn
}

func frame(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }

// readReply reads one framed reply from r.
func readReply(t *testing.T, r io.Reader) map[string]any {
	t.Helper()
	var n int
	if _, err := fmt.Fscanf(r, "Content-Length: %d\r\n\r\n", &n); err != nil {
		t.Fatalf("reading a reply: %v", err)
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("reply %s: %v", b, err)
	}
	return m
}

// A well-framed body that is not JSON is answered with -32700, JSON that
// is not a request with -32600 (to its id where it has one), and the
// session goes on.
func TestBadBodiesAreAnswered(t *testing.T) {
	for _, tc := range []struct {
		body, code, id string
	}{
		{"hello", "-32700", "<nil>"},
		{`{"jsonrpc":"2.0","id":1,"method":"x"`, "-32700", "<nil>"},
		{"\x00\xff", "-32700", "<nil>"},
		{`[1,`, "-32700", "<nil>"},
		{`{"jsonrpc":"2.0","id":7,"method":5}`, "-32600", "7"},
		{`{"jsonrpc":"1.0","id":"s","method":"m"}`, "-32600", "s"},
		{`{"jsonrpc":"2.0","id":{},"method":"m"}`, "-32600", "<nil>"},
		{`42`, "-32600", "<nil>"},
		{`"text"`, "-32600", "<nil>"},
	} {
		t.Run(tc.body, func(t *testing.T) {
			peer, _ := serve(t)
			go io.WriteString(peer, frame(tc.body)+frame(`{"jsonrpc":"2.0","id":2,"method":"after"}`))
			m := readReply(t, peer)
			e, _ := m["error"].(map[string]any)
			if fmt.Sprint(e["code"]) != tc.code || fmt.Sprint(m["id"]) != tc.id {
				t.Errorf("reply %v, want code %s id %s", m, tc.code, tc.id)
			}
			if m := readReply(t, peer); m["result"] != "after" {
				t.Errorf("the next request got %v: the session did not go on", m)
			}
		})
	}
}

// A header line longer than MaxHeaderLine ends the session after at most
// that many bytes are buffered; a declared length allocates only what
// arrives.
func TestHeaderBounds(t *testing.T) {
	for name, input := range map[string]string{
		"long line":   "Content-Length: 5\r\nX-Junk: " + strings.Repeat("a", 16<<20) + "\r\n\r\nhello",
		"many lines":  strings.Repeat("X: y\r\n", MaxHeaderLines+1) + "Content-Length: 2\r\n\r\n{}",
		"huge length": "Content-Length: 1000000000\r\n\r\n{}",
		"no length":   "X: y\r\n\r\n{}",
		"bad length":  "Content-Length: -1\r\n\r\n{}",
	} {
		t.Run(name, func(t *testing.T) {
			peer, conn := serve(t)
			in := []byte(input)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			go func() {
				peer.Write(in)
				peer.Close()
			}()
			<-conn.Done()
			runtime.ReadMemStats(&after)
			if grown := after.TotalAlloc - before.TotalAlloc; grown > 4<<20 {
				t.Errorf("allocated %d bytes for a %d-byte input", grown, len(in))
			}
		})
	}
}
