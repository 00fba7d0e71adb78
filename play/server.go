//go:build !(js && wasm)

package play

import (
	"context"
	"embed"
	"io"
	"io/fs"
	"mime"
	"net"
	"net/http"
	"path"
	"strings"
	"time"
)

// Assets are the page's files (index.html, the JavaScript modules, the
// stylesheets, the generated tables). `wfc play` serves them and the
// static build copies them.
//
//go:embed assets
var assets embed.FS

// Files returns the page's files, rooted at the page's folder.
func Files() fs.FS {
	sub, err := fs.Sub(assets, "assets")
	if err != nil {
		panic(err) // the embedded folder is there by construction
	}
	return sub
}

// CSP is the page's Content-Security-Policy: scripts only from the page's
// own origin (and WebAssembly compiled there), no inline script or style,
// no plugin, no frame, no form, and requests only to the origin. The
// server sends it as a header; index.html carries it too, as a <meta>,
// for static hosts that send none.
const CSP = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; worker-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// Server serves the page and answers its requests with Handle. It binds
// to loopback only (Listen), answers only requests whose Host is the
// address it listens on (a page of another site that resolves its own
// name to 127.0.0.1 is refused: DNS rebinding), serves only the page's
// embedded files and reads no file of the user's.
type Server struct {
	// Port is the port listened on; the Host header must name it.
	Port string
	// Timeout bounds a request's work (0: a minute).
	Timeout time.Duration
}

// Listen listens on 127.0.0.1 at port ("0" picks a free one).
func Listen(port string) (net.Listener, error) {
	return net.Listen("tcp", net.JoinHostPort("127.0.0.1", port))
}

// allowedHost reports whether host (a Host header) names this server:
// 127.0.0.1, localhost or [::1] at its port.
func (s *Server) allowedHost(host string) bool {
	h, p, err := net.SplitHostPort(host)
	if err != nil || p != s.Port {
		return false
	}
	switch strings.ToLower(h) {
	case "127.0.0.1", "localhost", "::1":
		return true
	}
	return false
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", CSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cache-Control", "no-cache")
	if !s.allowedHost(r.Host) {
		http.Error(w, "wfc play answers only at its own address (127.0.0.1 or localhost at its port)", http.StatusMisdirectedRequest)
		return
	}
	switch {
	case r.URL.Path == "/api":
		s.api(w, r)
	case r.Method == http.MethodGet || r.Method == http.MethodHead:
		s.file(w, r)
	default:
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	}
}

// api answers one request of the page. It must be a POST of JSON from the
// page itself: a request another site's page makes (a form, or fetch with
// another Origin) is refused, so no other site can use the server.
func (s *Server) api(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "POST a JSON request", http.StatusMethodNotAllowed)
		return
	}
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		http.Error(w, "the request must be application/json", http.StatusUnsupportedMediaType)
		return
	}
	if o := r.Header.Get("Origin"); o != "" && o != "http://"+r.Host {
		http.Error(w, "requests come from the page only", http.StatusForbidden)
		return
	}
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" {
		http.Error(w, "requests come from the page only", http.StatusForbidden)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, MaxRequest+1))
	if err != nil {
		http.Error(w, "cannot read the request", http.StatusBadRequest)
		return
	}
	timeout := s.Timeout
	if timeout == 0 {
		timeout = time.Minute
	}
	ctx, cancel := context.WithTimeout(r.Context(), timeout)
	defer cancel()
	out := Handle(ctx, body)
	w.Header().Set("Content-Type", "application/json")
	w.Write(out)
}

// file serves one of the page's files; any other path is not found. The
// page's folder is embedded in the binary: no path reaches the disk.
func (s *Server) file(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	if p == "/" {
		p = "/index.html"
	}
	name := strings.TrimPrefix(path.Clean(p), "/")
	if !fs.ValidPath(name) || strings.HasPrefix(name, "test/") || strings.Contains(name, "..") {
		http.NotFound(w, r)
		return
	}
	b, err := fs.ReadFile(Files(), name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	ct := mime.TypeByExtension(path.Ext(name))
	switch path.Ext(name) {
	case ".js", ".mjs":
		ct = "text/javascript; charset=utf-8"
	case ".webmanifest":
		ct = "application/manifest+json"
	}
	if ct == "" {
		ct = "application/octet-stream"
	}
	w.Header().Set("Content-Type", ct)
	if r.Method == http.MethodHead {
		return
	}
	w.Write(b)
}
