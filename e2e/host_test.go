package e2e

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// build/ is the whole site: a plain static file server (Go's, with none of
// serve.go's headers, no gzip, no security policy) serves it as it is, and
// the app loads, trains and reads its built-in datasets.
func TestStaticHost(t *testing.T) {
	root, _ := filepath.Abs(filepath.Join("..", "build"))
	host := httptest.NewServer(http.FileServer(http.Dir(root)))
	defer host.Close()
	p := newTab(t)
	p.navigate(host.URL + "/#data=Sonar&lambda=64")
	p.waitTrainEnabled()
	p.click("train")
	p.waitResult("converged", 60*time.Second)
	if e := p.text("error-learned"); !strings.HasSuffix(e, "%") {
		t.Errorf("learned error %q", e)
	}
}
