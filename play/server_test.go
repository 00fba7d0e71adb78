package play

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func serve(s *Server, method, target, host string, header map[string]string, body string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, target, strings.NewReader(body))
	r.Host = host
	for k, v := range header {
		r.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	return w
}

// TestServerRefusesOtherHosts: only 127.0.0.1, localhost and [::1] at
// the server's port are answered (a page of another site that resolves
// its name to 127.0.0.1 — DNS rebinding — is refused).
func TestServerRefusesOtherHosts(t *testing.T) {
	s := &Server{Port: "8370"}
	for host, want := range map[string]int{
		"127.0.0.1:8370": 200, "localhost:8370": 200, "[::1]:8370": 200, "LOCALHOST:8370": 200,
		"evil.example:8370": 421, "127.0.0.1:9999": 421, "127.0.0.1": 421, "": 421, "127.0.0.2:8370": 421, "0.0.0.0:8370": 421,
	} {
		if got := serve(s, "GET", "/", host, nil, "").Code; got != want {
			t.Errorf("Host %q: %d, want %d", host, got, want)
		}
	}
}

// TestServerServesOnlyThePage: the page's files are served with the
// Content-Security-Policy; any other path, a traversal included, is not
// found; the API takes only a JSON POST from the page.
func TestServerServesOnlyThePage(t *testing.T) {
	s := &Server{Port: "1"}
	const host = "127.0.0.1:1"
	for _, p := range []string{"/", "/index.html", "/app.js", "/play.css", "/words.js"} {
		w := serve(s, "GET", p, host, nil, "")
		if w.Code != 200 || w.Header().Get("Content-Security-Policy") != CSP || w.Header().Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: %d, headers %v", p, w.Code, w.Header())
		}
	}
	if ct := serve(s, "GET", "/app.js", host, nil, "").Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/javascript") {
		t.Errorf("app.js served as %q", ct)
	}
	for _, p := range []string{"/../go.mod", "/%2e%2e/go.mod", "/..%2fgo.mod", "/etc/passwd", "/assets/index.html", "/nothing", "/server.go", "//etc/passwd"} {
		if w := serve(s, "GET", p, host, nil, ""); w.Code != 404 {
			t.Errorf("%s: %d, want 404", p, w.Code)
		}
	}
	if w := serve(s, "DELETE", "/", host, nil, ""); w.Code != http.StatusMethodNotAllowed {
		t.Errorf("DELETE: %d", w.Code)
	}
	body := `{"op":"check","files":[{"name":"a.wf","text":"workflow W { Initial = A; state A { } }"}]}`
	json := map[string]string{"Content-Type": "application/json"}
	if w := serve(s, "POST", "/api", host, json, body); w.Code != 200 || !strings.Contains(w.Body.String(), `"errors":0`) {
		t.Errorf("api: %d %s", w.Code, w.Body)
	}
	for name, c := range map[string]struct {
		method string
		header map[string]string
		want   int
	}{
		"GET":          {"GET", json, http.StatusMethodNotAllowed},
		"a form":       {"POST", map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, http.StatusUnsupportedMediaType},
		"other origin": {"POST", map[string]string{"Content-Type": "application/json", "Origin": "http://evil.example"}, http.StatusForbidden},
		"cross-site":   {"POST", map[string]string{"Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"}, http.StatusForbidden},
		"same origin":  {"POST", map[string]string{"Content-Type": "application/json", "Origin": "http://" + host, "Sec-Fetch-Site": "same-origin"}, http.StatusOK},
	} {
		if w := serve(s, c.method, "/api", host, c.header, body); w.Code != c.want {
			t.Errorf("%s: %d, want %d", name, w.Code, c.want)
		}
	}
	// A request larger than the limit is answered with a message.
	w := serve(s, "POST", "/api", host, json, strings.Repeat(" ", MaxRequest+10))
	b, _ := io.ReadAll(w.Body)
	if !strings.Contains(string(b), "at most") {
		t.Errorf("a too large request: %s", b)
	}
}

// TestListenLoopback: the server listens on 127.0.0.1 only.
func TestListenLoopback(t *testing.T) {
	ln, err := Listen("0")
	if err != nil {
		t.Skip(err)
	}
	defer ln.Close()
	if a := ln.Addr().String(); !strings.HasPrefix(a, "127.0.0.1:") {
		t.Errorf("listening on %s", a)
	}
}
