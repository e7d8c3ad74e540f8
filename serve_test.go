package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/netutil"
)

// Only the build folder's files are served, without the .gz copies (they
// are served as encodings); no directories, no dot-files, nothing that
// climbs out.
func TestAllowed(t *testing.T) {
	for _, c := range []struct {
		path string
		want string // "" = refused
	}{
		{"/", "index.html"},
		{"/index.html", "index.html"},
		{"/assets/style.css", "assets/style.css"},
		{"/assets/datasets/iris.csv", "assets/datasets/iris.csv"},
		{"/app.wasm", "app.wasm"},
		{"/sw.js", "sw.js"},
		{"/assets/manifest.webmanifest", "assets/manifest.webmanifest"},
		{"/assets/", ""},
		{"/app.wasm.gz", ""},
		{"/.git/config", ""},
		{"/../serve.go", ""},
		{"/assets/.hidden", ""},
		{"/assets/../serve.go", ""},
		{"/assets//style.css", ""},
		{"/assets/..%2fserve.go", ""},
		{"/assets\\style.css", ""},
	} {
		got, ok := allowed(c.path)
		if ok != (c.want != "") || got != c.want {
			t.Errorf("allowed(%q) = %q, %v; want %q", c.path, got, ok, c.want)
		}
	}
}

func TestAcceptsGzip(t *testing.T) {
	for h, want := range map[string]bool{"": false, "gzip": true, "br, gzip;q=0.8": true, "gzip;q=0": false, "identity": false, "GZIP": true, "deflate, gzip ; q=0": false,
		"gzip;q=0.0": false, "gzip;q=0.000": false, "gzip; q=0.001": true, "gzip;q=abc": false, "gzip;q=2": false, "x-gzip": true,
		"*": true, "*;q=0": false, "gzip;q=0, *": false, "br, *;q=0.5": true} {
		r := httptest.NewRequest("GET", "/", nil)
		r.Header.Set("Accept-Encoding", h)
		if acceptsGzip(r) != want {
			t.Errorf("Accept-Encoding %q: %v", h, !want)
		}
	}
}

func TestHandler(t *testing.T) {
	root := t.TempDir()
	write := func(name string, data []byte) {
		p := filepath.Join(root, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	wasm := bytes.Repeat([]byte("\x00asm"), 1000)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(wasm)
	zw.Close()
	write("index.html", []byte("<!doctype html>"))
	write("assets/style.css", []byte("body{}"))
	write("app.wasm", wasm)
	write("app.wasm.gz", gz.Bytes())
	write("assets/manifest.webmanifest", []byte("{}"))
	write(".secret", []byte("no"))
	h := handler(root)
	get := func(path, enc string) *http.Response {
		r := httptest.NewRequest("GET", path, nil)
		if enc != "" {
			r.Header.Set("Accept-Encoding", enc)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w.Result()
	}
	res := get("/app.wasm", "gzip")
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "application/wasm" || res.Header.Get("Content-Encoding") != "gzip" || !bytes.Equal(body, gz.Bytes()) {
		t.Errorf("wasm with gzip: %d %v, %d bytes", res.StatusCode, res.Header, len(body))
	}
	res = get("/app.wasm", "")
	body, _ = io.ReadAll(res.Body)
	if res.Header.Get("Content-Encoding") != "" || !bytes.Equal(body, wasm) {
		t.Errorf("wasm without gzip: %v, %d bytes", res.Header, len(body))
	}
	// A .gz copy older than its file is stale: not served.
	old := time.Now().Add(-time.Hour)
	os.Chtimes(filepath.Join(root, "app.wasm.gz"), old, old)
	if res = get("/app.wasm", "gzip"); res.Header.Get("Content-Encoding") != "" {
		t.Error("stale .gz served")
	}
	res = get("/", "")
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "text/html; charset=utf-8" || res.Header.Get("Content-Security-Policy") == "" {
		t.Errorf("index: %d %v", res.StatusCode, res.Header)
	}
	if res = get("/assets/manifest.webmanifest", ""); res.Header.Get("Content-Type") != "application/manifest+json" {
		t.Errorf("manifest: %v", res.Header)
	}
	for _, p := range []string{"/.secret", "/assets/", "/app.wasm.gz", "/nothing"} {
		if res = get(p, ""); res.StatusCode != 404 {
			t.Errorf("%s: %d, want 404", p, res.StatusCode)
		}
	}
	r := httptest.NewRequest("POST", "/", nil)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d", w.Code)
	}
	// Refusals carry the security headers too.
	for _, res := range []*http.Response{w.Result(), get("/nothing", ""), get("/.secret", "")} {
		if res.Header.Get("Content-Security-Policy") == "" || res.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%d without security headers: %v", res.StatusCode, res.Header)
		}
	}
	// Symbolic links under assets/ are not followed, to a file or to a
	// directory, inside the tree or out of it.
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret.css"), []byte("secret"), 0o644)
	links := map[string]string{
		"assets/link.css":   filepath.Join(root, ".secret"),
		"assets/out.css":    filepath.Join(outside, "secret.css"),
		"assets/outdir":     outside,
		"assets/style2.css": filepath.Join(root, "assets", "style.css"),
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, filepath.FromSlash(name))); err != nil {
			t.Skip("no symbolic links here:", err)
		}
	}
	for _, p := range []string{"/assets/link.css", "/assets/out.css", "/assets/outdir/secret.css", "/assets/style2.css"} {
		if res := get(p, ""); res.StatusCode != 404 {
			t.Errorf("%s (a link): %d, want 404", p, res.StatusCode)
		}
	}
	if res := get("/assets/style.css", ""); res.StatusCode != 200 {
		t.Errorf("the real file: %d", res.StatusCode)
	}
}

