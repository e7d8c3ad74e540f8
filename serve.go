// Command serve builds the app when its build is missing or older than the
// sources, then serves it on 127.0.0.1 (go run serve.go [-port 8080]).
//
// It serves build/, the folder build.sh writes (any static host can serve
// it as it is), and nothing else from the tree: no directory listings, no
// dot-files, no symbolic links followed; wasm as application/wasm, the
// manifest as application/manifest+json; the pre-compressed .gz copies
// when the browser accepts gzip; and, on every reply, a content security
// policy that allows nothing from another origin.
package main

import (
	"flag"
	"fmt"
	"io/fs"
	"log"
	"mime"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/net/netutil"
)

// outputs are what build.sh writes; sources are what they are built from.
var (
	outputs = []string{"build/app.wasm", "build/wasm_exec.js", "build/index.html", "build/sw.js"}
	sources = []string{"core", "wasm", "ui", "spec", "internal", "assets", "index.html", "go.mod", "go.sum", "build.sh"}
)

func main() {
	port := flag.Int("port", 8080, "port on 127.0.0.1 (0 picks a free one)")
	noBuild := flag.Bool("no-build", false, "serve what is in build/ without checking that it is up to date")
	flag.Parse()
	root, err := os.Getwd()
	if err != nil {
		log.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "index.html")); err != nil {
		log.Fatal("serve: run it from the project's top directory (where index.html is)")
	}
	if !*noBuild {
		if why := stale(root); why != "" {
			fmt.Println("building:", why)
			cmd := exec.Command("bash", "build.sh")
			cmd.Dir, cmd.Stdout, cmd.Stderr = root, os.Stdout, os.Stderr
			if err := cmd.Run(); err != nil {
				log.Fatalf("serve: build.sh failed: %v", err)
			}
		}
	}
	ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", *port))
	if err != nil {
		log.Fatalf("serve: %v", err)
	}
	fmt.Printf("serving http://%s/\n", ln.Addr())
	log.Fatal(server(filepath.Join(root, "build"), defaultLimits).Serve(netutil.LimitListener(ln, defaultLimits.conns)))
}

// limits bound what a client can hold: the connections served at once (a
// client that never reads, or many idle ones, hold a file handle each) and
// how long each phase of a connection may take.
type limits struct {
	conns                     int
	header, read, write, idle time.Duration
}

var defaultLimits = limits{conns: 256, header: 10 * time.Second, read: 30 * time.Second, write: 60 * time.Second, idle: 60 * time.Second}

// server serves root with a timeout on every phase of a connection, so
// that slow or idle clients are let go (without them, idle keep-alive and
// never-reading clients were held for good: 400 file handles in 25 s).
func server(root string, l limits) *http.Server {
	return &http.Server{Handler: handler(root),
		ReadHeaderTimeout: l.header, ReadTimeout: l.read, WriteTimeout: l.write, IdleTimeout: l.idle}
}

// stale says why the build must be redone, or "" if it is up to date.
func stale(root string) string {
	var oldest time.Time
	for _, o := range outputs {
		st, err := os.Stat(filepath.Join(root, o))
		if err != nil {
			return o + " is missing"
		}
		if oldest.IsZero() || st.ModTime().Before(oldest) {
			oldest = st.ModTime()
		}
	}
	var newer string
	for _, s := range sources {
		filepath.WalkDir(filepath.Join(root, s), func(p string, d fs.DirEntry, err error) error {
			if err != nil || newer != "" {
				return nil
			}
			if d.IsDir() {
				if d.Name() == "testdata" {
					return filepath.SkipDir
				}
				return nil
			}
			if info, err := d.Info(); err == nil && info.ModTime().After(oldest) {
				newer = p
			}
			return nil
		})
	}
	if newer != "" {
		rel, _ := filepath.Rel(root, newer)
		return rel + " is newer than the build"
	}
	return ""
}

// csp allows scripts, styles, workers and fetches from this origin only;
// WebAssembly needs 'wasm-unsafe-eval'; Vecty sets inline style attributes.
const csp = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; " +
	"style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors *"

