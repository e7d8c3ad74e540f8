package main

import (
	"os/exec"
	"strings"
	"testing"
)

// The page's code (ui/) must link neither core, gonum nor fmt: the page
// reaches the solver only through the worker's protocol (the one program,
// wasm/app, links core for the worker's side). It shares its vocabulary
// with core through spec, which imports neither.
func TestPageLinks(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "./ui")
	cmd.Env = append(cmd.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	var bad []string
	for _, d := range deps {
		if d == "fmt" || strings.HasPrefix(d, "gonum.org/") || d == "github.com/rml-lab/rml/core" {
			bad = append(bad, d)
		}
	}
	if len(bad) > 0 {
		t.Errorf("the page links %v", bad)
	}
	if !strings.Contains(string(out), "github.com/rml-lab/rml/spec") {
		t.Error("the page does not use spec: its vocabulary is a copy again")
	}
}