// stale names what is missing or newer than the build, and nothing once
// the build is newest.
func TestStale(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "build"), 0o755)
	os.MkdirAll(filepath.Join(root, "core"), 0o755)
	if why := stale(root); why != "build/app.wasm is missing" {
		t.Errorf("empty build: %q", why)
	}
	src := filepath.Join(root, "core", "x.go")
	os.WriteFile(src, nil, 0o644)
	past := time.Now().Add(-time.Hour)
	os.Chtimes(src, past, past)
	for _, o := range outputs {
		os.WriteFile(filepath.Join(root, o), nil, 0o644)
	}
	if why := stale(root); why != "" {
		t.Errorf("fresh build: %q", why)
	}
	future := time.Now().Add(time.Hour)
	os.Chtimes(src, future, future)
	if why := stale(root); why != filepath.Join("core", "x.go")+" is newer than the build" {
		t.Errorf("newer source: %q", why)
	}
}

// The server lets go of a client that sends nothing (no header within its
// timeout) and of an idle keep-alive one, and serves at most conns at once:
// the next waits until one is let go.
func TestServerLimits(t *testing.T) {
	l := limits{conns: 2, header: 200 * time.Millisecond, read: time.Second, write: time.Second, idle: 200 * time.Millisecond}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := server(t.TempDir(), l)
	go srv.Serve(netutil.LimitListener(ln, l.conns))
	defer srv.Close()
	dial := func() net.Conn {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	closedWithin := func(c net.Conn, d time.Duration) bool {
		c.SetReadDeadline(time.Now().Add(d))
		_, err := c.Read(make([]byte, 1))
		return err == io.EOF
	}
	// Silent clients fill the two places; a third is not served until
	// the server lets them go at their header timeout.
	a, b, c := dial(), dial(), dial()
	defer a.Close()
	defer b.Close()
	defer c.Close()
	fmt.Fprintf(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	c.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
	if n, _ := c.Read(make([]byte, 1)); n > 0 {
		t.Fatal("a third client was served while two held the places")
	}
	if !closedWithin(a, 3*time.Second) || !closedWithin(b, 3*time.Second) {
		t.Fatal("a client that sent nothing was not let go")
	}
	c.SetReadDeadline(time.Now().Add(3 * time.Second))
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "HTTP/1.1 ") {
		t.Fatalf("the third client, once there was room: %q, %v", line, err)
	}
	// It is idle now: let go at the idle timeout.
	if !closedWithin(c, 3*time.Second) {
		t.Error("an idle keep-alive client was not let go")
	}
}