// handler serves the app's files from root (the build folder). Every
// reply, refusals included, carries the security headers. A file is served
// only if it is a regular file inside root with no symbolic link on the way
// (a link could point anywhere).
func handler(root string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", csp)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			h.Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		name, ok := allowed(r.URL.Path)
		if !ok {
			http.NotFound(w, r)
			return
		}
		file := filepath.Join(root, filepath.FromSlash(name))
		if !regularNoLinks(root, name) {
			http.NotFound(w, r)
			return
		}
		st, err := os.Stat(file)
		if err != nil {
			http.NotFound(w, r)
			return
		}
		h.Set("Cache-Control", "no-cache")
		h.Set("Content-Type", contentType(name))
		if gz, err := os.Stat(file + ".gz"); err == nil {
			h.Add("Vary", "Accept-Encoding")
			if acceptsGzip(r) && !gz.ModTime().Before(st.ModTime()) {
				h.Set("Content-Encoding", "gzip")
				file = file + ".gz"
			}
		}
		f, err := os.Open(file)
		if err != nil {
			http.NotFound(w, r)
			return
		}
		defer f.Close()
		info, _ := f.Stat()
		http.ServeContent(w, r, "", info.ModTime(), f)
	})
}

// allowed maps a URL path to a file of the build folder, or says no: "/"
// is index.html; .gz copies are served only as an encoding of their file.
func allowed(urlPath string) (string, bool) {
	if urlPath == "/" || urlPath == "/index.html" {
		return "index.html", true
	}
	if strings.Contains(urlPath, "\\") || strings.Contains(urlPath, "\x00") {
		return "", false
	}
	clean := path.Clean(urlPath)
	if clean != urlPath || strings.HasSuffix(urlPath, "/") {
		return "", false // no "..", no "//", no directory listings
	}
	name := strings.TrimPrefix(clean, "/")
	if name == "" || strings.HasSuffix(name, ".gz") {
		return "", false
	}
	for _, part := range strings.Split(name, "/") {
		if strings.HasPrefix(part, ".") {
			return "", false
		}
	}
	return name, true
}

func contentType(name string) string {
	switch path.Ext(name) {
	case ".wasm":
		return "application/wasm"
	case ".js":
		return "text/javascript; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".html":
		return "text/html; charset=utf-8"
	case ".csv":
		return "text/csv; charset=utf-8"
	case ".md":
		return "text/markdown; charset=utf-8"
	case ".webmanifest":
		return "application/manifest+json"
	}
	if t := mime.TypeByExtension(path.Ext(name)); t != "" {
		return t
	}
	return "application/octet-stream"
}

// regularNoLinks reports whether root/name (name slash-separated, already
// cleaned by allowed) is a regular file reached without following a
// symbolic link at any step.
func regularNoLinks(root, name string) bool {
	p := root
	parts := strings.Split(name, "/")
	for i, part := range parts {
		p = filepath.Join(p, part)
		st, err := os.Lstat(p)
		if err != nil || st.Mode()&fs.ModeSymlink != 0 {
			return false
		}
		if i == len(parts)-1 {
			return st.Mode().IsRegular()
		}
		if !st.IsDir() {
			return false
		}
	}
	return false
}

// acceptsGzip reads Accept-Encoding (RFC 9110, 12.5.3): gzip is accepted
// when listed (as gzip or x-gzip), or covered by "*", with a weight above
// zero; "gzip;q=0", "gzip;q=0.0" and a malformed weight refuse it.
func acceptsGzip(r *http.Request) bool {
	weights := map[string]float64{}
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		enc, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		enc = strings.ToLower(strings.TrimSpace(enc))
		if enc == "x-gzip" {
			enc = "gzip"
		}
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
			if strings.EqualFold(strings.TrimSpace(k), "q") {
				f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
				if err != nil || !(f >= 0 && f <= 1) {
					f = 0
				}
				q = f
			}
		}
		weights[enc] = q
	}
	if q, ok := weights["gzip"]; ok {
		return q > 0
	}
	return weights["*"] > 0
}
