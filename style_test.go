package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// maxFuncLines is the longest a function may be, its signature and
// closing brace included.
const maxFuncLines = 80

// longAllowed are the functions allowed to be longer, and why: each keeps
// a readable form elsewhere.
var longAllowed = map[string]string{
	"core/steqr.go dsteqr":         "gonum's Dsteqr with one change, kept line for line beside its source so that the two can be compared",
	"wasm/simd/kernels.go outer":   "a kernel's emitter: its WebAssembly text is wasm/simd/kernels.wat",
	"wasm/simd/kernels.go pairs":   "a kernel's emitter: its WebAssembly text is wasm/simd/kernels.wat",
	"wasm/simd/kernels.go rowDots": "a kernel's emitter: its WebAssembly text is wasm/simd/kernels.wat",
}

// No function outside the tests is longer than maxFuncLines, but those
// longAllowed names; and each of those still exists and is still long.
func TestFunctionLength(t *testing.T) {
	fset := token.NewFileSet()
	long := map[string]bool{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "build" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if ast.IsGenerated(f) {
			return nil
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			n := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1
			if n <= maxFuncLines {
				continue
			}
			key := filepath.ToSlash(path) + " " + fn.Name.Name
			long[key] = true
			if _, ok := longAllowed[key]; !ok {
				t.Errorf("%s: %s is %d lines; at most %d", fset.Position(fn.Pos()), fn.Name.Name, n, maxFuncLines)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for key := range longAllowed {
		if !long[key] {
			t.Errorf("%s is allowed to be long but is not (or is gone): drop it from longAllowed", key)
		}
	}
}
