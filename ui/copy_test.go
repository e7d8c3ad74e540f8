package ui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestComponentsCopy checks, in the package's source, that every type
// embedding vecty.Core has a Copy method that leaves the Core behind (it
// sets Core to vecty.Core{} or returns a new composite literal): without
// it, Vecty's shallow copy keeps every render the component ever made
// (copy.go). It reads the source, so it runs natively.
func TestComponentsCopy(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	components := map[string]token.Position{}
	copies := map[string]*ast.FuncDecl{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.TypeSpec:
				st, ok := n.Type.(*ast.StructType)
				if !ok {
					return true
				}
				for _, fld := range st.Fields.List {
					if sel, ok := fld.Type.(*ast.SelectorExpr); ok && len(fld.Names) == 0 && sel.Sel.Name == "Core" {
						if x, ok := sel.X.(*ast.Ident); ok && x.Name == "vecty" {
							components[n.Name.Name] = fset.Position(n.Pos())
						}
					}
				}
			case *ast.FuncDecl:
				if n.Name.Name == "Copy" && n.Recv != nil && len(n.Recv.List) == 1 {
					copies[receiverType(n.Recv.List[0].Type)] = n
				}
			}
			return true
		})
	}
	if len(components) < 5 {
		t.Fatalf("found %d components in the source; the test cannot see them", len(components))
	}
	for name, pos := range components {
		fn, ok := copies[name]
		if !ok {
			t.Errorf("%s: component %s has no Copy method: Vecty's shallow copy would keep all its renders", pos, name)
			continue
		}
		if !leavesCore(fn) {
			t.Errorf("%s: %s.Copy neither clears Core nor returns a new literal", fset.Position(fn.Pos()), name)
		}
	}
}

// receiverType names a method's receiver type: T for *T and *T[P].
func receiverType(e ast.Expr) string {
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	switch e := e.(type) {
	case *ast.IndexExpr:
		return receiverType(e.X)
	case *ast.IndexListExpr:
		return receiverType(e.X)
	case *ast.Ident:
		return e.Name
	}
	return ""
}

// leavesCore reports whether fn assigns vecty.Core{} to a Core field or
// returns &T{...}.
func leavesCore(fn *ast.FuncDecl) bool {
	found := false
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				if sel, ok := l.(*ast.SelectorExpr); ok && sel.Sel.Name == "Core" && i < len(n.Rhs) {
					if lit, ok := n.Rhs[i].(*ast.CompositeLit); ok && len(lit.Elts) == 0 {
						found = true
					}
				}
			}
		case *ast.ReturnStmt:
			if len(n.Results) == 1 {
				if u, ok := n.Results[0].(*ast.UnaryExpr); ok && u.Op == token.AND {
					if lit, ok := u.X.(*ast.CompositeLit); ok && len(lit.Elts) == 0 {
						found = true
					}
				}
			}
		}
		return true
	})
	return found
}
